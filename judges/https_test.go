package judges

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/internal/testpki"
)

// TestHTTPS_SecureCookies serves the dashboard over HTTPS: a judge signs
// in, every cookie is Secure, and plain HTTP gets nothing.
func TestHTTPS_SecureCookies(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pki := testpki.New(t)
	certFile, keyFile := pki.Issue(t, "judges", true)
	br := startBroker(t, ctx, "local", nil)
	srv := startDashboard(t, ctx, br.url, Opts{CertFile: certFile, KeyFile: keyFile})
	waitFor(t, "the dashboard", 5*time.Second, func() bool { return srv.Addr() != nil })
	base := "https://" + srv.Addr().String()

	c := newClient(t, base)
	c.hc.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pki.Pool()}}
	var set []*http.Cookie
	c.hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		set = append(set, req.Response.Cookies()...)
		return nil
	}
	resp, err := c.hc.Get(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	set = append(set, resp.Cookies()...)
	c.login(DemoJudgeName, DemoJudgePasswd)
	names := map[string]bool{}
	for _, ck := range set {
		names[ck.Name] = true
		if !ck.Secure || !ck.HttpOnly {
			t.Errorf("cookie %s: Secure %v HttpOnly %v, want both", ck.Name, ck.Secure, ck.HttpOnly)
		}
	}
	if !names[sessionCookie] || !names[loginCSRF] {
		t.Errorf("cookies set %v, want %s and %s", names, sessionCookie, loginCSRF)
	}
	u, _ := url.Parse(base)
	if len(c.hc.Jar.Cookies(u)) == 0 {
		t.Error("no session kept over HTTPS")
	}
	plain := &http.Client{Timeout: 5 * time.Second}
	if resp, err := plain.Get("http://" + srv.Addr().String() + "/"); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("the HTTPS dashboard answered a page over plain HTTP")
		}
	}
}

func TestHTTPS_BadFilesNamed(t *testing.T) {
	certFile, _ := testpki.New(t).Issue(t, "judges", true)
	if _, err := New(Opts{CertFile: certFile, Logger: quietLog()}); err == nil || !strings.Contains(err.Error(), "both a certificate and a key") {
		t.Errorf("certificate without key: %v", err)
	}
	if _, err := New(Opts{CertFile: certFile, KeyFile: "/nonexistent/key.pem", Logger: quietLog()}); err == nil || !strings.Contains(err.Error(), "/nonexistent/key.pem") {
		t.Errorf("missing key file: %v, want it named", err)
	}
}
