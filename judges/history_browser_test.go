package judges

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// piecesOf lists a position's pieces as the boards draw them: "SITE:C",
// sorted.
func piecesOf(t *testing.T, ppn string) []string {
	t.Helper()
	p, err := engine.ParsePPN(ppn)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for s := engine.Site(0); s < engine.NumSites; s++ {
		n, first, second := p.Occupants(s)
		for i := 0; i < n; i++ {
			c := first
			switch {
			case s.Kind() == engine.Goal || s.Kind() == engine.Home:
				c = s.Owner()
			case i == 1:
				c = second
			}
			out = append(out, s.String()+":"+c.String())
		}
	}
	slices.Sort(out)
	return out
}

// boardPieces is the page's script listing the main board's pieces.
const boardPieces = `Array.from(document.querySelectorAll(".big svg.board .piece")).map(function (p) { return p.getAttribute("data-site") + ":" + p.getAttribute("data-colour"); }).sort()`

// TestBrowser_HistoryStepper: on a table's page the last move is ringed
// on the board, the history is grouped by turn, and a click on any event
// shows the board as it was after it; ◀ ▶ step, live events do not pull
// the board away from the step, and "En directo" brings it back.
func TestBrowser_HistoryStepper(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := shotsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 31)
	var last uint64
	for range 60 {
		last = st.step()
	}
	// every event, not only the last: under load the broker may deliver
	// the last before some earlier ones, which the feed holds as a gap
	// until they come (and with the whole suite running beside it, the
	// 60 events took over 10 s once)
	waitFor(t, "the events on the dashboard", 30*time.Second, func() bool {
		tb, ok := srv.Store().Get("local/1")
		return ok && tb.LastSeq == last && !slices.ContainsFunc(tb.Feed, func(e Entry) bool { return e.Gap != 0 })
	})
	tb, _ := srv.Store().Get("local/1")
	var lastMove string
	for _, e := range tb.Feed {
		if e.Type == "move" {
			lastMove = e.Move
		}
	}
	entries := viewCard(LangES, tb, -1).Feed
	slices.Reverse(entries)
	turns := groupTurns(entries)

	base := "http://" + srv.Addr().String()
	b := browsertest.Start(t, ctx, base+"/t/local/1")
	b.WaitJS(ctx, t, `document.body.getAttribute("data-stream") === "open" && document.querySelectorAll("#history li.ev").length === `+fmt.Sprint(len(entries)), browsertest.WaitLong)

	// The last move, ringed where it went.
	m, err := engine.ParseMove(lastMove)
	if err != nil {
		t.Fatalf("last move %q: %v", lastMove, err)
	}
	c := siteCentre(m.To)
	var ring []float64
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll(".big svg.board .lastmove:not(.from)")).map(function (e) { return [Number(e.getAttribute("cx")), Number(e.getAttribute("cy"))]; })[0]`, &ring); err != nil || len(ring) != 2 ||
		ring[0] != c.x*cell || ring[1] != c.y*cell {
		t.Errorf("last move %s ringed at %v (err %v), want %v,%v", lastMove, ring, err, c.x*cell, c.y*cell)
	}

	// Grouped by turn: one group per turn, each of one colour.
	var groups []string
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll("#history > li.turn")).map(function (g) {
		return g.getAttribute("data-colour") + ":" + Array.from(g.querySelectorAll("li.ev")).map(function (e) { return e.getAttribute("data-colour") || "-"; }).join(""); })`, &groups); err != nil {
		t.Fatal(err)
	}
	if len(groups) != len(turns) || len(turns) < 10 {
		t.Fatalf("%d turns on the page, %d expected", len(groups), len(turns))
	}
	for i, g := range groups {
		who, cols, _ := strings.Cut(g, ":")
		if who != turns[i].Colour || strings.Trim(cols, who+"-") != "" {
			t.Errorf("turn %d: %q, want all of %s", i, g, turns[i].Colour)
		}
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "history-live.png"))

	// A click on an event shows the board after it.
	pick := entries[len(entries)/2]
	if err := b.Eval(ctx, `document.querySelector('#history li.ev[data-seq="`+fmt.Sprint(pick.Seq)+`"]').click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `document.body.classList.contains("stepping")`, browsertest.WaitLong)
	var got []string
	if err := b.Eval(ctx, boardPieces, &got); err != nil {
		t.Fatal(err)
	}
	if want := piecesOf(t, pick.Pos); !slices.Equal(got, want) {
		t.Errorf("board after event %d shows\n%v\nwant\n%v", pick.Seq, got, want)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "history-step.png"))

	// ▶ steps to the next event; live events leave the step alone.
	var next entryView
	for i, e := range entries {
		if e.Seq == pick.Seq {
			next = entries[i+1]
		}
	}
	_ = b.Eval(ctx, `document.getElementById("step-fwd").click(); true`, nil)
	seq := st.step()
	b.WaitJS(ctx, t, `document.querySelector('#history li.ev[data-seq="`+fmt.Sprint(seq)+`"]')`, browsertest.WaitLong)
	if err := b.Eval(ctx, boardPieces, &got); err != nil {
		t.Fatal(err)
	}
	if want := piecesOf(t, next.Pos); !slices.Equal(got, want) {
		t.Errorf("after ▶ and a live event the board shows\n%v\nwant event %d's\n%v", got, next.Seq, want)
	}
	b.SetViewport(ctx, t, 390, 844, true)
	_ = b.Eval(ctx, `document.getElementById("stepper").scrollIntoView(); true`, nil)
	b.Screenshot(ctx, t, filepath.Join(shots, "history-phone.png"))
	b.SetViewport(ctx, t, 1280, 1000, false)

	// Back to live: the newest position.
	_ = b.Eval(ctx, `document.getElementById("step-live").click(); true`, nil)
	b.WaitJS(ctx, t, `!document.body.classList.contains("stepping")`, browsertest.WaitLong)
	tb, _ = srv.Store().Get("local/1")
	if err := b.Eval(ctx, boardPieces, &got); err != nil {
		t.Fatal(err)
	}
	if want := piecesOf(t, tb.Position); !slices.Equal(got, want) {
		t.Errorf("live again, the board shows\n%v\nwant\n%v", got, want)
	}
}
