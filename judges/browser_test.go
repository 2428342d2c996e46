package judges

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
)

// TestBrowser_LiveMoveAndCertification opens the dashboard in headless
// Chromium: a simulated table's move shows within a second, a judge signs
// in and certifies the result, and the certified result verifies. It
// leaves screenshots in $DASHBOARD_SHOTS (default: the test's temporary
// directory). It skips when chromium is not installed (ci/chromium.sh).
func TestBrowser_LiveMoveAndCertification(t *testing.T) {
	chromiumPath(t)
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

	b := startBrowser(t, ctx, base+"/")
	b.waitJS(ctx, t, `document.getElementById("card-local/1") && document.body.getAttribute("data-stream") === "open"`, 20*time.Second)

	// A move on the table shows on the page within a second.
	var moveSeq uint64
	for moveSeq == 0 {
		seq := st.step()
		st.mu.Lock()
		last := st.g.Actions[len(st.g.Actions)-1]
		st.mu.Unlock()
		if seq != 0 && last.Move.From != last.Move.To && strings.Contains(lastEventType(st, seq), "move") {
			moveSeq = seq
		}
	}
	st.mu.Lock()
	sent := st.sent[moveSeq]
	st.mu.Unlock()
	b.waitJS(ctx, t, `Number(document.getElementById("card-local/1").getAttribute("data-seq")) >= `+strconv.FormatUint(moveSeq, 10)+
		` && document.querySelector('#card-local\\/1 .feed li[data-seq="`+strconv.FormatUint(moveSeq, 10)+`"]')`, 5*time.Second)
	lat := time.Since(sent)
	t.Logf("move %d on the page %v after the table sent it", moveSeq, lat)
	if lat > time.Second {
		t.Errorf("move took %v to show, want ≤ 1s", lat)
	}
	var pieces int
	if err := b.page.eval(ctx, `document.querySelectorAll('#card-local\\/1 svg .piece').length`, &pieces); err != nil || pieces != 16 {
		t.Errorf("board of table 1 shows %d pieces (err %v), want 16", pieces, err)
	}
	for range 60 {
		st.step()
	}
	st.infraction("touched-piece", "12", "a piece was touched out of turn")
	time.Sleep(300 * time.Millisecond)
	b.screenshot(ctx, t, filepath.Join(shots, "overview.png"))

	// The game ends; the result awaits certification.
	st.playToEnd()
	b.waitJS(ctx, t, `document.querySelector('#pending a[href="/t/local/1"]')`, 5*time.Second)

	// A judge signs in and certifies.
	b.navigate(ctx, t, base+"/login?next=/t/local/1")
	if err := b.page.eval(ctx, `document.getElementById("user").value = "juez"; document.getElementById("password").value = "juez"; document.getElementById("login-form").submit(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.waitJS(ctx, t, `location.pathname === "/t/local/1" && document.getElementById("certify") && document.body.getAttribute("data-stream") === "open"`, 10*time.Second)
	b.screenshot(ctx, t, filepath.Join(shots, "table.png"))
	if err := b.page.eval(ctx, `document.getElementById("certify").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.waitJS(ctx, t, `document.querySelector("#flash.ok") && document.querySelector("#result .v-certified")`, 10*time.Second)
	b.screenshot(ctx, t, filepath.Join(shots, "certified.png"))
	var text string
	_ = b.page.eval(ctx, `document.getElementById("result").innerText`, &text)
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

// verifyResult checks a certified result with `parchis verify` when the
// command has it, and with the broadcast package's checks in any case.
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
	var jl strings.Builder
	for name, key := range judges {
		jl.WriteString(name + " " + key + "\n")
	}
	jf := filepath.Join(dir, "judges.txt")
	_ = os.WriteFile(jf, []byte(jl.String()), 0o644)
	exe := filepath.Join(dir, "parchis")
	build := exec.Command("go", "build", "-o", exe, "github.com/parchis-table/parchis/cmd/parchis")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build parchis: %v\n%s", err, out)
	}
	out, err := exec.Command(exe, "verify", rf).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 && strings.Contains(strings.ToLower(string(out)), "unknown") {
		t.Logf("parchis has no verify command yet; the result was checked in-process (%s)", strings.TrimSpace(string(out)))
		return
	}
	if err != nil {
		t.Errorf("parchis verify %s: %v\n%s", rf, err, out)
		return
	}
	t.Logf("parchis verify: %s", strings.TrimSpace(string(out)))
}
