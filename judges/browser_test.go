package judges

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// TestBrowser_LiveMoveAndCertification opens the dashboard in headless
// Chromium: a simulated table's move shows within a second, a judge signs
// in and certifies the result, and the certified result verifies. It
// leaves screenshots in $DASHBOARD_SHOTS (default: the test's temporary
// directory). It skips when chromium is not installed (ci/chromium.sh).
func TestBrowser_LiveMoveAndCertification(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := os.Getenv("DASHBOARD_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1", "2"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 11)
	other := startTable(t, ctx, br.url, "local", "2", srv.JudgeKeys(), 12)
	for range 40 {
		other.step()
	}
	base := "http://" + srv.Addr().String()
	waitFor(t, "both tables on the dashboard", 5*time.Second, func() bool { return len(srv.Store().All()) == 2 })

	b := browsertest.Start(t, ctx, base+"/")
	b.WaitJS(ctx, t, `document.getElementById("tile-local/1") && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)

	// A move on the table shows on the page within a second. The machine
	// is shared, so the median of three moves is what must hold.
	var lats []time.Duration
	for len(lats) < 3 {
		seq := st.step()
		if seq == 0 || !strings.Contains(lastEventType(st, seq), "move") {
			continue
		}
		st.mu.Lock()
		sent := st.sent[seq]
		st.mu.Unlock()
		s := strconv.FormatUint(seq, 10)
		b.WaitJS(ctx, t, `Number(document.getElementById("tile-local/1").getAttribute("data-seq")) >= `+s, browsertest.WaitLong)
		lats = append(lats, time.Since(sent))
	}
	slices.Sort(lats)
	t.Logf("moves on the page after the table sent them: %v", lats)
	if lats[1] > time.Second {
		t.Errorf("median %v for a move to show, want ≤ 1s", lats[1])
	}
	var pieces int
	if err := b.Eval(ctx, `document.querySelectorAll('#tile-local\\/1 svg .piece').length`, &pieces); err != nil || pieces != 16 {
		t.Errorf("board of table 1 shows %d pieces (err %v), want 16", pieces, err)
	}
	for range 60 {
		st.step()
	}
	st.infraction("touched-piece", "12", "a piece was touched out of turn")
	time.Sleep(300 * time.Millisecond)
	b.Screenshot(ctx, t, filepath.Join(shots, "overview.png"))

	// The game ends; the result awaits certification.
	st.playToEnd()
	b.WaitJS(ctx, t, `document.querySelector('#pending a[href="/t/local/1"]')`, browsertest.WaitLong)

	// A judge signs in and certifies.
	b.Navigate(ctx, t, base+"/login?next=/t/local/1")
	signInJudge(ctx, t, b)
	b.WaitJS(ctx, t, `location.pathname === "/t/local/1" && document.getElementById("certify") && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)
	b.Screenshot(ctx, t, filepath.Join(shots, "table.png"))
	b.ClickUntil(ctx, t, "certify", `document.getElementById("certify-box").open`, browsertest.WaitLong)
	if err := b.Eval(ctx, `document.getElementById("certify-confirm").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `document.querySelector("#flash.ok") && document.querySelector("#result .v-certified")`, browsertest.WaitLong)
	b.Screenshot(ctx, t, filepath.Join(shots, "certified.png"))
	var text string
	_ = b.Eval(ctx, `document.getElementById("result").innerText`, &text)
	if !strings.Contains(text, "Certificado") || !strings.Contains(text, "juez") {
		t.Errorf("result panel after certifying: %q", text)
	}

	// The table holds the certified result; it verifies.
	res := st.Result()
	if res.Certification == nil {
		t.Fatal("the table's result has no certification")
	}
	verifyResult(t, res, srv.JudgeKeys())
}

// lastEventType returns the type of the simulated table's event seq.
func lastEventType(st *simTable, seq uint64) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.g.Actions) == 0 {
		return ""
	}
	a := st.g.Actions[len(st.g.Actions)-1]
	if a.Move.From != a.Move.To && a.Kind == 0 {
		return "move"
	}
	return ""
}

// verifyResult checks a certified result with the broadcast package's
// checks and with parchis verify, given the judges' keys.
func verifyResult(t *testing.T, res *broadcast.Result, judges broadcast.Judges) {
	t.Helper()
	if err := res.Verify(); err != nil {
		t.Errorf("result: %v", err)
	}
	if err := res.VerifyCertification(res.Certification, judges); err != nil {
		t.Errorf("certification: %v", err)
	}
	dir := t.TempDir()
	rf := filepath.Join(dir, "result.json")
	b, _ := json.MarshalIndent(res, "", "  ")
	if err := os.WriteFile(rf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	jb, _ := json.Marshal(judges)
	jf := filepath.Join(dir, "judges.json")
	if err := os.WriteFile(jf, jb, 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "parchis")
	build := exec.Command("go", "build", "-o", exe, "github.com/parchis-table/parchis/cmd/parchis")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build parchis: %v\n%s", err, out)
	}
	cmd := exec.Command(exe, "verify", "-judges", jf, rf)
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LC_MESSAGES=", "LANG=C") // its words in English
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("parchis verify %s: %v\n%s", rf, err, out)
		return
	}
	if !strings.Contains(string(out), "verified") || strings.Contains(string(out), "not checked") {
		t.Errorf("parchis verify did not check everything:\n%s", out)
	}
	t.Logf("parchis verify: %s", strings.TrimSpace(string(out)))
}

// TestBrowser_WinBarAndCurve: a table that publishes win chances gets an
// evaluation bar on its multiboard tile, kept live as the game goes on,
// and its page draws the game's curve. Screenshots go where
// TestBrowser_LiveMoveAndCertification's do.
func TestBrowser_WinBarAndCurve(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := os.Getenv("DASHBOARD_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 21)
	st.winChance = true
	for range 60 {
		st.step()
	}
	base := "http://" + srv.Addr().String()
	b := browsertest.Start(t, ctx, base+"/")
	b.WaitJS(ctx, t, `document.querySelector('#tile-local\\/1 svg.winbar:not([hidden])') && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)

	// The bar follows the game: after more moves it shows the newest
	// estimate.
	for range 20 {
		st.step()
	}
	st.mu.Lock()
	want := strconv.Itoa(int(math.Round(st.lastWin.YR * 100)))
	st.mu.Unlock()
	b.WaitJS(ctx, t, `(function(){ var s = document.querySelector('#tile-local\\/1 svg.winbar'); return s && s.getAttribute("aria-valuenow") === "`+want+`"; })()`, browsertest.WaitLong)
	var yrHeight float64
	if err := b.Eval(ctx, `Number(document.querySelector('#tile-local\\/1 svg.winbar rect.yr').getAttribute("height"))`, &yrHeight); err != nil || math.Abs(yrHeight-math.Round(st.lastWin.YR*100)) > 0.1 {
		t.Errorf("YR's part of the bar is %v high (err %v), want %.0f", yrHeight, err, st.lastWin.YR*100)
	}
	var barHeight float64
	if err := b.Eval(ctx, `document.querySelector('#tile-local\\/1 svg.winbar').getBoundingClientRect().height`, &barHeight); err != nil || barHeight < 40 {
		t.Errorf("the bar is %v px high on the tile (err %v), want it beside the board", barHeight, err)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "winbar.png"))

	// The table's page draws the game's curve, one point per estimate.
	b.Navigate(ctx, t, base+"/t/local/1")
	b.WaitJS(ctx, t, `document.querySelector('main.detail .curve polyline') && getComputedStyle(document.querySelector('main.detail .curve')).display !== "none"`, browsertest.WaitLong)
	var points int
	if err := b.Eval(ctx, `document.querySelector('main.detail .curve polyline').getAttribute("points").split(" ").length`, &points); err != nil || points < 50 {
		t.Errorf("the curve has %d points (err %v), want one per estimate (80)", points, err)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "curve.png"))
}

// TestBrowser_ResultMissedWhileLoading_PanelCatchesUp: a result that
// reaches the dashboard while a table's page is loading, before its stream
// is open, is never streamed to it; the next change of the table brings
// the result panel up to date without reloading the page.
func TestBrowser_ResultMissedWhileLoading_PanelCatchesUp(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 31)
	for range 10 {
		st.step()
	}
	base := "http://" + srv.Addr().String()
	waitFor(t, "the table on the dashboard", 5*time.Second, func() bool { return len(srv.Store().All()) == 1 })
	b := browsertest.Start(t, ctx, base+"/t/local/1")
	b.WaitJS(ctx, t, `document.body.getAttribute("data-stream") === "open" && document.querySelector("#result .none")`, browsertest.WaitLong)
	// A mark that a reload would lose.
	if err := b.Eval(ctx, `document.body.setAttribute("data-mark", "kept"); true`, nil); err != nil {
		t.Fatal(err)
	}
	// The result reaches the store without the page hearing of it, as
	// when it comes before the page's stream is open.
	res := broadcast.Result{Event: "local", Table: "1", Result: "YR", Position: "YG:YYYY,RG:RRRR Y end 0 - Y", Record: "[Event \"local\"]\n", Time: time.Now().UTC()}
	payload, _ := json.Marshal(res)
	if _, _, err := srv.Store().Apply(broadcast.Prefix("local", "1")+broadcast.TopicResult, payload); err != nil {
		t.Fatal(err)
	}
	st.step()
	b.WaitJS(ctx, t, `document.querySelector("#result .v-pending") && document.body.getAttribute("data-mark") === "kept"`, browsertest.WaitLong)
}

// signInJudge submits the sign-in form the browser is showing (or about
// to show) as the judge "juez".
func signInJudge(ctx context.Context, t *testing.T, b *browsertest.Browser) {
	t.Helper()
	b.WaitJS(ctx, t, `document.getElementById("login-form")`, browsertest.WaitLong)
	if err := b.Eval(ctx, `document.getElementById("user").value = "juez"; document.getElementById("password").value = "juez"; document.getElementById("login-form").submit(); true`, nil); err != nil {
		t.Fatal(err)
	}
}
