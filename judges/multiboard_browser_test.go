package judges

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// TestBrowser_Multiboard50: fifty simulated tables on one multiboard. The
// tables that need a judge come first — a result to certify, then an open
// mismatch and repeated infractions, then an offline table — then the
// games being played, then the finished ones; the filters show only what
// they name. While every table plays on, the stream's deltas are measured:
// at most 1 KB per event, on the wire (the server's count of what it
// wrote) and as the page received it.
func TestBrowser_Multiboard50(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	const n = 50
	shots := shotsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	names := make([]string, n)
	for i := range names {
		names[i] = strconv.Itoa(i + 1)
	}
	br := startBroker(t, ctx, "liga", names)
	srv := startDashboard(t, ctx, br.url, Opts{})
	sims := make([]*simTable, n)
	offCtx, offline := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := range sims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := ctx
			if i == 20 {
				c = offCtx // table 21 goes offline
			}
			sims[i] = startTable(t, c, br.url, "liga", names[i], srv.JudgeKeys(), uint64(100+i))
		}()
	}
	wg.Wait()
	for _, st := range sims {
		for range 12 {
			st.step()
		}
	}
	sims[6].playToEnd() // table 7: a result to certify
	sims[3].mismatch("12", "Y3")
	sims[12].infraction("touched-piece", "5", "the piece lifted from 5 must be the one played")
	sims[12].infraction("out-of-turn", "9", "Blue's piece moved during Yellow's turn")
	sims[29].playToEnd() // table 30: finished and judged
	res := *sims[29].Result()
	res.Certification = &broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: DemoJudgeName, Time: time.Now().UTC()}
	if err := sims[29].pub.Result(res); err != nil {
		t.Fatal(err)
	}
	offline()
	waitFor(t, "every table on the dashboard, table 21 offline", time.Minute, func() bool {
		all := srv.Store().All()
		tb, ok := srv.Store().Get("liga/21")
		return len(all) == n && ok && tb.Offline()
	})

	base := "http://" + srv.Addr().String()
	b := browsertest.Start(t, ctx, base+"/")
	b.WaitJS(ctx, t, `document.querySelectorAll("#tables .tile").length === 50 && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)
	var order []string
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll("#tables .tile")).slice(0, 5).map(function (t) { return t.getAttribute("data-tb") + ":" + t.getAttribute("data-need"); })`, &order); err != nil {
		t.Fatal(err)
	}
	want := []string{"7:0", "4:1", "13:1", "21:2"}
	if strings.Join(order[:4], " ") != strings.Join(want, " ") || !strings.HasSuffix(order[4], ":3") {
		t.Errorf("first tiles %v, want %v then a live game", order, want)
	}
	var last string
	_ = b.Eval(ctx, `(function () { var t = document.querySelectorAll("#tables .tile"); return t[t.length - 1].getAttribute("data-tb") + ":" + t[t.length - 1].getAttribute("data-need"); })()`, &last)
	if last != "30:4" {
		t.Errorf("last tile %s, want the finished table 30", last)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "multiboard-laptop.png"))

	// Every live table plays on; the page follows, and what it was sent is
	// counted.
	if err := b.Eval(ctx, `window.parchisStream.tiles = 0; window.parchisStream.bytes = 0; true`, nil); err != nil {
		t.Fatal(err)
	}
	bytes0, msgs0 := srv.streamBytes.Load(), srv.streamMsgs.Load()
	events := 0
	lastSeq := map[int]uint64{}
	for range 6 {
		for i, st := range sims {
			if i == 6 || i == 20 || i == 29 {
				continue
			}
			if seq := st.step(); seq != 0 {
				events++
				lastSeq[i] = seq
			}
		}
	}
	for i, seq := range lastSeq {
		b.WaitJS(ctx, t, `Number(document.getElementById("tile-liga/`+names[i]+`").getAttribute("data-seq")) >= `+strconv.FormatUint(seq, 10), browsertest.WaitLong)
	}
	// The states that follow each event arrive too; wait for them to settle.
	time.Sleep(500 * time.Millisecond)
	wire, msgs := srv.streamBytes.Load()-bytes0, srv.streamMsgs.Load()-msgs0
	var page struct{ Tiles, Bytes int }
	if err := b.Eval(ctx, `window.parchisStream`, &page); err != nil {
		t.Fatal(err)
	}
	perEvent := float64(wire) / float64(events)
	perMsg := float64(wire) / float64(msgs)
	t.Logf("%d events at %d tables: %d messages, %d bytes on the stream: %.0f bytes per event, %.0f per message; the page received %d tiles, %d bytes of data (%.0f per tile)",
		events, n, msgs, wire, perEvent, perMsg, page.Tiles, page.Bytes, float64(page.Bytes)/float64(max(page.Tiles, 1)))
	if events < 200 || msgs == 0 {
		t.Fatalf("only %d events, %d messages", events, msgs)
	}
	if perEvent > 1024 {
		t.Errorf("%.0f bytes on the wire per event, want ≤ 1024", perEvent)
	}
	if float64(page.Bytes)/float64(max(page.Tiles, 1)) > 1024 {
		t.Errorf("%d bytes for %d tiles at the page, want ≤ 1024 each", page.Bytes, page.Tiles)
	}
	var pieces int
	_ = b.Eval(ctx, `document.querySelectorAll('#tile-liga\\/2 svg .piece').length`, &pieces)
	if pieces != 16 {
		t.Errorf("table 2's tile shows %d pieces, want 16", pieces)
	}

	// Filters.
	if err := b.Eval(ctx, `document.querySelector('#filters [data-filter="need"]').click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	var visible []string
	_ = b.Eval(ctx, `Array.from(document.querySelectorAll("#tables .tile")).filter(function (t) { return !t.hidden; }).map(function (t) { return t.getAttribute("data-tb"); })`, &visible)
	if strings.Join(visible, " ") != "7 4 13 21" {
		t.Errorf("tiles that need a judge: %v, want 7 4 13 21", visible)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "multiboard-need.png"))
	_ = b.Eval(ctx, `document.querySelector('#filters [data-filter="all"]').click(); true`, nil)
	b.SetViewport(ctx, t, 390, 844, true)
	b.Screenshot(ctx, t, filepath.Join(shots, "multiboard-phone.png"))
}
