package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/internal/browsertest"
	"github.com/parchis-table/parchis/referee"
)

// feedWatcher follows a table's live feed as an anonymous viewer.
type feedWatcher struct {
	mu      sync.Mutex
	arrived map[uint64]time.Time
	events  map[uint64]referee.Event
	result  *broadcast.Result
	// byHash keeps every result seen, newest per record hash: the
	// simulated table plays on, and a later game's result replaces an
	// earlier one on the feed.
	byHash map[string]*broadcast.Result
}

func watchFeed(t *testing.T, broker string) *feedWatcher {
	t.Helper()
	w := &feedWatcher{arrived: map[uint64]time.Time{}, events: map[uint64]referee.Event{}, byHash: map[string]*broadcast.Result{}}
	o := mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("e2e-viewer").SetCleanSession(true)
	cli := mqtt.NewClient(o)
	if tok := cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("viewer cannot connect: %v", tok.Error())
	}
	t.Cleanup(func() { cli.Disconnect(100) })
	prefix := broadcast.Prefix("local", "1")
	tok := cli.Subscribe(prefix+"#", 1, func(_ mqtt.Client, m mqtt.Message) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch strings.TrimPrefix(m.Topic(), prefix) {
		case broadcast.TopicEvents:
			var e referee.Event
			if json.Unmarshal(m.Payload(), &e) == nil {
				w.arrived[e.Seq] = time.Now()
				w.events[e.Seq] = e
			}
		case broadcast.TopicResult:
			var r broadcast.Result
			if json.Unmarshal(m.Payload(), &r) == nil && r.Result != "" {
				w.result = &r
				w.byHash[r.RecordSHA256] = &r
			}
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("viewer cannot subscribe: %v", tok.Error())
	}
	return w
}

// nextMove waits for a move event numbered above after and returns it
// with the time it reached the viewer.
func (w *feedWatcher) nextMove(t *testing.T, after uint64, timeout time.Duration) (uint64, time.Time) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		for seq, e := range w.events {
			if seq > after && e.Type == referee.EventMove {
				at := w.arrived[seq]
				w.mu.Unlock()
				return seq, at
			}
		}
		w.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no move on the feed")
	return 0, time.Time{}
}

func (w *feedWatcher) waitResult(t *testing.T, timeout time.Duration) *broadcast.Result {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		r := w.result
		w.mu.Unlock()
		if r != nil {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no result on the feed after %v", timeout)
	return nil
}

// waitCertified waits for the result of the game whose record has the
// given hash to come back certified.
func (w *feedWatcher) waitCertified(t *testing.T, hash string, timeout time.Duration) *broadcast.Result {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		r := w.byHash[hash]
		w.mu.Unlock()
		if r != nil && r.Certification != nil {
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("result %s not certified on the feed after %v", hash, timeout)
	return nil
}

// TestSim_DashboardShowsMoves_JudgeCertifies_ResultVerifies runs the
// product as a newcomer does — parchisd sim, one command — and checks it
// end to end in headless Chromium: the dashboard shows a move of the
// simulated table within a second of its publication, a judge signs in and
// certifies the finished game, and parchis verify accepts the certified
// result with the judge's key.
func TestSim_DashboardShowsMoves_JudgeCertifies_ResultVerifies(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("plays a whole simulated game")
	}
	longTest(t, "a whole simulated game watched in the browser")
	bin := buildDaemon(t)
	dir := t.TempDir()
	cfg, broker, dash := simConfig(t, dir, "", "")
	cmd, log, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "60")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	feed := watchFeed(t, broker)

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	base := "http://" + dash
	b := browsertest.Start(t, ctx, base+"/")
	b.WaitJS(ctx, t, `document.getElementById("tile-local/1") && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)

	// Moves reach the page within a second of reaching the feed. The
	// machine is shared, so the median of five moves is what must hold.
	var after uint64
	var lats []time.Duration
	for i := 0; i < 5; i++ {
		seq, at := feed.nextMove(t, after, 30*time.Second)
		s := strconv.FormatUint(seq, 10)
		// The tile's event number (at 60 times real speed the table may
		// already have moved on).
		b.WaitJS(ctx, t, `Number(document.getElementById("tile-local/1").getAttribute("data-seq")) >= `+s, browsertest.WaitLong)
		lats = append(lats, time.Since(at))
		after = seq
	}
	slices.Sort(lats)
	t.Logf("moves on the page after reaching the feed: %v", lats)
	if lats[2] > time.Second {
		t.Errorf("median %v from the feed to the page, want ≤ 1s", lats[2])
	}
	var pieces int
	if err := b.Eval(ctx, `document.querySelectorAll('#tile-local\\/1 svg .piece').length`, &pieces); err != nil || pieces != 16 {
		t.Errorf("the board shows %d pieces (%v), want 16", pieces, err)
	}

	// The game ends; a judge signs in and certifies it.
	feed.waitResult(t, 3*time.Minute)
	b.Navigate(ctx, t, base+"/login?next=/t/local/1")
	if err := b.Eval(ctx, `document.getElementById("user").value = "juez"; document.getElementById("password").value = "juez"; document.getElementById("login-form").submit(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `location.pathname === "/t/local/1" && document.getElementById("certify")`, browsertest.WaitLong)
	// The daemon's dashboard knows its own table's key.
	var sig string
	if err := b.Eval(ctx, `document.getElementById("signature").className`, &sig); err != nil || sig != "sig sig-registered" {
		t.Errorf("the result's signature is shown as %q (%v), want sig sig-registered", sig, err)
	}
	// The simulated table plays on: the judge certifies the result on the
	// page, which a later game's may replace once certified.
	var hash string
	if err := b.Eval(ctx, `document.querySelector('#certify-form input[name="record"]').value`, &hash); err != nil || hash == "" {
		t.Fatalf("no record hash in the certify form (%v)", err)
	}
	// Certifying asks for a confirmation first.
	b.ClickUntil(ctx, t, "certify", `document.getElementById("certify-box") && document.getElementById("certify-box").open`, browsertest.WaitLong)
	if err := b.Eval(ctx, `document.getElementById("certify-confirm").click(); true`, nil); err != nil {
		t.Fatal(err)
	}
	b.WaitJS(ctx, t, `document.querySelector("#flash.ok")`, browsertest.WaitLong)
	b.WaitJS(ctx, t, `document.querySelector("#result .v-certified") || !document.getElementById("result").innerText.includes(`+strconv.Quote(hash)+`)`, browsertest.WaitLong)
	b.Screenshot(ctx, t, filepath.Join(dir, "certified.png"))
	cert := feed.waitCertified(t, hash, 10*time.Second)
	if cert.Certification.Judge != "juez" {
		t.Fatalf("result %s certified by %q, want juez", hash, cert.Certification.Judge)
	}

	// parchis verify accepts it, given the judge's public key (from the
	// daemon's log: the demo judge's key is made at start).
	m := regexp.MustCompile(`judges: judge.* name=juez key=(\S+)`).FindStringSubmatch(log.String())
	if m == nil {
		t.Fatalf("no key of the demo judge in the log:\n%s", log.String())
	}
	jf := filepath.Join(dir, "judges.json")
	os.WriteFile(jf, []byte(`{"juez": "`+strings.Trim(m[1], `"`)+`"}`), 0o644)
	rf := filepath.Join(dir, "result.json")
	raw, _ := json.Marshal(cert)
	os.WriteFile(rf, raw, 0o644)
	parchis := filepath.Join(t.TempDir(), "parchis")
	if out, err := exec.Command("go", "build", "-o", parchis, "../parchis").CombinedOutput(); err != nil {
		t.Fatalf("build parchis: %v\n%s", err, out)
	}
	vc := exec.Command(parchis, "verify", "-judges", jf, rf)
	vc.Env = append(os.Environ(), "LC_ALL=C", "LC_MESSAGES=", "LANG=C") // its words in English
	out, err := vc.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "verified") || strings.Contains(string(out), "not checked") {
		t.Fatalf("parchis verify: %v\n%s", err, out)
	}
	t.Logf("parchis verify:\n%s", out)
}
