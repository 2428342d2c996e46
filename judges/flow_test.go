package judges

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
)

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t *testing.T, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

var csrfRe = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// client is a browser-like HTTP client with cookies.
type client struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newClient(t *testing.T, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

func (c *client) get(path string) (int, string) {
	c.t.Helper()
	resp, err := c.hc.Get(c.base + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c *client) post(path string, form url.Values) (int, string) {
	c.t.Helper()
	resp, err := c.hc.PostForm(c.base+path, form)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// login signs in and returns the session's CSRF token.
func (c *client) login(user, pw string) string {
	c.t.Helper()
	_, body := c.get("/login")
	m := csrfRe.FindStringSubmatch(body)
	if m == nil {
		c.t.Fatalf("no csrf on the login page: %s", body)
	}
	code, body := c.post("/login", url.Values{"csrf": {m[1]}, "user": {user}, "password": {pw}, "next": {"/"}})
	if code != http.StatusOK || !strings.Contains(body, user) {
		c.t.Fatalf("login: %d %s", code, body)
	}
	m = csrfRe.FindStringSubmatch(body)
	if m == nil {
		c.t.Fatalf("no csrf after login: %s", body)
	}
	return m[1]
}

// TestFlow_TableToDashboard_CertifyOverMQTT plays a game on a simulated
// table and checks that the dashboard follows it, then certifies the
// result as a signed-in judge; the table accepts the signed verdict.
func TestFlow_TableToDashboard_CertifyOverMQTT(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 7)
	base := "http://" + srv.Addr().String()

	waitFor(t, "the table on the dashboard", 5*time.Second, func() bool {
		tb, ok := srv.Store().Get("local/1")
		return ok && tb.Status == "online" && tb.LastSeq >= 1
	})
	seq := st.step()
	waitFor(t, "the throw", 2*time.Second, func() bool { tb, _ := srv.Store().Get("local/1"); return tb.LastSeq == seq })
	st.playToEnd()
	inf := st.infraction("touched-piece", "5", "a piece was lifted out of turn")
	res := st.Result()
	if res == nil {
		t.Fatal("game did not end")
	}
	waitFor(t, "the result", 5*time.Second, func() bool { tb, _ := srv.Store().Get("local/1"); return tb.Pending() && tb.LastSeq == inf })

	c := newClient(t, base)
	_, page := c.get("/")
	for _, want := range []string{"Resultados por certificar", "Mesa 1", "Ficha tocada"} {
		if !strings.Contains(page, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	// Not signed in: the action sends to the login page.
	code, body := c.post("/t/local/1/certify", url.Values{})
	if code != http.StatusOK || !strings.Contains(body, `id="login-form"`) {
		t.Fatalf("certify without a session: %d, want the login page", code)
	}
	csrf := c.login(DemoJudgeName, DemoJudgePasswd)
	code, body = c.post("/t/local/1/certify", url.Values{"csrf": {"bad"}})
	if code != http.StatusForbidden {
		t.Fatalf("certify with a bad CSRF token: %d, want 403", code)
	}
	// A verdict on another result than the one shown is not signed.
	_, body = c.post("/t/local/1/certify", url.Values{"csrf": {csrf}, "record": {"0123"}})
	if !strings.Contains(body, T(LangES, "result-changed")) || st.Result().Certification != nil {
		t.Fatalf("certify of a result not shown: want %q", T(LangES, "result-changed"))
	}
	code, body = c.post("/t/local/1/certify", url.Values{"csrf": {csrf}, "record": {res.RecordSHA256}})
	if code != http.StatusOK || !strings.Contains(body, T(LangES, "ok")) {
		t.Fatalf("certify: %d %s", code, body)
	}
	got := st.Result()
	if got.Certification == nil || got.Certification.Verdict != broadcast.VerdictCertified || got.Certification.Judge != DemoJudgeName {
		t.Fatalf("table's result after certify: %+v", got.Certification)
	}
	if err := got.Verify(); err != nil {
		t.Fatal(err)
	}
	if err := got.VerifyCertification(got.Certification, srv.JudgeKeys()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the certification on the dashboard", 5*time.Second, func() bool {
		tb, _ := srv.Store().Get("local/1")
		return tb.Result != nil && tb.Result.Certification != nil
	})
	// A second verdict is refused by the dashboard before it reaches the table.
	_, body = c.post("/t/local/1/reject", url.Values{"csrf": {csrf}, "reason": {"x"}, "record": {res.RecordSHA256}})
	if !strings.Contains(body, T(LangES, "already")) {
		t.Errorf("second verdict: want %q", T(LangES, "already"))
	}
	// Correct a position; a bad one is refused with the field named.
	_, body = c.post("/t/local/1/correct", url.Values{"csrf": {csrf}, "position": {"5:Y Q throw 0 - Y"}})
	if !strings.Contains(body, T(LangES, "bad-position")) {
		t.Errorf("bad correction: no error shown")
	}
	_, body = c.post("/t/local/1/correct", url.Values{"csrf": {csrf}, "position": {"5:Y,22:B Y throw 0 - Y"}})
	if !strings.Contains(body, T(LangES, "ok")) {
		t.Errorf("correction refused")
	}
	waitFor(t, "the corrected position", 5*time.Second, func() bool {
		tb, _ := srv.Store().Get("local/1")
		return tb.Position == "5:Y,22:B Y throw 0 - Y"
	})
	// New game.
	_, body = c.post("/t/local/1/new-game", url.Values{"csrf": {csrf}, "player-Y": {"Eva"}, "player-B": {"Fer"}, "player-R": {"Gil"}, "player-G": {"Hugo"}, "starter": {"B"}})
	if !strings.Contains(body, T(LangES, "ok")) {
		t.Errorf("new game refused")
	}
	waitFor(t, "the new game", 5*time.Second, func() bool {
		tb, _ := srv.Store().Get("local/1")
		return tb.State != nil && tb.State.Players["Y"] == "Eva" && tb.LastSeq == 1
	})
}

// TestLogout_NeedsTheSessionsToken checks that a form from elsewhere
// cannot sign a judge out, and the dashboard's own button can.
func TestLogout_NeedsTheSessionsToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	br := startBroker(t, ctx, "local", nil)
	srv := startDashboard(t, ctx, br.url, Opts{})
	waitFor(t, "the dashboard", 5*time.Second, func() bool { return srv.Addr() != nil })
	c := newClient(t, "http://"+srv.Addr().String())
	csrf := c.login(DemoJudgeName, DemoJudgePasswd)
	signedIn := func() bool {
		_, page := c.get("/")
		return strings.Contains(page, `action="/logout"`)
	}
	for _, bad := range []url.Values{{}, {"csrf": {"0123"}}} {
		if code, _ := c.post("/logout", bad); code != http.StatusForbidden {
			t.Errorf("logout with csrf %q: %d, want 403", bad.Get("csrf"), code)
		}
		if !signedIn() {
			t.Fatalf("logout with csrf %q signed the judge out", bad.Get("csrf"))
		}
	}
	if code, _ := c.post("/logout", url.Values{"csrf": {csrf}}); code != http.StatusOK {
		t.Errorf("logout: %d", code)
	}
	if signedIn() {
		t.Error("still signed in after logging out")
	}
}
