package broadcast

import (
	"context"
	"crypto/tls"
	"os"
	"path/filepath"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/internal/testnet"
	"github.com/parchis-table/parchis/internal/testpki"
)

// The embedded broker under TLS, with client certificates required: a
// table with a certificate of the CA delivers its events; a client without
// one cannot connect.
func TestFeed_TLS_ClientCertificates(t *testing.T) {
	pki := testpki.New(t)
	srvCert, srvKey := pki.Issue(t, "broker", true)
	cliCert, cliKey := pki.Issue(t, "table", false)
	tb := &testBroker{addr: testnet.Addr(t), event: "club", table: "t1", tableUser: "table-t1", tablePass: "pw"}
	h, _ := hashPassword(tb.tablePass, 1000)
	b, err := NewBroker(BrokerOpts{TCPAddr: tb.addr, WSAddr: "off", AllowAnonymous: true, Logger: quietLogger(),
		TLS:   TLSFiles{CA: pki.CAFile, Cert: srvCert, Key: srvKey},
		Users: []User{{Name: tb.tableUser, Password: h, Role: RoleTable, Event: tb.event, Table: tb.table}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}

	// A subscriber with a client certificate.
	kp, err := tls.LoadX509KeyPair(cliCert, cliKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := pki.Pool()
	got := make(chan []byte, 8)
	sub := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("ssl://" + tb.addr).SetClientID("tls-sub").
		SetTLSConfig(&tls.Config{RootCAs: pool, Certificates: []tls.Certificate{kp}}))
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscriber over TLS: %v", tok.Error())
	}
	defer sub.Disconnect(100)
	sub.Subscribe(Prefix(tb.event, tb.table)+TopicEvents, 1, func(_ mqtt.Client, m mqtt.Message) { got <- m.Payload() }).Wait()

	p, err := New(Opts{Broker: "ssl://" + tb.addr, Username: tb.tableUser, Password: tb.tablePass, QueueDir: t.TempDir(),
		TLS: TLSFiles{CA: pki.CAFile, Cert: cliCert, Key: cliKey}, Event: tb.event, Table: tb.table, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	go p.Run(ctx)
	p.Event(testEvent(1))
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("no event delivered over TLS")
	}

	// Without a client certificate the broker refuses the connection.
	bare := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("ssl://" + tb.addr).SetClientID("tls-bare").
		SetConnectTimeout(3 * time.Second).SetTLSConfig(&tls.Config{RootCAs: pool}))
	if tok := bare.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
		bare.Disconnect(100)
		t.Error("a client without a certificate connected")
	}
	// A client that does not trust the CA refuses the broker.
	untrusting := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("ssl://" + tb.addr).SetClientID("tls-untrusting").
		SetConnectTimeout(3 * time.Second).SetTLSConfig(&tls.Config{Certificates: []tls.Certificate{kp}}))
	if tok := untrusting.Connect(); tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
		untrusting.Disconnect(100)
		t.Error("a client connected to a broker whose certificate it cannot check")
	}
}

func TestTLSFiles_Errors(t *testing.T) {
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "x.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o600)
	cases := []struct {
		name   string
		files  TLSFiles
		server bool
	}{
		{"cert without key", TLSFiles{Cert: notPEM}, false},
		{"CA not PEM", TLSFiles{CA: notPEM}, false},
		{"CA missing", TLSFiles{CA: filepath.Join(dir, "none.pem")}, false},
		{"broker without key", TLSFiles{CA: notPEM}, true},
		{"broker bad pair", TLSFiles{Cert: notPEM, Key: notPEM}, true},
	}
	for _, tc := range cases {
		var err error
		if tc.server {
			_, err = tc.files.serverConfig()
		} else {
			_, err = tc.files.clientConfig()
		}
		if err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
