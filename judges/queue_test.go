package judges

import (
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
)

// A result still awaiting a judge is queued when the table withdraws it
// (a new game begun) or replaces it (another game ended), and leaves the
// queue when it is published again; a new game is refused while results
// wait, unless the judge says to start anyway.
func TestStore_ResultsQueue(t *testing.T) {
	st := NewStore(10)
	topic := "parchis/v1/local/1/result"
	r1 := broadcast.Result{Event: "local", Table: "1", Result: "YR", RecordSHA256: "aa", Time: time.Unix(1, 0)}
	r2 := broadcast.Result{Event: "local", Table: "1", Result: "BG", RecordSHA256: "bb", Time: time.Unix(2, 0)}
	apply := func(p []byte) *Table {
		t.Helper()
		if _, _, err := st.Apply(topic, p); err != nil {
			t.Fatal(err)
		}
		tb, _ := st.Get("local/1")
		return tb
	}
	tb := apply(mustJSON(t, r1))
	if !tb.Pending() || tb.Waiting() != 1 || len(tb.Queue) != 0 {
		t.Fatalf("after a result: pending %v, waiting %d", tb.Pending(), tb.Waiting())
	}
	tb = apply(nil) // a new game: the table withdraws it
	if tb.Result != nil || len(tb.Queue) != 1 || tb.Waiting() != 1 {
		t.Fatalf("after the withdrawal: result %v, queue %d", tb.Result, len(tb.Queue))
	}
	tb = apply(mustJSON(t, r2))
	if tb.Waiting() != 2 || len(pendingTables(st.All())) != 1 {
		t.Fatalf("after the next game's result: waiting %d", tb.Waiting())
	}
	tb = apply(mustJSON(t, r1)) // the first again (a restarted table)
	if len(tb.Queue) != 1 || tb.Queue[0].RecordSHA256 != "bb" {
		t.Fatalf("queue %+v", tb.Queue)
	}
	// A certified result leaves nothing waiting when withdrawn.
	c := r1
	c.Certification = &broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: "juez"}
	apply(mustJSON(t, c))
	tb = apply(nil)
	if len(tb.Queue) != 1 {
		t.Fatalf("a certified result was queued: %d", len(tb.Queue))
	}

	srv, err := New(Opts{Logger: quietLog()})
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"player-Y": {"A"}, "player-B": {"B"}, "player-R": {"C"}, "player-G": {"D"}, "starter": {"Y"}}
	err = srv.act(t.Context(), srv.judges[DemoJudgeName], tb, broadcast.CmdNewGame, form)
	if ae, ok := err.(*ActionError); !ok || ae.Key != "result-waiting" {
		t.Errorf("new game with a result waiting: %v", err)
	}
	form.Set("force", "on")
	err = srv.act(t.Context(), srv.judges[DemoJudgeName], tb, broadcast.CmdNewGame, form)
	if ae, ok := err.(*ActionError); ok && ae.Key == "result-waiting" {
		t.Errorf("forced new game refused: %v", err)
	}
}

// A dashboard that connects late learns every result a table has waiting
// from results/<hash>, retained: they queue oldest first whatever order
// they arrive in, the current result (on result) is never queued twice,
// a verdict takes one out and reaches the standings and the archive
// (Change.Arrived), and the multiboard puts the table first. A result on
// the topic of another hash is refused.
func TestStore_ResultsWaitingTopics(t *testing.T) {
	key := newKey(t)
	at := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	mk := func(n int, certified bool) broadcast.Result {
		r := broadcast.Result{Event: "local", Table: "1", Result: "YR", Position: "YG:YYYY,RG:RRRR Y end 0 - Y",
			Record: fmt.Sprintf("[Event \"local\"]\n[Round \"%d\"]\n", n), Time: at.Add(time.Duration(n) * time.Hour)}
		r.Sign(key)
		if certified {
			c := r.Certify(key, broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: "juez", Time: r.Time})
			r.Certification = &c
		}
		return r
	}
	r1, r2, r3 := mk(1, false), mk(2, false), mk(3, false)
	const prefix = "parchis/v1/local/1/"
	type msg struct {
		topic   string
		payload []byte
	}
	waiting := func(r broadcast.Result) msg { return msg{prefix + "results/" + r.RecordSHA256, mustJSON(t, r)} }
	withdrawn := func(r broadcast.Result) msg { return msg{prefix + "results/" + r.RecordSHA256, nil} }
	current := func(r broadcast.Result) msg { return msg{prefix + "result", mustJSON(t, r)} }
	for _, tc := range []struct {
		name    string
		msgs    []msg
		queue   []string // hashes queued, in order
		current string
		arrived string // the last message's result, for the standings
	}{
		{"newest first on the wire", []msg{waiting(r3), waiting(r1), waiting(r2)}, []string{r1.RecordSHA256, r2.RecordSHA256, r3.RecordSHA256}, "", r2.RecordSHA256},
		{"the current one not queued", []msg{waiting(r1), waiting(r2), current(r2)}, []string{r1.RecordSHA256}, r2.RecordSHA256, r2.RecordSHA256},
		{"current first, then its topic", []msg{current(r2), waiting(r2), waiting(r1)}, []string{r1.RecordSHA256}, r2.RecordSHA256, r1.RecordSHA256},
		{"an older one certified", []msg{waiting(r1), waiting(r2), current(r2), waiting(mk(1, true))}, nil, r2.RecordSHA256, r1.RecordSHA256},
		{"a decided one withdrawn", []msg{waiting(r1), waiting(r2), withdrawn(r1)}, []string{r2.RecordSHA256}, "", ""},
		{"the current one certified on its topic", []msg{current(r2), waiting(mk(2, true))}, nil, r2.RecordSHA256, r2.RecordSHA256},
	} {
		st := NewStore(10)
		var ch Change
		for _, m := range tc.msgs {
			var err error
			if ch, _, err = st.Apply(m.topic, m.payload); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
		}
		tb, _ := st.Get("local/1")
		var queue []string
		for _, q := range tb.Queue {
			queue = append(queue, q.RecordSHA256)
		}
		cur := ""
		if tb.Result != nil {
			cur = tb.Result.RecordSHA256
		}
		arrived := ""
		if ch.Arrived != nil {
			arrived = ch.Arrived.RecordSHA256
		}
		if !slices.Equal(queue, tc.queue) || cur != tc.current || arrived != tc.arrived || !ch.Result {
			t.Errorf("%s: queue %v, current %q, arrived %q; want %v, %q, %q", tc.name, queue, cur, arrived, tc.queue, tc.current, tc.arrived)
		}
		if need, _ := needOf(LangES, tb); (need == NeedCertify) != (tb.Waiting() > 0) {
			t.Errorf("%s: %d waiting, multiboard need %d", tc.name, tb.Waiting(), need)
		}
	}
	st := NewStore(10)
	if _, _, err := st.Apply(prefix+"results/"+r2.RecordSHA256, mustJSON(t, r1)); err == nil {
		t.Error("a result published on another result's topic was taken")
	}
	if _, ok, _ := st.Apply(prefix+"results/not-a-hash", mustJSON(t, r1)); ok {
		t.Error("a topic that names no hash changed the table")
	}
}
