package judges

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a certificate for 127.0.0.1 and its key as PEM files.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "parchis judges"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	c, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(c)
	return certFile, keyFile, pool
}

// TestHTTPS_SecureCookies serves the dashboard over HTTPS: a judge signs
// in, every cookie is Secure, and plain HTTP gets nothing.
func TestHTTPS_SecureCookies(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	certFile, keyFile, pool := selfSigned(t)
	br := startBroker(t, ctx, "local", nil)
	srv := startDashboard(t, ctx, br.url, Opts{CertFile: certFile, KeyFile: keyFile})
	waitFor(t, "the dashboard", 5*time.Second, func() bool { return srv.Addr() != nil })
	base := "https://" + srv.Addr().String()

	c := newClient(t, base)
	c.hc.Transport = &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
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
	certFile, _, _ := selfSigned(t)
	if _, err := New(Opts{CertFile: certFile, Logger: quietLog()}); err == nil || !strings.Contains(err.Error(), "both a certificate and a key") {
		t.Errorf("certificate without key: %v", err)
	}
	if _, err := New(Opts{CertFile: certFile, KeyFile: "/nonexistent/key.pem", Logger: quietLog()}); err == nil || !strings.Contains(err.Error(), "/nonexistent/key.pem") {
		t.Errorf("missing key file: %v, want it named", err)
	}
}
