package judges

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// shotsDir is where browser tests leave their screenshots:
// $DASHBOARD_SHOTS, or the test's temporary directory.
func shotsDir(t *testing.T) string {
	if d := os.Getenv("DASHBOARD_SHOTS"); d != "" {
		return d
	}
	return t.TempDir()
}

// TestBrowser_LiveCertification: a judge has a table's page open while its
// game ends. Without a reload, the page shows the final board, the winning
// pair, the summary (moves, infractions, corrections, duration) and the
// table's signature checked against its registered key; certifying asks
// for a confirmation and the certified result arrives on the same page.
// Screenshots at a laptop's and a phone's width.
func TestBrowser_LiveCertification(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := shotsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 21)
	b := openTrustedTable(ctx, t, srv, st)
	var has bool
	if err := b.Eval(ctx, `!!document.getElementById("certify")`, &has); err != nil || has {
		t.Fatalf("a certify button before the game ended (err %v)", err)
	}

	for range 30 {
		st.step()
	}
	st.infraction("touched-piece", "12", "the piece lifted from 12 must be the one played")
	st.playToEnd()
	res := st.Result()
	if res == nil {
		t.Fatal("the game did not end")
	}
	sum := Summarise(res.Record)
	if sum.Moves == 0 || sum.Infractions != 1 || sum.Duration <= 0 && !strings.Contains(res.Record, "{") {
		t.Fatalf("summary of the played record: %+v", sum)
	}
	b.WaitJS(ctx, t, `window.sameLoad === true && document.getElementById("certify") && document.querySelector("#result .v-pending")`, browsertest.WaitLong)

	var got struct {
		Pair, Moves, Infractions, Corrections, Duration, Sig string
		Pieces                                               int
	}
	if err := b.Eval(ctx, `(function () { var r = document.getElementById("result"); return {
		pair: r.querySelector(".pair").textContent, moves: document.getElementById("sum-moves").textContent,
		infractions: document.getElementById("sum-infractions").textContent, corrections: document.getElementById("sum-corrections").textContent,
		duration: document.getElementById("sum-duration").textContent, sig: document.getElementById("signature").className,
		pieces: r.querySelectorAll(".final-board svg .piece").length }; })()`, &got); err != nil {
		t.Fatal(err)
	}
	w, _ := engine.ParsePair(res.Result)
	if got.Pair != T(LangES, "pair."+w.String()) || got.Moves != strconv.Itoa(sum.Moves) || got.Infractions != "1" || got.Corrections != "0" ||
		got.Duration != durationText(sum.Duration) || !strings.Contains(got.Sig, "sig-registered") || got.Pieces != 16 {
		t.Errorf("result panel shows %+v; want pair %s, %d moves, 1 infraction, 0 corrections, %s, registered signature, 16 pieces",
			got, T(LangES, "pair."+w.String()), sum.Moves, durationText(sum.Duration))
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "certify-laptop.png"))

	// Certifying asks first.
	if err := b.Eval(ctx, `document.getElementById("certify").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `document.getElementById("certify-box").open && document.getElementById("certify-confirm").offsetParent !== null`, browsertest.WaitLong)
	b.SetViewport(ctx, t, 390, 844, true)
	_ = b.Eval(ctx, `document.getElementById("result").scrollIntoView(); true`, nil)
	b.Screenshot(ctx, t, filepath.Join(shots, "certify-phone-confirm.png"))
	if res := st.Result(); res.Certification != nil {
		t.Fatal("certified before the judge confirmed")
	}
	if err := b.Eval(ctx, `document.getElementById("certify-confirm").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `window.sameLoad === true && document.querySelector("#flash.ok") && document.querySelector("#result .v-certified") && !document.getElementById("certify")`, browsertest.WaitLong)
	b.Screenshot(ctx, t, filepath.Join(shots, "certify-phone-done.png"))
	b.SetViewport(ctx, t, 1280, 1000, false)
	b.Screenshot(ctx, t, filepath.Join(shots, "certify-laptop-done.png"))
	res = st.Result()
	if res.Certification == nil || res.Certification.Judge != DemoJudgeName {
		t.Fatalf("the table's result: %+v", res.Certification)
	}
	verifyResult(t, res, srv.JudgeKeys())
}

// openTrustedTable registers local/1's key as the organiser does, waits
// for the table on the dashboard, and opens its page signed in as a judge,
// the live stream open and the page marked (window.sameLoad) so that a
// test can tell it was never reloaded.
func openTrustedTable(ctx context.Context, t *testing.T, srv *Server, st *simTable) *browsertest.Browser {
	t.Helper()
	srv.store.mu.Lock()
	srv.store.trust.TableKeys = map[string]string{"local/1": certify.PublicKeyString(st.key)}
	srv.store.mu.Unlock()
	waitFor(t, "the table on the dashboard", 5*time.Second, func() bool { return len(srv.Store().All()) == 1 })
	b := browsertest.Start(t, ctx, "http://"+srv.Addr().String()+"/login?next=/t/local/1")
	signInJudge(ctx, t, b)
	b.WaitJS(ctx, t, `location.pathname === "/t/local/1" && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)
	if err := b.Eval(ctx, `window.sameLoad = true`, nil); err != nil {
		t.Fatal(err)
	}
	return b
}
