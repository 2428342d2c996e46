package judges

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// TestBrowser_QueuedResults_OlderCertifiedWithoutReload: a judge has a
// table's page open while two of its games end, the second begun before
// the first was certified. Without a reload the page shows both results
// waiting, the older in the queue above the newer, each with its own
// certify and reject; the judge certifies the older one after the
// confirmation, and the verdict reaches that result at the table, the
// newer still waiting with its buttons. A dashboard that connects
// afterwards is given both results from the feed's retained messages.
// Screenshots at a laptop's and a phone's width.
func TestBrowser_QueuedResults_OlderCertifiedWithoutReload(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := shotsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 33)
	b := openTrustedTable(ctx, t, srv, st)

	st.playToEnd()
	older := st.Result()
	b.WaitJS(ctx, t, `document.getElementById("certify") && document.querySelector("#result").getAttribute("data-hash") === `+jsQuote(older.RecordSHA256), browsertest.WaitLong)
	// The table begins the next game before anyone certifies, and it ends.
	st.newGame(map[string]string{"Y": "Elena", "B": "Fermín", "R": "Gala", "G": "Hugo"}, engine.Blue)
	st.playToEnd()
	newer := st.Result()
	if newer == nil || newer.RecordSHA256 == older.RecordSHA256 {
		t.Fatal("the second game did not end")
	}
	key := older.RecordSHA256[:16]
	b.WaitJS(ctx, t, `window.sameLoad === true && document.querySelector("#result").getAttribute("data-hash") === `+jsQuote(newer.RecordSHA256)+
		` && document.querySelectorAll("#queue .queued-result").length === 1 && document.getElementById("certify-`+key+`") && document.getElementById("certify")`, browsertest.WaitLong)
	// Oldest first: the queued result comes before the current one.
	var order []string
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll("#result [data-box=certify]")).map(function (d) { return d.getAttribute("data-for"); })`, &order); err != nil {
		t.Fatal(err)
	}
	if len(order) != 2 || order[0] != older.RecordSHA256 || order[1] != newer.RecordSHA256 {
		t.Errorf("certify buttons for %v, want the older %s then the newer %s", order, older.RecordSHA256[:16], newer.RecordSHA256[:16])
	}
	var pending []string
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll("#pending li")).map(function (l) { return l.textContent; })`, &pending); err == nil && len(pending) > 1 {
		t.Errorf("the pending list has %d lines for one table: %v", len(pending), pending)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "queue-laptop.png"))

	// A dashboard that connects now is given both, from what the broker
	// retained: the older queued before the newer.
	late := startDashboard(t, ctx, br.url, Opts{ClientID: "late-dashboard"})
	waitFor(t, "the late dashboard to have both results", 10*time.Second, func() bool {
		tb, ok := late.Store().Get("local/1")
		return ok && tb.Waiting() == 2 && len(tb.Queue) == 1 && tb.Queue[0].RecordSHA256 == older.RecordSHA256 &&
			tb.Result != nil && tb.Result.RecordSHA256 == newer.RecordSHA256
	})

	// The older one: certify asks first.
	if err := b.Eval(ctx, `document.getElementById("certify-`+key+`").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `document.getElementById("certify-box-`+key+`").open && document.getElementById("certify-confirm-`+key+`").offsetParent !== null && !document.getElementById("certify-box").open`, browsertest.WaitLong)
	b.SetViewport(ctx, t, 390, 844, true)
	_ = b.Eval(ctx, `document.getElementById("queue").scrollIntoView(); true`, nil)
	b.Screenshot(ctx, t, filepath.Join(shots, "queue-phone-confirm.png"))
	for _, r := range st.Results() {
		if r.Certification != nil {
			t.Fatal("certified before the judge confirmed")
		}
	}
	if err := b.Eval(ctx, `document.getElementById("certify-confirm-`+key+`").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `window.sameLoad === true && document.querySelector("#flash.ok") && !document.getElementById("queue") && !document.getElementById("certify-`+key+`")`+
		` && document.getElementById("certify") && document.querySelector("#result .current-result .v-pending")`, browsertest.WaitLong)
	b.Screenshot(ctx, t, filepath.Join(shots, "queue-phone-done.png"))
	b.SetViewport(ctx, t, 1280, 1000, false)
	_ = b.Eval(ctx, `window.scrollTo(0, 0); true`, nil)
	b.Screenshot(ctx, t, filepath.Join(shots, "queue-laptop-done.png"))

	rs := st.Results()
	if len(rs) != 2 || rs[0].RecordSHA256 != older.RecordSHA256 || rs[1].RecordSHA256 != newer.RecordSHA256 {
		t.Fatalf("the table's results: %d", len(rs))
	}
	if c := rs[0].Certification; c == nil || c.Verdict != broadcast.VerdictCertified || c.Judge != DemoJudgeName {
		t.Errorf("the older result's verdict at the table: %+v", c)
	}
	if rs[1].Certification != nil {
		t.Errorf("the newer result was given a verdict: %+v", rs[1].Certification)
	}
	verifyResult(t, &rs[0], srv.JudgeKeys())

	// The dashboard that connected late has the verdict too.
	waitFor(t, "the late dashboard to have the verdict", 10*time.Second, func() bool {
		tb, ok := late.Store().Get("local/1")
		return ok && tb.Waiting() == 1 && len(tb.Queue) == 0
	})
}

// jsQuote quotes s as a JavaScript string.
func jsQuote(s string) string { return `"` + s + `"` }
