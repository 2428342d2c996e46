package broadcast

import (
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// The embedded broker sends a client's last will without asking the access
// rules, so a will a client may not publish keeps it out; and a table's
// client id is its own: nobody else can take it and push the table off.
func TestBroker_WillsAndTableClientIDs(t *testing.T) {
	tb := embeddedBroker(t)
	prefix := Prefix(tb.event, tb.table)
	try := func(id, user, pass, willTopic string) bool {
		t.Helper()
		o := mqtt.NewClientOptions().AddBroker(tb.url()).SetClientID(id).SetUsername(user).SetPassword(pass).
			SetConnectTimeout(3 * time.Second).SetAutoReconnect(false)
		if willTopic != "" {
			o.SetBinaryWill(willTopic, []byte(`{"id":"x","type":"new-game","judge":"marta","players":{"Y":"M"},"starter":"Y"}`), 1, false)
		}
		c := mqtt.NewClient(o)
		tok := c.Connect()
		ok := tok.WaitTimeout(5*time.Second) && tok.Error() == nil
		if ok {
			c.Disconnect(0)
		}
		return ok
	}
	cases := []struct {
		name                 string
		id, user, pass, will string
		ok                   bool
	}{
		{"viewer without will", "v1", "", "", "", true},
		{"viewer with a command as will", "v2", "", "", prefix + "cmd/new-game", false},
		{"viewer with a result as will", "v3", "", "", prefix + "result", false},
		{"table with its offline status as will", "t1", tb.tableUser, tb.tablePass, prefix + "status", true},
		{"table with a command as will", "t2", tb.tableUser, tb.tablePass, prefix + "cmd/correct", false},
		{"judge with a command as will", "j1", tb.judgeUser, tb.judgePass, prefix + "cmd/correct", true},
		{"viewer taking the table's client id", TableClientID(tb.event, tb.table), "", "", "", false},
		{"judge taking the table's client id", TableClientID(tb.event, tb.table), tb.judgeUser, tb.judgePass, "", false},
		{"the table with its client id", TableClientID(tb.event, tb.table), tb.tableUser, tb.tablePass, "", true},
	}
	for _, tc := range cases {
		if got := try(tc.id, tc.user, tc.pass, tc.will); got != tc.ok {
			t.Errorf("%s: connected %v, want %v", tc.name, got, tc.ok)
		}
	}
}

func TestNarrowFilter(t *testing.T) {
	cases := []struct {
		filter, want string
		ok           bool
	}{
		{"#", "parchis/v1/#", true},
		{"+/#", "parchis/v1/#", true},
		{"parchis/#", "parchis/v1/#", true},
		{"parchis/+/#", "parchis/v1/#", true},
		{"+/+/club/+/state", "parchis/v1/club/+/state", true},
		{"parchis/v1/#", "parchis/v1/#", true},
		{"parchis", "", false},
		{"parchis/v1", "", false},
		{"+/+", "", false},
		{"parchis/v2/#", "", false},
		{"sensors/#", "", false},
		{"$SYS/#", "", false},
		{"$share/g/#", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		got, ok := NarrowFilter(tc.filter)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NarrowFilter(%q) = %q, %v; want %q, %v", tc.filter, got, ok, tc.want, tc.ok)
		}
	}
}

// TestBroker_AnonymousHash_GetsTheFeed: a stranger subscribing to "#", as
// MQTT Explorer does, is granted the feed's topics instead of a refusal,
// gets the retained status and the events; unsubscribing from "#" stops
// them. A filter outside the feed is still refused.
func TestBroker_AnonymousHash_GetsTheFeed(t *testing.T) {
	tb := embeddedBroker(t)
	prefix := Prefix(tb.event, tb.table)
	connect := func(id, user, pass string) mqtt.Client {
		t.Helper()
		c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker(tb.url()).SetClientID(id).SetUsername(user).SetPassword(pass).
			SetConnectTimeout(3 * time.Second).SetAutoReconnect(false))
		if tok := c.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("%s: connect: %v", id, tok.Error())
		}
		t.Cleanup(func() { c.Disconnect(0) })
		return c
	}
	table := connect("table", tb.tableUser, tb.tablePass)
	publish := func(topic, payload string, retained bool) {
		t.Helper()
		if tok := table.Publish(topic, 1, retained, payload); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("publish %s: %v", topic, tok.Error())
		}
	}
	publish(prefix+TopicStatus, `{"status":"online"}`, true)

	viewer := connect("explorer", "", "")
	got := make(chan string, 16)
	subscribe := func(filter string) byte {
		t.Helper()
		tok := viewer.Subscribe(filter, 1, func(_ mqtt.Client, m mqtt.Message) { got <- m.Topic() + " " + string(m.Payload()) })
		if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", filter, tok.Error())
		}
		return tok.(*mqtt.SubscribeToken).Result()[filter]
	}
	if code := subscribe("#"); code >= 0x80 {
		t.Fatalf(`subscribe "#": refused (0x%02x), want the feed`, code)
	}
	if code := subscribe("sensors/#"); code < 0x80 {
		t.Errorf(`subscribe "sensors/#": granted (0x%02x), want a refusal`, code)
	}
	// Other tests' tables may still publish their status on the same
	// broker: what is wanted is waited for, among whatever else comes.
	want := func(msg string) {
		t.Helper()
		timeout := time.After(5 * time.Second)
		var seen []string
		for {
			select {
			case m := <-got:
				if m == msg {
					return
				}
				seen = append(seen, m)
			case <-timeout:
				t.Fatalf("no %q; got %q", msg, seen)
			}
		}
	}
	want(prefix + TopicStatus + ` {"status":"online"}`)
	publish(prefix+TopicEvents, `{"seq":1}`, false)
	want(prefix + TopicEvents + ` {"seq":1}`)

	if tok := viewer.Unsubscribe("#"); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("unsubscribe: %v", tok.Error())
	}
	publish(prefix+TopicEvents, `{"seq":2}`, false)
	select {
	case m := <-got:
		t.Errorf("after unsubscribing from #: got %q", m)
	case <-time.After(500 * time.Millisecond):
	}
}
