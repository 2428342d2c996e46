package main

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/simtable"
	"github.com/parchis-table/parchis/table"
)

// gameScript plays a simulated game with mistakes through a journaled
// table and returns its journal as a table script: every input the referee
// had, one line each.
func gameScript(t *testing.T, inputs int) string {
	t.Helper()
	dir := t.TempDir()
	tb, err := table.Open(table.Opts{Caps: hw.Caps{Counts: true, Colours: true}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	opts := simtable.DefaultOpts
	opts.Seed = 11
	opts.Mistakes = map[string]float64{simtable.MistakeTouched: 0.05, simtable.MistakeWrongCount: 0.05, simtable.MistakeKillLeft: 0.2, simtable.MistakeEarlyThrow: 0.05, simtable.MistakeEdge: 0.05}
	d := simtable.NewDriver(tb, opts)
	if _, err := d.Start(engine.Green, [4]string{"Ana", "Bea", "Carla", "Dani"}); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 1000000; n++ {
		if _, err := d.Tick(); err != nil {
			t.Fatal(err)
		}
		if pos := tb.Referee().Position(); pos.Phase() == engine.PhaseEnd {
			break
		}
	}
	tb.Close()
	// A finished game's journal was archived under games/.
	path := filepath.Join(dir, table.JournalName)
	if archived, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal")); len(archived) > 0 {
		path = archived[0]
	}
	j, payloads, _, err := journal.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	var b strings.Builder
	for i, p := range payloads {
		if i == inputs {
			break
		}
		for line := range strings.SplitSeq(string(p), "\n") {
			if !strings.HasPrefix(line, "#") {
				b.WriteString(line + "\n")
			}
		}
	}
	return b.String()
}

// TestCrash_KilledAnywhere_ResumesSamePositionAndEvents kills the daemon
// with SIGKILL at many points of a game fed as a table script, restarts it
// on the same journal each time, and checks that the run that finishes
// prints exactly the events of a run never interrupted, and that every
// killed run printed a prefix of them.
func TestCrash_KilledAnywhere_ResumesSamePositionAndEvents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the daemon many times")
	}
	t.Parallel()
	bin := buildDaemon(t)
	script := filepath.Join(t.TempDir(), "game.script")
	text := gameScript(t, 1200)
	if !strings.Contains(text, " timer\n") {
		// The grace timer's inputs must replay too.
		t.Error("the game's journal holds no timer input")
	}
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, err := exec.Command(bin, "script", "-journal", t.TempDir(), script).Output()
	if err != nil {
		t.Fatalf("uninterrupted run: %v", err)
	}
	refLines := strings.Split(strings.TrimSpace(string(ref)), "\n")
	if len(refLines) < 200 {
		t.Fatalf("only %d events in the reference run", len(refLines))
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	kills := 0
	for run := 0; ; run++ {
		cmd := exec.Command(bin, "script", "-journal", dir, "-pace", "300us", script)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		finished := false
		if run < 12 {
			select {
			case err := <-done:
				finished = err == nil
			case <-time.After(time.Duration(20+rng.IntN(250)) * time.Millisecond):
				cmd.Process.Signal(syscall.SIGKILL)
				<-done
				kills++
			}
		} else {
			finished = <-done == nil
		}
		got := strings.Split(strings.TrimSpace(out.String()), "\n")
		// Whatever a run printed agrees with the reference, line by line;
		// the last line of a killed run may be cut short.
		for i, l := range got {
			if l == "" || (i == len(got)-1 && !finished && i < len(refLines) && strings.HasPrefix(refLines[i], l)) {
				continue
			}
			if i >= len(refLines) || l != refLines[i] {
				t.Fatalf("run %d, event line %d:\n got %s\nwant %s", run, i+1, l, refLines[min(i, len(refLines)-1)])
			}
		}
		if finished {
			if len(got) != len(refLines) {
				t.Fatalf("finished run printed %d events, want %d", len(got), len(refLines))
			}
			break
		}
	}
	if kills < 5 {
		t.Errorf("only %d kills landed mid-game", kills)
	}
	t.Logf("%d kills, %d events identical", kills, len(refLines))
}
