package judges

import (
	"net/url"
	"testing"

	"github.com/parchis-table/parchis/broadcast"
)

// A result still awaiting a judge is queued when the table withdraws it
// (a new game begun) or replaces it (another game ended), and leaves the
// queue when it is published again; a new game is refused while results
// wait, unless the judge says to start anyway.
func TestStore_ResultsQueue(t *testing.T) {
	st := NewStore(10)
	topic := "parchis/v1/local/1/result"
	r1 := broadcast.Result{Event: "local", Table: "1", Result: "YR", RecordSHA256: "aa"}
	r2 := broadcast.Result{Event: "local", Table: "1", Result: "BG", RecordSHA256: "bb"}
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
