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
