package broadcast

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/engine"
)

func newKey(t testing.TB) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// testResult is a signed result of a finished game.
func testResult(t testing.TB, table ed25519.PrivateKey) Result {
	r := Result{
		Event: "club", Table: "t1", Result: "YR", Position: "- Y end 0 - Y",
		Players: map[string]string{"Y": "Ana", "B": "Bea", "R": "Rui", "G": "Gil"},
		Record:  "[Event \"club\"]\n\n5\n", JournalHead: certify.Hash{1, 2, 3}.String(),
		Time: time.Date(2025, 5, 1, 18, 30, 0, 0, time.UTC),
	}
	r.Sign(table)
	return r
}

// connect connects a plain client (clean session) and fails the test
// when it cannot.
func connect(t *testing.T, tb *testBroker, id, user, pass string) mqtt.Client {
	t.Helper()
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker(tb.url()).SetClientID(id).
		SetUsername(user).SetPassword(pass).SetOrderMatters(true).SetAutoReconnect(false))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s as %q: %v", id, user, tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(0) })
	return c
}

// TestFeed_Commands sends the table good, malformed and unauthorised
// commands, as a judge and as others: the good ones reach the referee and
// are answered by it; the malformed and unauthorised ones are answered
// with an error by the publisher and never reach the referee; those sent
// by a viewer or by the table itself are refused by the broker.
func TestFeed_Commands(t *testing.T) {
	brokers(t, func(t *testing.T, tb *testBroker) {
		judgeKey, otherKey := newKey(t), newKey(t)
		judges := Judges{"Ana": certify.PublicKeyString(judgeKey)}
		p, _ := startPublisher(t, tb, t.TempDir(), judges)
		res := testResult(t, newKey(t))
		res.Event, res.Table = tb.event, tb.table
		res2 := res
		res2.Record += "6\n"
		res2.Sign(newKey(t))
		if err := p.Result(res2); err != nil {
			t.Fatal(err)
		}
		// Two results wait: a verdict names the one it is for.
		if err := p.Results([]Result{res, res2}); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the publisher to connect", p.Connected)

		prefix := Prefix(tb.event, tb.table)
		suffix := time.Now().UnixNano() % 1e6
		replies := subscribe(t, tb, fmt.Sprintf("test-replies-%d", suffix), prefix+TopicReply, "", "")
		judge := connect(t, tb, fmt.Sprintf("test-judge-%d", suffix), tb.judgeUser, tb.judgePass)
		send := func(c mqtt.Client, typ string, cmd any) {
			t.Helper()
			b, ok := cmd.([]byte)
			if !ok {
				var err error
				if b, err = json.Marshal(cmd); err != nil {
					t.Fatal(err)
				}
			}
			// The broker may refuse by dropping the connection: no error here.
			c.Publish(prefix+TopicCmd+typ, 1, false, b).WaitTimeout(5 * time.Second)
		}
		reply := func(id string) Reply {
			t.Helper()
			var r Reply
			replies.waitFor(t, "the reply to "+id, func() bool {
				for _, b := range replies.msg {
					if json.Unmarshal(b, &r) == nil && r.ID == id {
						return true
					}
				}
				return false
			})
			return r
		}
		certification := func(key ed25519.PrivateKey, verdict, judge string) *Certification {
			c := res.Certify(key, Certification{Verdict: verdict, Judge: judge, Reason: "checked", Time: time.Date(2025, 5, 1, 19, 0, 0, 0, time.UTC)})
			return &c
		}
		tampered := certification(judgeKey, VerdictCertified, "Ana")
		tampered.Reason = "changed after signing"
		// signed signs c as a judge's command for this table.
		signed := func(c Command, key ed25519.PrivateKey) Command {
			c.Sign(tb.event, tb.table, key)
			return c
		}
		altered := signed(Command{ID: "b16", Type: CmdCorrect, Judge: "Ana", Position: "- Y throw 0 - Y"}, judgeKey)
		altered.Position = "5:Y Y throw 0 - Y"
		otherTable := Command{ID: "b15", Type: CmdCorrect, Judge: "Ana", Position: "- Y throw 0 - Y"}
		otherTable.Sign(tb.event, tb.table+"x", judgeKey)

		// Refused by the broker: a viewer (anonymous) and the table itself
		// may not command. Each is followed by a judge's command: its
		// answer coming first, and nothing reaching the referee, shows the
		// others went nowhere.
		viewer := connect(t, tb, fmt.Sprintf("test-viewer-%d", suffix), "", "")
		send(viewer, CmdNewGame, Command{ID: "viewer-1", Type: CmdNewGame, Judge: "Ana", Players: map[string]string{"Y": "a", "R": "b"}, Starter: "Y"})
		tableCli := connect(t, tb, fmt.Sprintf("test-table-%d", suffix), tb.tableUser, tb.tablePass)
		send(tableCli, CmdCorrect, Command{ID: "table-1", Type: CmdCorrect, Judge: "Ana", Position: "- Y throw 0 - Y"})

		good := []struct {
			typ string
			cmd Command
		}{
			{CmdNewGame, signed(Command{ID: "g1", Type: CmdNewGame, Judge: "Ana", Players: map[string]string{"Y": "Ana", "B": "Bea", "R": "Rui", "G": "Gil"}, Starter: "B"}, judgeKey)},
			{CmdCorrect, signed(Command{ID: "g2", Type: CmdCorrect, Judge: "Ana", Position: "- Y throw 0 - Y", AtSeq: 7}, judgeKey)},
			{CmdCertify, signed(Command{ID: "g3", Type: CmdCertify, Judge: "Ana", Certification: certification(judgeKey, VerdictCertified, "Ana"), RecordSHA256: res.RecordSHA256}, judgeKey)},
		}
		for i, g := range good {
			send(judge, g.typ, g.cmd)
			select {
			case req := <-p.Commands():
				if req.Command.ID != g.cmd.ID {
					t.Fatalf("command %q reached the referee, want %q", req.Command.ID, g.cmd.ID)
				}
				req.Answer(uint64(100+i), nil)
			case <-time.After(10 * time.Second):
				t.Fatalf("command %s did not reach the referee", g.cmd.ID)
			}
			if r := reply(g.cmd.ID); !r.OK || r.Seq != uint64(100+i) {
				t.Errorf("reply to %s: %+v, want ok with seq %d", g.cmd.ID, r, 100+i)
			}
		}

		bad := []struct {
			name, typ string
			payload   any
			want      string // in the error
		}{
			{"wrong JSON type", CmdNewGame, []byte(`{"id":"b1","type":"new-game","judge":"Ana","players":"Ana"}`), "JSON"},
			{"unknown field", CmdCorrect, []byte(`{"id":"b2","type":"correct","judge":"Ana","position":"- Y throw 0 - Y","colour":"Y"}`), "unknown field"},
			{"unknown type", "explode", Command{ID: "b3", Type: "explode", Judge: "Ana"}, "unknown type"},
			{"type and topic differ", CmdCorrect, Command{ID: "b4", Type: CmdNewGame, Judge: "Ana"}, "published on"},
			{"missing starter", CmdNewGame, Command{ID: "b5", Judge: "Ana", Players: map[string]string{"Y": "a"}}, "missing starter"},
			{"bad colour", CmdNewGame, Command{ID: "b6", Judge: "Ana", Players: map[string]string{"W": "a"}, Starter: "W"}, "bad colour"},
			{"bad PPN", CmdCorrect, Command{ID: "b7", Judge: "Ana", Position: "nonsense"}, "position"},
			{"missing judge", CmdCorrect, Command{ID: "b8", Position: "- Y throw 0 - Y"}, "missing judge"},
			{"unknown judge", CmdCorrect, Command{ID: "b9", Judge: "Mallory", Position: "- Y throw 0 - Y"}, "unauthorised"},
			{"certification by another key", CmdCertify, signed(Command{ID: "b10", Type: CmdCertify, Judge: "Ana", Certification: certification(otherKey, VerdictCertified, "Ana"), RecordSHA256: res.RecordSHA256}, judgeKey), "not among the trusted"},
			{"tampered certification", CmdCertify, signed(Command{ID: "b11", Type: CmdCertify, Judge: "Ana", Certification: tampered, RecordSHA256: res.RecordSHA256}, judgeKey), "does not verify"},
			{"verdict and type differ", CmdReject, Command{ID: "b12", Judge: "Ana", Certification: certification(judgeKey, VerdictCertified, "Ana"), RecordSHA256: res.RecordSHA256}, "verdict"},
			{"unsigned", CmdCorrect, Command{ID: "b13", Type: CmdCorrect, Judge: "Ana", Position: "- Y throw 0 - Y"}, "not signed"},
			{"signed by another key", CmdCorrect, signed(Command{ID: "b14", Type: CmdCorrect, Judge: "Ana", Position: "- Y throw 0 - Y"}, otherKey), "not among the trusted"},
			{"signed for another table", CmdCorrect, otherTable, "does not verify"},
			{"altered after signing", CmdCorrect, altered, "does not verify"},
			{"verdict naming no result", CmdCertify, signed(Command{ID: "b17", Type: CmdCertify, Judge: "Ana", Certification: certification(judgeKey, VerdictCertified, "Ana")}, judgeKey), "missing record_sha256"},
			{"verdict naming an unknown result", CmdCertify, signed(Command{ID: "b18", Type: CmdCertify, Judge: "Ana", Certification: certification(judgeKey, VerdictCertified, "Ana"), RecordSHA256: strings.Repeat("ab", 32)}, judgeKey), "no result abab"},
			{"verdict on one result naming another", CmdCertify, signed(Command{ID: "b19", Type: CmdCertify, Judge: "Ana", Certification: certification(judgeKey, VerdictCertified, "Ana"), RecordSHA256: res2.RecordSHA256}, judgeKey), "does not verify"},
			{"verdict naming a bad hash", CmdCertify, signed(Command{ID: "b20", Type: CmdCertify, Judge: "Ana", Certification: certification(judgeKey, VerdictCertified, "Ana"), RecordSHA256: "abc"}, judgeKey), "64 lower-case hex"},
		}
		for _, b := range bad {
			send(judge, b.typ, b.payload)
		}
		send(judge, CmdNewGame, []byte(`{"id":"b99","type":"new-game",`))
		if r := reply(""); r.OK || !contains(r.Error, "JSON") {
			t.Errorf("truncated JSON: reply %+v, want an error without id saying JSON", r)
		}
		for i, b := range bad {
			id := fmt.Sprintf("b%d", i+1)
			r := reply(id)
			if r.OK || r.Error == "" || !contains(r.Error, b.want) {
				t.Errorf("%s: reply %+v, want an error saying %q", b.name, r, b.want)
			}
		}
		select {
		case req := <-p.Commands():
			t.Errorf("command %q reached the referee", req.Command.ID)
		case <-time.After(200 * time.Millisecond):
		}
		replies.mu.Lock()
		for _, m := range replies.msg {
			var r Reply
			json.Unmarshal(m, &r)
			if r.ID == "viewer-1" || r.ID == "table-1" {
				t.Errorf("command %s refused by the broker was answered: %+v", r.ID, r)
			}
		}
		replies.mu.Unlock()
	})
}

func contains(s, sub string) bool {
	return len(sub) == 0 || len(s) >= len(sub) && (func() bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if s[i:i+len(sub)] == sub {
				return true
			}
		}
		return false
	})()
}

// TestFeed_RetainedSnapshot_RepublishedOnConnect checks that a newcomer
// finds the status, state and result retained, that a viewer cannot
// overwrite them, that a restarted in-memory broker gets them back when
// the table reconnects, and that the status says offline when the table
// stops.
func TestFeed_RetainedSnapshot_RepublishedOnConnect(t *testing.T) {
	brokers(t, func(t *testing.T, tb *testBroker) {
		p, stop := startPublisher(t, tb, t.TempDir(), nil)
		prefix := Prefix(tb.event, tb.table)
		st := State{Event: tb.event, Table: tb.table, Seq: 42, Position: "- Y throw 0 - Y", PositionJSON: engine.NewPosition(engine.Yellow), Players: map[string]string{"Y": "Ana"}, Time: time.Now().UTC()}
		if err := p.State(st); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the publisher to connect", p.Connected)
		n := 0
		latest := func(topic string, into any) {
			t.Helper()
			n++
			s := subscribe(t, tb, fmt.Sprintf("test-look-%d-%d", time.Now().UnixNano()%1e6, n), prefix+topic, "", "")
			s.waitFor(t, topic, func() bool { return len(s.msg) > 0 })
			time.Sleep(100 * time.Millisecond)
			s.mu.Lock()
			defer s.mu.Unlock()
			if err := json.Unmarshal(s.msg[len(s.msg)-1], into); err != nil {
				t.Fatalf("%s: %v", topic, err)
			}
		}
		var got State
		latest(TopicState, &got)
		if got.Seq != 42 {
			t.Fatalf("retained state seq %d, want 42", got.Seq)
		}
		var status Status
		latest(TopicStatus, &status)
		if status.Status != "online" || status.Versions["parchisd"] != "test" {
			t.Errorf("status %+v, want online with versions", status)
		}

		viewer := connect(t, tb, fmt.Sprintf("test-viewer-%d", time.Now().UnixNano()%1e6), "", "")
		viewer.Publish(prefix+TopicState, 1, true, []byte(`{"seq":666}`)).WaitTimeout(5 * time.Second)
		latest(TopicState, &got)
		if got.Seq != 42 {
			t.Fatalf("a viewer overwrote the retained state: seq %d", got.Seq)
		}

		st.Seq = 43
		p.State(st)
		tb.stop(t)
		waitUntil(t, "the publisher to notice", func() bool { return !p.Connected() })
		tb.start(t)
		waitUntil(t, "the publisher to reconnect", p.Connected)
		latest(TopicState, &got)
		if got.Seq != 43 {
			t.Fatalf("state after the broker's restart: seq %d, want 43", got.Seq)
		}

		stop()
		latest(TopicStatus, &status)
		if status.Status != "offline" {
			t.Errorf("status after stopping: %q, want offline", status.Status)
		}
	})
}

// retainedUnder connects a fresh client, subscribes to filter and returns
// the retained messages the broker gives it, by topic, once they have
// stopped coming.
func retainedUnder(t *testing.T, tb *testBroker, filter string) map[string][]byte {
	t.Helper()
	c := connect(t, tb, fmt.Sprintf("test-late-%d", time.Now().UnixNano()%1e9), "", "")
	var mu sync.Mutex
	got := map[string][]byte{}
	tok := c.Subscribe(filter, 1, func(_ mqtt.Client, m mqtt.Message) {
		if m.Retained() {
			mu.Lock()
			got[m.Topic()] = append([]byte(nil), m.Payload()...)
			mu.Unlock()
		}
	})
	if !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe %s: %v", filter, tok.Error())
	}
	time.Sleep(300 * time.Millisecond)
	c.Disconnect(0)
	mu.Lock()
	defer mu.Unlock()
	return got
}

// Every result given to Results is retained on its own topic, named by its
// record's hash, for a subscriber that comes later; one left out is
// withdrawn, and one that changed (a verdict) is published again.
func TestPublisher_ResultsRetainedEachOnItsTopic(t *testing.T) {
	brokers(t, func(t *testing.T, tb *testBroker) {
		p, _ := startPublisher(t, tb, t.TempDir(), Judges{})
		key := newKey(t)
		var rs []Result
		for i := range 3 {
			r := testResult(t, key)
			r.Event, r.Table = tb.event, tb.table
			// Unique to this run: Mosquitto keeps the retained results of
			// earlier tests.
			r.Record += fmt.Sprintf("%d\n{%d}\n", i, time.Now().UnixNano())
			r.Sign(key)
			rs = append(rs, r)
		}
		if err := p.Results(rs); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the publisher to connect", p.Connected)
		prefix := Prefix(tb.event, tb.table) + TopicResults
		want := func(what string, results map[string]string) {
			t.Helper()
			var got map[string][]byte
			for try := 0; try < 20; try++ {
				got = retainedUnder(t, tb, prefix+"+")
				for topic := range got {
					if !slices.ContainsFunc(rs, func(r Result) bool { return topic == prefix+r.RecordSHA256 }) {
						delete(got, topic)
					}
				}
				ok := len(got) == len(results)
				for h, verdict := range results {
					var r Result
					if json.Unmarshal(got[prefix+h], &r) != nil || r.RecordSHA256 != h || (r.Certification == nil) != (verdict == "") ||
						r.Certification != nil && r.Certification.Verdict != verdict {
						ok = false
					}
				}
				if ok {
					return
				}
			}
			t.Errorf("%s: retained %d results, want %v", what, len(got), results)
		}
		want("three waiting", map[string]string{rs[0].RecordSHA256: "", rs[1].RecordSHA256: "", rs[2].RecordSHA256: ""})

		rs[1].Certification = &Certification{Verdict: VerdictCertified, Judge: "Ana"}
		if err := p.Results(rs[1:]); err != nil {
			t.Fatal(err)
		}
		want("the first withdrawn, the second certified", map[string]string{rs[1].RecordSHA256: VerdictCertified, rs[2].RecordSHA256: ""})

		bad := rs[2]
		bad.RecordSHA256 = "x/y"
		if err := p.Results([]Result{bad}); err == nil || !strings.Contains(err.Error(), "record_sha256") {
			t.Errorf("a result whose hash is no topic level: %v", err)
		}
	})
}
