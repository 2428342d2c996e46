package judges

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestThrottle_GrowingWaitsPerUserAndAddress(t *testing.T) {
	now := time.Unix(1000, 0)
	th := newThrottle()
	th.now = func() time.Time { return now }
	// Five failures of a user are free; then each waits twice as long.
	for i := range 5 {
		if w := th.failed("ana", "10.0.0.1:5000"); w != 0 {
			t.Fatalf("failure %d: wait %v, want none", i+1, w)
		}
	}
	var waits []time.Duration
	for range 4 {
		waits = append(waits, th.failed("ana", "10.0.0.1:5000"))
		if th.wait("ana", "10.0.0.9:1") == 0 {
			t.Fatal("another address may try the same user at once")
		}
		now = now.Add(waits[len(waits)-1])
		if w := th.wait("ana", "10.0.0.1:5000"); w != 0 {
			t.Fatalf("still %v to wait once the wait is over", w)
		}
	}
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second} {
		if waits[i] != want {
			t.Errorf("wait %d: %v, want %v", i+1, waits[i], want)
		}
	}
	// The ceiling.
	for range 40 {
		th.failed("ana", "10.0.0.1:5000")
	}
	if w := th.wait("ana", "10.0.0.1:5000"); w != th.ceil {
		t.Errorf("wait after many failures %v, want the ceiling %v", w, th.ceil)
	}
	// An address trying many users is slowed down too.
	th2 := newThrottle()
	th2.now = th.now
	for i := range 21 {
		th2.failed("user"+strconv.Itoa(i), "10.0.0.2:1")
	}
	if th2.wait("someone-else", "10.0.0.2:9") == 0 {
		t.Error("an address that failed 21 times with 21 users may go on at once")
	}
	if th2.wait("someone-else", "10.0.0.3:9") != 0 {
		t.Error("another address is slowed down by the first")
	}
	// A success clears its user and address.
	th.succeeded("ana", "10.0.0.1:5000")
	if th.wait("ana", "10.0.0.1:5000") != 0 {
		t.Error("still waiting after a success")
	}
}

// testServer is a dashboard with one judge, ana / secret, served by
// httptest (no broker needed for signing in).
func testServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	h, err := hashWith("secret", []byte("0123456789abcdef"), 1000)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Opts{Judges: []Judge{{Name: "ana", PasswordHash: h}}, Logger: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return srv, hs
}

// signIn posts the login form and returns the answer, not following a
// redirect.
func signIn(t *testing.T, base, user, pw, next string) *http.Response {
	t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Get(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := csrfRe.FindStringSubmatch(string(body))
	if m == nil {
		t.Fatalf("no csrf on the login page")
	}
	req, _ := http.NewRequest("POST", base+"/login", strings.NewReader(url.Values{"csrf": {m[1]}, "user": {user}, "password": {pw}, "next": {next}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range resp.Cookies() {
		req.AddCookie(c)
	}
	resp, err = hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// Wrong passwords in a row are answered 429 with Retry-After, even the
// right one, until the wait is over: guessing a password is slowed down to
// nothing.
func TestSignIn_Throttled_429RetryAfter(t *testing.T) {
	srv, hs := testServer(t)
	now := time.Now()
	srv.throttle.now = func() time.Time { return now }
	for i := range 6 {
		if resp := signIn(t, hs.URL, "ana", "guess"+strconv.Itoa(i), "/"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp := signIn(t, hs.URL, "ana", "secret", "/")
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("right password while throttled: %d, want 429", resp.StatusCode)
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	now = now.Add(2 * time.Second)
	if resp := signIn(t, hs.URL, "ana", "secret", "/"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("right password once the wait is over: %d, want 303", resp.StatusCode)
	}
}

// next= sends the browser only to a path of this site, checked with
// net/url: a tab, a backslash, two slashes or a scheme go to "/".
func TestSafeNext(t *testing.T) {
	cases := map[string]string{
		"/t/local/1":           "/t/local/1",
		"/t/local/1?lang=en":   "/t/local/1?lang=en",
		"/":                    "/",
		"":                     "/",
		"/\t/evil.example/x":   "/",
		"/%09/evil.example/x":  "/%09/evil.example/x", // still encoded: a path of this site
		"//evil.example/x":     "/",
		"/\\evil.example":      "/",
		"\\\\evil.example":     "/",
		"https://evil.example": "/",
		"javascript:alert(1)":  "/",
		"/%2F/evil.example":    "/",
		"/ok\r\nSet-Cookie: x": "/",
		"evil.example/x":       "/",
		"/a b":                 "/",
		"http:/evil.example":   "/",
		"/x#frag":              "/x",
		"///evil.example":      "/",
	}
	for in, want := range cases {
		if got := safeNext(in); got != want {
			t.Errorf("safeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

// The redirect after signing in stays on the site whatever next= says.
func TestSignIn_NextStaysOnTheSite(t *testing.T) {
	_, hs := testServer(t)
	for _, next := range []string{"/\t/evil.example/x", "//evil.example", "https://evil.example/"} {
		resp := signIn(t, hs.URL, "ana", "secret", next)
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/" {
			t.Errorf("next %q: %d to %q, want 303 to /", next, resp.StatusCode, loc)
		}
	}
}

// /static/ serves the assets and nothing else: no template's source.
func TestStatic_OnlyAssets(t *testing.T) {
	_, hs := testServer(t)
	for path, want := range map[string]int{
		"/static/app.js": 200, "/static/style.css": 200,
		"/static/login.html": 404, "/static/parts.html": 404, "/static/index.html": 404, "/static/table.html": 404,
		"/static/../server.go": 404,
	} {
		resp, err := http.Get(hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
}

// The demo judge is refused beyond this machine.
func TestNew_DemoJudgeOnlyOnLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:0": true, "localhost:8080": true, "[::1]:0": true,
		"0.0.0.0:8080": false, ":8080": false, "192.168.1.2:80": false} {
		_, err := New(Opts{Addr: addr, Logger: quietLog()})
		if ok != (err == nil) || (!ok && !errors.Is(err, ErrDemoJudgeOffLoopback)) {
			t.Errorf("demo judge on %s: %v", addr, err)
		}
	}
	if _, err := New(Opts{Addr: "0.0.0.0:8080", Judges: []Judge{{Name: "ana", Password: "x"}}, Logger: quietLog()}); err != nil {
		t.Errorf("configured judges on 0.0.0.0: %v", err)
	}
}

// A client that sends its request's header too slowly, or sits idle, is
// cut off by the server's timeouts.
func TestServer_Timeouts(t *testing.T) {
	srv, err := New(Opts{Addr: "127.0.0.1:0", Broker: "tcp://127.0.0.1:1", Logger: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	srv.readHeaderTimeout, srv.readTimeout, srv.idleTimeout = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	defer func() { cancel(); <-done }()
	closedWithin := func(c net.Conn, d time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(d))
		_, err := io.Copy(io.Discard, c)
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
	// A header never finished.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n"))
	if !closedWithin(c, 3*time.Second) {
		t.Error("a slow header was not cut off")
	}
	c.Close()
	// An idle keep-alive connection.
	c, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v", err)
	}
	io.Copy(io.Discard, resp.Body)
	t0 := time.Now()
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, err = br.ReadByte()
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Error("an idle connection was not closed")
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("idle connection closed after %v", d)
	}
	c.Close()
}

// Whatever next= holds, the redirect stays on the site: a path starting
// with one slash, no scheme, no host, nothing a browser would mend into
// another site's address.
func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/t/a/1", "/\t/evil.example", "//x", "/\\x", "https://x", "/%2F/x", "/a?b=c#d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, next string) {
		got := safeNext(next)
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(got, "/") || strings.HasPrefix(got, "//") ||
			strings.ContainsAny(got, "\\\t\r\n ") || strings.HasPrefix(u.Path, "//") {
			t.Fatalf("safeNext(%q) = %q", next, got)
		}
	})
}
