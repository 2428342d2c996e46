// Package browsertest drives headless Chromium (Debian's chromium) from
// tests, over the DevTools protocol with a minimal WebSocket client written
// on the standard library: open a page, wait for a JavaScript condition,
// click through it, take screenshots. Tests skip when chromium is missing
// (ci/chromium.sh installs it).
package browsertest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The WebSocket client is RFC 6455 with text frames, enough for DevTools.

// wsConn is a client WebSocket connection.
type wsConn struct {
	c  net.Conn
	br *bufio.Reader
	wm sync.Mutex
}

// wsDial opens a WebSocket to a ws:// URL.
func wsDial(ctx context.Context, rawURL string) (*wsConn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	keyb := make([]byte, 16)
	_, _ = rand.Read(keyb)
	key := base64.StdEncoding.EncodeToString(keyb)
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		c.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(c, 1<<16)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %w", err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	return &wsConn{c: c, br: br}, nil
}

// writeText sends one masked text frame.
func (w *wsConn) writeText(p []byte) error {
	w.wm.Lock()
	defer w.wm.Unlock()
	h := []byte{0x81, 0}
	switch n := len(p); {
	case n < 126:
		h[1] = 0x80 | byte(n)
	case n < 1<<16:
		h[1] = 0x80 | 126
		h = binary.BigEndian.AppendUint16(h, uint16(n))
	default:
		h[1] = 0x80 | 127
		h = binary.BigEndian.AppendUint64(h, uint64(n))
	}
	mask := make([]byte, 4)
	_, _ = rand.Read(mask)
	h = append(h, mask...)
	body := make([]byte, len(p))
	for i := range p {
		body[i] = p[i] ^ mask[i%4]
	}
	_, err := w.c.Write(append(h, body...))
	return err
}

// readMessage returns the next text or binary message, joining fragments
// and answering pings.
func (w *wsConn) readMessage() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.br, h[:]); err != nil {
			return nil, err
		}
		fin, op := h[0]&0x80 != 0, h[0]&0x0f
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(w.br, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(w.br, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if h[1]&0x80 != 0 {
			return nil, errors.New("websocket: masked frame from server")
		}
		if n > 64<<20 {
			return nil, errors.New("websocket: frame too large")
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(w.br, p); err != nil {
			return nil, err
		}
		switch op {
		case 0x8:
			return nil, io.EOF
		case 0x9: // ping: answer pong
			w.wm.Lock()
			mask := []byte{0, 0, 0, 0}
			fr := append([]byte{0x8a, 0x80 | byte(len(p))}, mask...)
			_, _ = w.c.Write(append(fr, p...))
			w.wm.Unlock()
			continue
		case 0xa:
			continue
		}
		msg = append(msg, p...)
		if fin {
			return msg, nil
		}
	}
}

// cdp is a DevTools protocol session with one page.
type cdp struct {
	ws *wsConn

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpReply
	done    chan struct{}
}

type cdpReply struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func newCDP(ws *wsConn) *cdp {
	c := &cdp{ws: ws, waiting: map[int]chan cdpReply{}, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for {
			m, err := ws.readMessage()
			if err != nil {
				return
			}
			var r cdpReply
			if json.Unmarshal(m, &r) != nil || r.ID == 0 {
				continue // an event
			}
			c.mu.Lock()
			ch := c.waiting[r.ID]
			delete(c.waiting, r.ID)
			c.mu.Unlock()
			if ch != nil {
				ch <- r
			}
		}
	}()
	return c
}

// call sends a command and decodes its result into out (when not nil).
func (c *cdp) call(ctx context.Context, method string, params any, out any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan cdpReply, 1)
	c.waiting[id] = ch
	c.mu.Unlock()
	if params == nil {
		params = struct{}{}
	}
	b, err := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err != nil {
		return err
	}
	if err := c.ws.writeText(b); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(r.Result, out)
		}
		return nil
	case <-c.done:
		return fmt.Errorf("%s: connection closed", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

// eval evaluates a JavaScript expression in the page and decodes its
// value into out.
func (c *cdp) eval(ctx context.Context, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := c.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("js: %s %s", r.ExceptionDetails.Text, r.ExceptionDetails.Exception.Description)
	}
	if out != nil && len(r.Result.Value) > 0 {
		return json.Unmarshal(r.Result.Value, out)
	}
	return nil
}

// Browser is a headless Chromium with one page under DevTools control.
type Browser struct {
	cmd  *exec.Cmd
	page *cdp
}

// Chromium returns the path of Debian's chromium, or skips the test.
func Chromium(t testing.TB) string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("chromium is not installed: run ci/chromium.sh")
	return ""
}

// Start starts headless Chromium on startURL, in Spanish, and attaches to
// its page. It stops with the test.
func Start(t *testing.T, ctx context.Context, startURL string) *Browser {
	t.Helper()
	bin := Chromium(t)
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,1000", "--lang=es", "--accept-lang=es-ES,es",
		"--user-data-dir="+dir, "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		startURL)
	// Chromium runs helper processes that write to its profile folder:
	// in a process group of its own, the whole of it is stopped, and
	// waited for, before the test removes the folder.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
		// A helper killed in the middle of a write finishes it: the
		// folder is removed again until nothing comes back.
		var err error
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if err = os.RemoveAll(dir); err == nil {
				return
			}
		}
		t.Errorf("chromium's profile folder: %v", err)
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if i := strings.Index(line, "DevTools listening on "); i >= 0 {
				select {
				case found <- strings.TrimSpace(line[i+len("DevTools listening on "):]):
				default:
				}
			}
			if os.Getenv("CHROMIUM_LOG") != "" {
				t.Log("chromium:", line)
			}
		}
	}()
	var wsURL string
	select {
	case wsURL = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("chromium did not open its DevTools port in 30 s")
	}
	u, _ := url.Parse(wsURL)
	var pageWS string
	deadline := time.Now().Add(10 * time.Second)
	for pageWS == "" && time.Now().Before(deadline) {
		resp, err := http.Get("http://" + u.Host + "/json/list")
		if err == nil {
			var targets []struct {
				Type string `json:"type"`
				WS   string `json:"webSocketDebuggerUrl"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
			for _, tg := range targets {
				if tg.Type == "page" {
					pageWS = tg.WS
					break
				}
			}
		}
		if pageWS == "" {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if pageWS == "" {
		t.Fatal("chromium has no page target")
	}
	ws, err := wsDial(ctx, pageWS)
	if err != nil {
		t.Fatalf("devtools: %v", err)
	}
	t.Cleanup(func() { ws.c.Close() })
	return &Browser{cmd: cmd, page: newCDP(ws)}
}

// WaitJS polls a JavaScript condition until it is true, and returns how
// long that took; the test fails when the timeout passes first.
func (b *Browser) WaitJS(ctx context.Context, t *testing.T, expr string, timeout time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		var ok bool
		if err := b.page.eval(ctx, "!!("+expr+")", &ok); err == nil && ok {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			var html string
			_ = b.page.eval(ctx, "document.body ? document.body.innerText.slice(0, 2000) : ''", &html)
			t.Fatalf("after %v still not true: %s\npage: %s", timeout, expr, html)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// WaitLong is how long a test waits for a page to reach a state it must
// reach. It is long because a shared machine under load can stall a
// browser for seconds; a test that measures how fast the page is asserts
// that on its own.
const WaitLong = 30 * time.Second

// ClickUntil clicks the element with the given id, as a person would,
// until done is true: once on each load of the page that shows it. A live
// page reloads itself when its event stream drops, and a click made just
// then is lost; a person would click again.
func (b *Browser) ClickUntil(ctx context.Context, t *testing.T, id, done string, timeout time.Duration) {
	t.Helper()
	click := `(function () { var e = document.getElementById(` + jsString(id) + `);` +
		` if (e && !window.clickedUntil) { window.clickedUntil = true; e.click(); } return false; })()`
	b.WaitJS(ctx, t, "("+done+") || "+click, timeout)
}

// Navigate loads a URL and waits for the page to be ready.
func (b *Browser) Navigate(ctx context.Context, t *testing.T, u string) {
	t.Helper()
	if err := b.page.call(ctx, "Page.navigate", map[string]any{"url": u}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	b.WaitJS(ctx, t, `document.readyState === "complete" && location.href.indexOf(`+jsString(strings.SplitN(u, "?", 2)[0])+`) === 0`, WaitLong)
}

// Screenshot writes a PNG of the page to path.
func (b *Browser) Screenshot(ctx context.Context, t *testing.T, path string) {
	t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	if err := b.page.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": false}, &r); err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Eval evaluates a JavaScript expression in the page and decodes its value
// into out (when not nil).
func (b *Browser) Eval(ctx context.Context, expr string, out any) error {
	return b.page.eval(ctx, expr, out)
}

// SetViewport makes the page width × height CSS pixels, as a phone
// (mobile: touch, device scale 2) or a laptop shows it, and waits for the
// page to lay itself out again.
func (b *Browser) SetViewport(ctx context.Context, t *testing.T, width, height int, mobile bool) {
	t.Helper()
	scale := 1
	if mobile {
		scale = 2
	}
	if err := b.page.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile,
	}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
}
