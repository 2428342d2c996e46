package broadcast

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLSFiles names the PEM files of a TLS setup. The zero value means no
// TLS.
type TLSFiles struct {
	// CA is the certificate authority that signed the other side's
	// certificate: the broker's, for a client; the clients', for a broker
	// that then requires client certificates. Empty: the system roots
	// (client) or no client certificates (broker).
	CA string `json:"ca,omitempty" yaml:"ca,omitempty"`
	// Cert and Key are this side's certificate and key; required for a
	// broker, optional for a client.
	Cert string `json:"cert,omitempty" yaml:"cert,omitempty"`
	Key  string `json:"key,omitempty" yaml:"key,omitempty"`
}

// Enabled reports whether any file is named.
func (t TLSFiles) Enabled() bool { return t.CA != "" || t.Cert != "" || t.Key != "" }

// clientConfig returns the tls.Config of a client, or nil without TLS.
func (t TLSFiles) clientConfig() (*tls.Config, error) {
	if !t.Enabled() {
		return nil, nil
	}
	c := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.CA != "" {
		pool, err := loadPool(t.CA)
		if err != nil {
			return nil, err
		}
		c.RootCAs = pool
	}
	if (t.Cert == "") != (t.Key == "") {
		return nil, errors.New("tls: cert and key go together")
	}
	if t.Cert != "" {
		kp, err := tls.LoadX509KeyPair(t.Cert, t.Key)
		if err != nil {
			return nil, fmt.Errorf("tls: %w", err)
		}
		c.Certificates = []tls.Certificate{kp}
	}
	return c, nil
}

// serverConfig returns the tls.Config of a broker, or nil without TLS.
func (t TLSFiles) serverConfig() (*tls.Config, error) {
	if !t.Enabled() {
		return nil, nil
	}
	if t.Cert == "" || t.Key == "" {
		return nil, errors.New("tls: a broker needs cert and key")
	}
	kp, err := tls.LoadX509KeyPair(t.Cert, t.Key)
	if err != nil {
		return nil, fmt.Errorf("tls: %w", err)
	}
	c := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{kp}}
	if t.CA != "" {
		pool, err := loadPool(t.CA)
		if err != nil {
			return nil, err
		}
		c.ClientCAs = pool
		c.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return c, nil
}

func loadPool(file string) (*x509.CertPool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("tls: CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("tls: CA %s: no PEM certificate", file)
	}
	return pool, nil
}
