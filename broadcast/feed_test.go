package broadcast

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/internal/testnet"
	"github.com/parchis-table/parchis/referee"
)

// testBroker is a real broker the feed tests run against: the embedded
// one, or the Mosquitto started by ci/mosquitto.sh.
type testBroker struct {
	name         string
	addr         string // host:port
	event, table string
	tableUser    string
	tablePass    string
	judgeUser    string
	judgePass    string
	// persistent: sessions and retained messages survive a restart.
	persistent bool
	stop       func(t *testing.T)
	start      func(t *testing.T)
}

func (b *testBroker) url() string { return "tcp://" + b.addr }

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// embeddedBroker starts the embedded broker on a free port with a table
// user, a judge user and anonymous viewers.
func embeddedBroker(t *testing.T) *testBroker {
	t.Helper()
	tb := &testBroker{name: "embedded", addr: testnet.Addr(t), event: "club", table: "t1",
		tableUser: "table-t1", tablePass: "table secret", judgeUser: "judge-ana", judgePass: "judge secret"}
	hash := func(pw string) string {
		h, err := hashPassword(pw, 1000)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	opts := BrokerOpts{
		TCPAddr: tb.addr, WSAddr: "off", AllowAnonymous: true, Logger: quietLogger(),
		Users: []User{
			{Name: tb.tableUser, Password: hash(tb.tablePass), Role: RoleTable, Event: tb.event, Table: tb.table},
			{Name: tb.judgeUser, Password: hash(tb.judgePass), Role: RoleJudge},
			{Name: "viewer", Password: hash("viewer"), Role: RoleViewer},
		},
	}
	var b *Broker
	tb.start = func(t *testing.T) {
		t.Helper()
		var err error
		if b, err = NewBroker(opts); err != nil {
			t.Fatal(err)
		}
		if err := b.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	tb.stop = func(t *testing.T) {
		t.Helper()
		if b != nil {
			b.Close()
			b = nil
		}
	}
	tb.start(t)
	t.Cleanup(func() { tb.stop(t) })
	return tb
}

// mosquittoBroker is the Mosquitto of ci/mosquitto.sh, found through
// PARCHIS_TEST_MOSQUITTO; the test is skipped when that is unset.
func mosquittoBroker(t *testing.T) *testBroker {
	t.Helper()
	addr := os.Getenv("PARCHIS_TEST_MOSQUITTO")
	if addr == "" {
		t.Skip("PARCHIS_TEST_MOSQUITTO unset: run eval \"$(ci/mosquitto.sh start)\" to test against Mosquitto")
	}
	script := func(t *testing.T, arg string) {
		t.Helper()
		cmd := exec.Command("../ci/mosquitto.sh", arg)
		cmd.Env = append(os.Environ(), "PARCHIS_TEST_MOSQUITTO_DIR="+os.Getenv("PARCHIS_TEST_MOSQUITTO_DIR"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ci/mosquitto.sh %s: %v\n%s", arg, err, out)
		}
	}
	tb := &testBroker{name: "mosquitto", addr: addr, persistent: true,
		event: os.Getenv("PARCHIS_TEST_MOSQUITTO_EVENT"), table: os.Getenv("PARCHIS_TEST_MOSQUITTO_TABLE"),
		tableUser: os.Getenv("PARCHIS_TEST_MOSQUITTO_TABLE_USER"), tablePass: os.Getenv("PARCHIS_TEST_MOSQUITTO_TABLE_PASSWORD"),
		judgeUser: os.Getenv("PARCHIS_TEST_MOSQUITTO_JUDGE_USER"), judgePass: os.Getenv("PARCHIS_TEST_MOSQUITTO_JUDGE_PASSWORD"),
		stop:  func(t *testing.T) { script(t, "stop") },
		start: func(t *testing.T) { script(t, "start") },
	}
	t.Cleanup(func() { tb.start(t) }) // leave it running for the next test
	return tb
}

// brokers runs f against each broker.
func brokers(t *testing.T, f func(t *testing.T, tb *testBroker)) {
	t.Run("embedded", func(t *testing.T) { f(t, embeddedBroker(t)) })
	t.Run("mosquitto", func(t *testing.T) { f(t, mosquittoBroker(t)) })
}

// startPublisher runs a table's publisher until the test ends or stop is
// called.
func startPublisher(t *testing.T, tb *testBroker, dir string, judges Judges) (p *Publisher, stop func()) {
	t.Helper()
	p, err := New(Opts{
		Broker: tb.url(), ClientID: fmt.Sprintf("test-%s-%s-%d", tb.event, tb.table, time.Now().UnixNano()%1e6),
		Username: tb.tableUser, Password: tb.tablePass, QueueDir: dir,
		Event: tb.event, Table: tb.table, Versions: map[string]string{"parchisd": "test"},
		Judges: judges, RetryMin: 50 * time.Millisecond, RetryMax: 200 * time.Millisecond, Logger: quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Run(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			p.Close()
		})
	}
	t.Cleanup(stop)
	return p, stop
}

// subscriber is a persistent subscriber (clean session false, QoS 1) to a
// topic that records every message as it arrives.
type subscriber struct {
	cli mqtt.Client
	mu  sync.Mutex
	msg [][]byte
	// subscribed counts the connections on which the subscription was made.
	subscribed int
	changed    chan struct{}
}

func subscribe(t *testing.T, tb *testBroker, clientID, topic, user, pass string) *subscriber {
	t.Helper()
	s := &subscriber{changed: make(chan struct{}, 1)}
	o := mqtt.NewClientOptions().AddBroker(tb.url()).SetClientID(clientID).
		SetUsername(user).SetPassword(pass).
		SetCleanSession(false).SetOrderMatters(true).
		SetAutoReconnect(true).SetConnectRetry(true).
		SetConnectRetryInterval(50 * time.Millisecond).SetMaxReconnectInterval(100 * time.Millisecond).
		// A connection accepted by a broker that is closing is never
		// answered: give up on it soon and try again.
		SetConnectTimeout(2 * time.Second)
	handler := func(_ mqtt.Client, m mqtt.Message) {
		s.mu.Lock()
		s.msg = append(s.msg, append([]byte(nil), m.Payload()...))
		s.mu.Unlock()
		s.signal()
	}
	o.SetOnConnectHandler(func(c mqtt.Client) {
		go func() {
			tok := c.Subscribe(topic, 1, handler)
			if tok.WaitTimeout(5*time.Second) && tok.Error() == nil {
				s.mu.Lock()
				s.subscribed++
				s.mu.Unlock()
				s.signal()
			}
		}()
	})
	o.SetDefaultPublishHandler(handler)
	s.cli = mqtt.NewClient(o)
	s.cli.Connect()
	t.Cleanup(func() { s.cli.Disconnect(0) })
	s.waitFor(t, "subscription", func() bool { return s.subscribed >= 1 })
	return s
}

func (s *subscriber) signal() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// waitFor waits until cond (called with s.mu held) holds.
func (s *subscriber) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		s.mu.Lock()
		ok := cond()
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-s.changed:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// seqs returns the numbers of the events received, in arrival order.
func (s *subscriber) seqs(t *testing.T) []uint64 {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]uint64, 0, len(s.msg))
	for _, b := range s.msg {
		var e referee.Event
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("event payload %q: %v", b, err)
		}
		out = append(out, e.Seq)
	}
	return out
}

func testEvent(seq uint64) referee.Event {
	return referee.Event{Seq: seq, Type: referee.EventThrow, Time: time.Unix(1700000000+int64(seq), 0).UTC(),
		Colour: "Y", Throw: "5", Position: "- Y 5 0 - Y"}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// assertInOrderOnce checks what a subscriber shows of events 1…n: QoS 1
// delivers at least once, so a broker restarted between receiving an
// event and acknowledging it sends it again; the subscriber drops such
// repeats by number (Sequence), and must then have every event once, in
// order, with no gap.
func assertInOrderOnce(t *testing.T, got []uint64, n uint64) {
	t.Helper()
	var seq Sequence
	var shown []uint64
	for _, g := range got {
		fresh, missed := seq.Accept(g)
		if missed > 0 {
			t.Fatalf("%d events missing before %d: %v", missed, g, got)
		}
		if fresh {
			shown = append(shown, g)
		}
	}
	if uint64(len(shown)) != n || seq.Last() != n {
		t.Fatalf("shown %d events up to %d, want 1…%d: %v", len(shown), seq.Last(), n, got)
	}
	if repeats := len(got) - len(shown); repeats > 0 {
		t.Logf("%d repeats dropped by number: %v", repeats, got)
	}
}

// TestFeed_BrokerRestart_EveryEventOnceInOrder restarts the broker in the
// middle of a game, twice: once while events are published (queued on disk
// until the broker returns, with the daemon restarted meanwhile), once
// between events. A persistent subscriber receives every event exactly
// once, in order.
func TestFeed_BrokerRestart_EveryEventOnceInOrder(t *testing.T) {
	brokers(t, func(t *testing.T, tb *testBroker) {
		dir := t.TempDir()
		sub := subscribe(t, tb, fmt.Sprintf("test-sub-%d", time.Now().UnixNano()%1e6),
			Prefix(tb.event, tb.table)+TopicEvents, tb.judgeUser, tb.judgePass)
		p, stop := startPublisher(t, tb, dir, nil)
		seq := uint64(0)
		publish := func(n int) {
			for range n {
				seq++
				if err := p.Event(testEvent(seq)); err != nil {
					t.Fatal(err)
				}
			}
		}

		publish(10)
		waitUntil(t, "events 1-10 acknowledged", func() bool { return p.Pending() == 0 })
		sub.waitFor(t, "events 1-10", func() bool { return len(sub.msg) >= 10 })

		// The broker goes down in the middle of the game; the table goes on.
		tb.stop(t)
		publish(10)
		waitUntil(t, "the publisher to notice", func() bool { return !p.Connected() })
		time.Sleep(300 * time.Millisecond) // a few failed reconnections
		if got := p.Pending(); got != 10 {
			t.Fatalf("pending events while the broker is down: %d, want 10", got)
		}
		// The daemon restarts too, before the broker returns: the events
		// wait on disk.
		stop()
		tb.start(t)
		subs := 0
		sub.waitFor(t, "the subscriber to resubscribe", func() bool { subs = sub.subscribed; return subs >= 2 })
		p, stop = startPublisher(t, tb, dir, nil)
		if got := p.Pending(); got != 10 {
			t.Fatalf("pending events after the daemon's restart: %d, want 10", got)
		}
		seq = 20
		publish(5)
		waitUntil(t, "events 11-25 acknowledged", func() bool { return p.Pending() == 0 })
		sub.waitFor(t, "events 1-25", func() bool { return len(sub.msg) >= 25 })

		// The broker restarts between events; the publisher reconnects
		// by itself.
		tb.stop(t)
		waitUntil(t, "the publisher to notice", func() bool { return !p.Connected() })
		tb.start(t)
		sub.waitFor(t, "the subscriber to resubscribe", func() bool { return sub.subscribed > subs })
		waitUntil(t, "the publisher to reconnect", p.Connected)
		publish(5)
		waitUntil(t, "events 26-30 acknowledged", func() bool { return p.Pending() == 0 })
		sub.waitFor(t, "events 1-30", func() bool { return len(sub.msg) >= 30 })
		time.Sleep(200 * time.Millisecond) // time for a stray duplicate
		assertInOrderOnce(t, sub.seqs(t), 30)
	})
}

// TestFeed_BrokerRestartWhilePublishing_PersistentSession restarts a
// broker that keeps sessions (Mosquitto with persistence) while the table
// publishes: the subscriber's session holds what was published before it
// reconnected.
func TestFeed_BrokerRestartWhilePublishing_PersistentSession(t *testing.T) {
	brokers(t, func(t *testing.T, tb *testBroker) {
		if !tb.persistent {
			t.Skip("the embedded broker keeps sessions in memory only: a restart forgets them (docs/feed.md)")
		}
		sub := subscribe(t, tb, fmt.Sprintf("test-sub-%d", time.Now().UnixNano()%1e6),
			Prefix(tb.event, tb.table)+TopicEvents, tb.judgeUser, tb.judgePass)
		p, _ := startPublisher(t, tb, t.TempDir(), nil)
		var seq uint64
		for round := range 3 {
			for range 10 {
				seq++
				if err := p.Event(testEvent(seq)); err != nil {
					t.Fatal(err)
				}
				if seq%10 == 5 && round < 2 {
					waitUntil(t, "acknowledgements", func() bool { return p.Pending() == 0 })
					tb.stop(t)
				}
			}
			tb.start(t)
			waitUntil(t, "delivery", func() bool { return p.Pending() == 0 })
		}
		sub.waitFor(t, "30 events", func() bool { return len(sub.msg) >= 30 })
		time.Sleep(200 * time.Millisecond)
		assertInOrderOnce(t, sub.seqs(t), 30)
	})
}

// TestFeed_WebSocket publishes through the embedded broker's WebSocket
// listener to a subscriber on TCP.
func TestFeed_WebSocket(t *testing.T) {
	tb := &testBroker{addr: testnet.Addr(t), event: "club", table: "t1", tableUser: "table-t1", tablePass: "pw"}
	ws := testnet.Addr(t)
	h, _ := hashPassword(tb.tablePass, 1000)
	b, err := NewBroker(BrokerOpts{TCPAddr: tb.addr, WSAddr: ws, AllowAnonymous: true, Logger: quietLogger(),
		Users: []User{{Name: tb.tableUser, Password: h, Role: RoleTable, Event: tb.event, Table: tb.table}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	sub := subscribe(t, tb, "test-ws-sub", Prefix(tb.event, tb.table)+TopicEvents, "", "")
	p, err := New(Opts{Broker: "ws://" + ws, Username: tb.tableUser, Password: tb.tablePass, QueueDir: t.TempDir(),
		Event: tb.event, Table: tb.table, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	go p.Run(ctx)
	for seq := uint64(1); seq <= 3; seq++ {
		p.Event(testEvent(seq))
	}
	sub.waitFor(t, "3 events over WebSocket", func() bool { return len(sub.msg) >= 3 })
	assertInOrderOnce(t, sub.seqs(t), 3)
}

func TestNew_BadOpts(t *testing.T) {
	good := Opts{Broker: "tcp://127.0.0.1:1883", QueueDir: t.TempDir(), Event: "club", Table: "t1"}
	tests := []struct {
		name   string
		change func(o *Opts)
	}{
		{"no broker", func(o *Opts) { o.Broker = "" }},
		{"bad scheme", func(o *Opts) { o.Broker = "http://x:1" }},
		{"no queue", func(o *Opts) { o.QueueDir = "" }},
		{"wildcard table", func(o *Opts) { o.Table = "t+" }},
		{"slash event", func(o *Opts) { o.Event = "a/b" }},
		{"bad judge key", func(o *Opts) { o.Judges = Judges{"Ana": "short"} }},
		{"cert without key", func(o *Opts) { o.TLS = TLSFiles{Cert: "c.pem"} }},
	}
	for _, tt := range tests {
		o := good
		tt.change(&o)
		if p, err := New(o); err == nil {
			p.Close()
			t.Errorf("%s: accepted", tt.name)
		}
	}
}
