package broadcast

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/gorilla/websocket"

	"github.com/parchis-table/parchis/internal/testnet"
)

// syncBuf is a log written by the broker's goroutines.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// limitedBroker starts the embedded broker with lim, anonymous viewers and
// a judge, logging into the returned buffer.
func limitedBroker(t *testing.T, lim Limits) (addr string, log *syncBuf) {
	t.Helper()
	addr = testnet.Addr(t)
	log = &syncBuf{}
	h, err := hashPassword("judge secret", 1000)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBroker(BrokerOpts{TCPAddr: addr, WSAddr: "off", AllowAnonymous: true, Limits: lim,
		Users:  []User{{Name: "judge-ana", Password: h, Role: RoleJudge}},
		Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return addr, log
}

// closedWithin reports whether the broker closes conn within d, reading
// and discarding whatever it sends.
func closedWithin(conn net.Conn, d time.Duration) bool {
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, conn)
	var ne net.Error
	return err == nil || !(errors.As(err, &ne) && ne.Timeout())
}

// varint is MQTT's remaining length.
func varint(n int) []byte {
	var b []byte
	for {
		d := byte(n % 128)
		n /= 128
		if n > 0 {
			d |= 0x80
		}
		b = append(b, d)
		if n == 0 {
			return b
		}
	}
}

// A CONNECT or PUBLISH announcing more than MaxPacket is refused from its
// fixed header: the connection is closed at once, nothing of the packet
// is read or allocated, and a packet within the limit still gets in.
func TestBroker_MaxPacket_RefusedFromTheHeader(t *testing.T) {
	addr, log := limitedBroker(t, Limits{MaxPacket: 64 << 10})
	cases := []struct {
		name     string
		announce int
		refused  bool
	}{
		{"CONNECT of 250 MB", 250 << 20, true},
		{"CONNECT of 64 KiB + 1", 64<<10 + 1, true},
		{"CONNECT of 100 bytes, never sent", 100, false},
	}
	for _, tc := range cases {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.Write(append([]byte{0x10}, varint(tc.announce)...))
		if got := closedWithin(conn, 500*time.Millisecond); got != tc.refused {
			t.Errorf("%s: closed %v, want %v", tc.name, got, tc.refused)
		}
		conn.Close()
	}
	// A judge publishing 100 KiB is disconnected; the subscriber gets
	// nothing of it.
	sub := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("sub").SetConnectTimeout(3 * time.Second))
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscriber: %v", tok.Error())
	}
	defer sub.Disconnect(0)
	got := make(chan int, 10)
	sub.Subscribe("parchis/v1/#", 1, func(_ mqtt.Client, m mqtt.Message) { got <- len(m.Payload()) }).WaitTimeout(5 * time.Second)
	lost := make(chan error, 1)
	judge := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("j").SetUsername("judge-ana").SetPassword("judge secret").
		SetAutoReconnect(false).SetConnectionLostHandler(func(_ mqtt.Client, err error) { lost <- err }))
	if tok := judge.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("judge: %v", tok.Error())
	}
	judge.Publish("parchis/v1/club/t1/cmd/correct", 0, false, bytes.Repeat([]byte("P"), 100<<10))
	select {
	case <-lost:
	case <-time.After(3 * time.Second):
		t.Error("a judge publishing 100 KiB was not disconnected")
	}
	judge = mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("j2").SetUsername("judge-ana").SetPassword("judge secret"))
	if tok := judge.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("judge: %v", tok.Error())
	}
	defer judge.Disconnect(0)
	judge.Publish("parchis/v1/club/t1/cmd/correct", 1, false, bytes.Repeat([]byte("P"), 60<<10)).WaitTimeout(5 * time.Second)
	select {
	case n := <-got:
		if n != 60<<10 {
			t.Errorf("subscriber got %d bytes, want the 60 KiB command", n)
		}
	case <-time.After(3 * time.Second):
		t.Error("a command of 60 KiB did not reach the subscriber")
	}
	if len(got) != 0 {
		t.Errorf("%d more messages reached the subscriber", len(got))
	}
	// mochi closes a client's connection before it calls the hook that
	// logs why (OnDisconnect): the judge may see the connection lost, and
	// this test get here, before the line is written
	waitUntil(t, "the refused packets in the log, by address before CONNECT and by client after", func() bool {
		return strings.Contains(log.String(), `msg="broker: packet refused" addr=`) &&
			strings.Contains(log.String(), `msg="broker: packet refused" client=j user=judge-ana`)
	})
}

// Connections beyond MaxClientsPerAddr are closed as they are accepted;
// a connection that sends no CONNECT is closed after ConnectTimeout, and
// its place taken again.
func TestBroker_ConnectionsPerAddress_AndConnectTimeout(t *testing.T) {
	addr, log := limitedBroker(t, Limits{MaxClientsPerAddr: 4, MaxClients: 8, ConnectTimeout: time.Second})
	var held []net.Conn
	for range 4 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	time.Sleep(100 * time.Millisecond)
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if !closedWithin(extra, 500*time.Millisecond) {
		t.Error("a fifth connection from one address stayed open")
	}
	extra.Close()
	t0 := time.Now()
	for _, c := range held {
		if !closedWithin(c, 3*time.Second) {
			t.Error("a connection without CONNECT stayed open past the timeout")
		}
		c.Close()
	}
	if d := time.Since(t0); d < 500*time.Millisecond {
		t.Errorf("silent connections closed after %v, before the timeout", d)
	}
	time.Sleep(100 * time.Millisecond)
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("v").SetConnectTimeout(3 * time.Second))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("a viewer could not connect once the places were free: %v", tok.Error())
	}
	c.Disconnect(0)
	if !strings.Contains(log.String(), "connection refused") {
		t.Errorf("no refused connection in the log:\n%s", log.String())
	}
}

func TestConnLimiter_TotalAndPerAddress(t *testing.T) {
	c := newConnLimiter(Limits{MaxClients: 3, MaxClientsPerAddr: 2}, quietLogger())
	steps := []struct {
		take, release string
		ok            bool
	}{
		{take: "10.0.0.1", ok: true},
		{take: "10.0.0.1", ok: true},
		{take: "10.0.0.1", ok: false}, // per address
		{take: "10.0.0.2", ok: true},
		{take: "10.0.0.3", ok: false}, // in total
		{release: "10.0.0.1"},
		{take: "10.0.0.3", ok: true},
		{take: "10.0.0.1", ok: false}, // in total again
	}
	for i, s := range steps {
		if s.release != "" {
			c.release(s.release)
			continue
		}
		if err := c.take(s.take); (err == nil) != s.ok {
			t.Errorf("step %d: take %s: %v, want ok %v", i, s.take, err, s.ok)
		}
	}
	if c.open() != 3 {
		t.Errorf("%d open, want 3", c.open())
	}
}

// A refused publish is logged by client, topic and size, never its
// payload, and its repeats are rate-limited: a client publishing where it
// may not in a loop adds a few lines to the log, not its payloads.
func TestBroker_RefusedPublish_LoggedWithoutPayload_RateLimited(t *testing.T) {
	addr, log := limitedBroker(t, Limits{})
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("intruder").SetConnectTimeout(3 * time.Second))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer c.Disconnect(0)
	payload := bytes.Repeat([]byte("SECRET"), 10_000)
	for range 500 {
		c.Publish("parchis/v1/club/t1/cmd/new-game", 0, false, payload).WaitTimeout(time.Second)
	}
	// A QoS 1 publish gets the client disconnected (MQTT 3.1.1), logged
	// by mochi with the packet, which the log summarises.
	c.Publish("parchis/v1/club/t1/result", 1, true, payload).WaitTimeout(time.Second)
	time.Sleep(300 * time.Millisecond)
	out := log.String()
	if strings.Contains(out, "SECRET") {
		t.Fatalf("the log holds a payload:\n%.2000s", out)
	}
	n := strings.Count(out, "publish refused")
	if n == 0 || n > 21 {
		t.Errorf("%d lines of refused publishes for 501, want 1 to 21", n)
	}
	if !strings.Contains(out, "topic=parchis/v1/club/t1/cmd/new-game") || !strings.Contains(out, "size=60000") || !strings.Contains(out, "client=intruder") {
		t.Errorf("refused publish not logged by client, topic and size:\n%.2000s", out)
	}
	if len(out) > 64<<10 {
		t.Errorf("the log grew by %d bytes for 501 refused publishes", len(out))
	}
}

// Filters beyond MaxSubscriptions are refused.
func TestBroker_MaxSubscriptions(t *testing.T) {
	addr, _ := limitedBroker(t, Limits{MaxSubscriptions: 5})
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("many").SetConnectTimeout(3 * time.Second))
	if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer c.Disconnect(0)
	filters := map[string]byte{}
	for i := range 8 {
		filters["parchis/v1/e/t"+string(rune('a'+i))+"/events"] = 0
	}
	tok := c.SubscribeMultiple(filters, nil)
	tok.WaitTimeout(5 * time.Second)
	ok := 0
	for _, code := range tok.(*mqtt.SubscribeToken).Result() {
		if code < 0x80 {
			ok++
		}
	}
	if ok != 5 {
		t.Errorf("%d of 8 subscriptions granted, want 5", ok)
	}
}

func TestRateLimit_BurstThenCounted(t *testing.T) {
	now := time.Unix(0, 0)
	r := &rateLimit{period: time.Minute, burst: 3, now: func() time.Time { return now }, seen: map[string]*window{}}
	for i := range 3 {
		if ok, _ := r.allow("m"); !ok {
			t.Fatalf("record %d refused within the burst", i)
		}
	}
	for range 5 {
		if ok, _ := r.allow("m"); ok {
			t.Fatal("a record beyond the burst let through")
		}
	}
	if ok, _ := r.allow("other"); !ok {
		t.Error("another message was limited by the first")
	}
	now = now.Add(time.Minute)
	ok, dropped := r.allow("m")
	if !ok || dropped != 5 {
		t.Errorf("after the period: ok %v, %d left out, want true, 5", ok, dropped)
	}
}

// The WebSocket listener has the same limits: a packet announcing more
// than MaxPacket closes the connection, and connections beyond
// MaxClientsPerAddr are refused.
func TestBroker_WebSocket_SameLimits(t *testing.T) {
	ws := testnet.Addr(t)
	b, err := NewBroker(BrokerOpts{TCPAddr: testnet.Addr(t), WSAddr: ws, AllowAnonymous: true, Logger: quietLogger(),
		Limits: Limits{MaxClientsPerAddr: 3, MaxClients: 6}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	dial := func() (*websocket.Conn, error) {
		d := websocket.Dialer{Subprotocols: []string{"mqtt"}, HandshakeTimeout: 2 * time.Second}
		c, _, err := d.Dial("ws://"+ws+"/mqtt", nil)
		return c, err
	}
	c, err := dial()
	if err != nil {
		t.Fatal(err)
	}
	c.WriteMessage(websocket.BinaryMessage, append([]byte{0x10}, varint(250<<20)...))
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, _, err := c.ReadMessage(); err == nil {
		t.Error("a CONNECT announcing 250 MB over WebSocket got an answer")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Error("a CONNECT announcing 250 MB over WebSocket left the connection open")
	}
	c.Close()
	time.Sleep(100 * time.Millisecond)
	var held []*websocket.Conn
	for range 3 {
		c, err := dial()
		if err != nil {
			t.Fatalf("connection within the limit refused: %v", err)
		}
		held = append(held, c)
	}
	if c, err := dial(); err == nil {
		c.Close()
		t.Error("a fourth WebSocket connection from one address was let in")
	}
	for _, c := range held {
		c.Close()
	}
}

// Only a table's status, state, result and results waiting (on a topic
// named by a record's hash) are kept retained: a judge's retained command
// is passed on but not kept for later subscribers.
func TestBroker_RetainedOnlyTheFeeds(t *testing.T) {
	tb := embeddedBroker(t)
	prefix := Prefix(tb.event, tb.table)
	connect := func(id, user, pass string) mqtt.Client {
		c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker(tb.url()).SetClientID(id).SetUsername(user).SetPassword(pass))
		if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatal(tok.Error())
		}
		t.Cleanup(func() { c.Disconnect(0) })
		return c
	}
	table := connect("t", tb.tableUser, tb.tablePass)
	judge := connect("j", tb.judgeUser, tb.judgePass)
	table.Publish(prefix+TopicState, 1, true, []byte(`{"seq":1}`)).WaitTimeout(5 * time.Second)
	table.Publish(prefix+"other", 1, true, []byte(`x`)).WaitTimeout(5 * time.Second)
	waiting := prefix + TopicResults + strings.Repeat("0f", 32)
	table.Publish(waiting, 1, true, []byte(`{}`)).WaitTimeout(5 * time.Second)
	table.Publish(prefix+TopicResults+"not-a-hash", 1, true, []byte(`{}`)).WaitTimeout(5 * time.Second)
	judge.Publish(prefix+TopicCmd+"correct", 1, true, []byte(`{"id":"1"}`)).WaitTimeout(5 * time.Second)
	got := make(chan string, 10)
	late := connect("late", "", "")
	late.Subscribe("parchis/v1/#", 1, func(_ mqtt.Client, m mqtt.Message) {
		if m.Retained() { // not one still on its way live
			got <- m.Topic()
		}
	}).WaitTimeout(5 * time.Second)
	var topics []string
	for done := false; !done; {
		select {
		case tp := <-got:
			topics = append(topics, tp)
		case <-time.After(500 * time.Millisecond):
			done = true
		}
	}
	slices.Sort(topics)
	if want := []string{waiting, prefix + TopicState}; !slices.Equal(topics, want) {
		t.Errorf("retained for a late subscriber: %v, want only %v", topics, want)
	}
}
