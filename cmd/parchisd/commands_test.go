package main

import (
	"encoding/json"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/referee"
)

// judgeClient is a judge's MQTT connection to a table's command topics.
type judgeClient struct {
	cli     mqtt.Client
	prefix  string
	mu      sync.Mutex
	replies map[string]broadcast.Reply
	events  []referee.Event
}

func connectJudge(t *testing.T, broker, user, password string) *judgeClient {
	t.Helper()
	j := &judgeClient{prefix: broadcast.Prefix("local", "1"), replies: map[string]broadcast.Reply{}}
	o := mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("judge-" + user).SetUsername(user).SetPassword(password)
	j.cli = mqtt.NewClient(o)
	if tok := j.cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("judge cannot connect: %v", tok.Error())
	}
	t.Cleanup(func() { j.cli.Disconnect(100) })
	tok := j.cli.Subscribe(j.prefix+"#", 1, func(_ mqtt.Client, m mqtt.Message) {
		j.mu.Lock()
		defer j.mu.Unlock()
		switch strings.TrimPrefix(m.Topic(), j.prefix) {
		case broadcast.TopicReply:
			var r broadcast.Reply
			if json.Unmarshal(m.Payload(), &r) == nil {
				j.replies[r.ID] = r
			}
		case broadcast.TopicEvents:
			var e referee.Event
			if json.Unmarshal(m.Payload(), &e) == nil {
				j.events = append(j.events, e)
			}
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	return j
}

// send publishes a command (raw JSON) and waits for the table's reply.
func (j *judgeClient) send(t *testing.T, typ, id, payload string) broadcast.Reply {
	t.Helper()
	j.cli.Publish(j.prefix+broadcast.TopicCmd+typ, 1, false, payload).WaitTimeout(5 * time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		j.mu.Lock()
		r, ok := j.replies[id]
		j.mu.Unlock()
		if ok {
			return r
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no reply to %s %s", typ, id)
	return broadcast.Reply{}
}

func (j *judgeClient) event(seq uint64) (referee.Event, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.events {
		if e.Seq == seq {
			return e, true
		}
	}
	return referee.Event{}, false
}

// TestSim_JudgeCommands sends a judge's commands to a running parchisd
// sim: a correction and a new game are carried out and answered with the
// number of the event they made; malformed commands, and commands from a
// judge the table does not know, are answered with an error and change
// nothing.
func TestSim_JudgeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	bin := buildDaemon(t)
	dir := t.TempDir()
	hash, err := broadcast.HashPassword("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	cfg, broker, _ := simConfig(t, dir,
		"  users:\n  - name: marta\n    password: "+hash+"\n    role: judge",
		"judges:\n  - name: marta\n    public_key: 2bOW3aZ5m9ojT0H2f9Bf3lY7Hh0z3Zq0x1a4Xm8Z0tE=")
	cmd, log, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "5")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	j := connectJudge(t, broker, "marta", "s3cret")

	cases := []struct {
		typ, id, payload string
		ok               bool
		errWant, event   string
	}{
		{"correct", "c1", `{"id":"c1","type":"correct","judge":"marta","position":"5:Y,22:B Y throw 0 - Y"}`, true, "", referee.EventCorrection},
		{"correct", "c2", `{"id":"c2","type":"correct","judge":"marta","position":"5:Y Q throw 0 - Y"}`, false, "field 2", ""},
		{"correct", "c3", `{"id":"c3","type":"correct","judge":"pedro","position":"- Y throw 0 - Y"}`, false, "unauthorised", ""},
		{"new-game", "n1", `{"id":"n1","type":"new-game","judge":"marta","starter":"R","players":{"Y":"Ana","B":"Bea","R":"Carla","G":"Dani"}}`, true, "", referee.EventStart},
		{"new-game", "n2", `{"id":"n2","type":"new-game","judge":"marta","starter":"X","players":{"Y":"Ana"}}`, false, "starter", ""},
		{"certify", "k1", `{"id":"k1","type":"certify","judge":"marta"}`, false, "certification", ""},
		{"certify", "", `{"id":"k2","type":"certify"`, false, "", ""},
	}
	for _, tc := range cases {
		r := j.send(t, tc.typ, tc.id, tc.payload)
		if r.OK != tc.ok || (tc.errWant != "" && !strings.Contains(r.Error, tc.errWant)) || (!tc.ok && r.Error == "") {
			t.Errorf("%s: reply %+v, want ok %v and an error with %q", tc.id, r, tc.ok, tc.errWant)
			continue
		}
		if tc.event == "" {
			if r.Seq != 0 {
				t.Errorf("%s: a refused command made event %d", tc.id, r.Seq)
			}
			continue
		}
		deadline := time.Now().Add(5 * time.Second)
		var e referee.Event
		for ok := false; !ok && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			e, ok = j.event(r.Seq)
		}
		// The command's event, or the one before it when the board
		// check followed it.
		if e.Type != tc.event {
			found := false
			for s := r.Seq; s > 0 && s+3 > r.Seq; s-- {
				if e2, ok := j.event(s); ok && e2.Type == tc.event {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: reply seq %d is event %+v, want a %s", tc.id, r.Seq, e, tc.event)
			}
		}
	}
	if !strings.Contains(log.String(), "command refused") {
		t.Errorf("refused commands are not logged:\n%s", log.String())
	}
}
