package main

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// allRules are the infractions RULES.md §10 names, each of which the tour
// must stage once.
var allRules = []string{
	referee.RuleTouchedPiece, referee.RuleOutOfTurn, referee.RuleWrongColour, referee.RuleBackwards,
	referee.RuleWrongCount, referee.RuleBarrier, referee.RuleKillNotDone, referee.RuleMustExit,
	referee.RuleMustOpenBarrier, referee.RuleThirdSixHome, referee.RuleBonusNotPlayed, referee.RuleEarlyThrow,
	referee.RuleIllegalMove,
}

// tourEvents runs the tour's script through a table as the daemon's
// referee sees it.
func tourEvents(t *testing.T) []referee.Event {
	t.Helper()
	text, err := tourScript()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	var events []referee.Event
	if err := tb.RunScript(strings.NewReader(text), func(e referee.Event) error {
		events = append(events, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return events
}

func TestTour_StagesEveryInfractionOnce_EndsWithAResult(t *testing.T) {
	events := tourEvents(t)
	seen := map[string]int{}
	kinds := map[string]int{}
	for _, e := range events {
		kinds[e.Type]++
		if e.Type == referee.EventInfraction {
			seen[e.Rule]++
		}
		if e.Type == referee.EventMove && strings.Contains(e.Move, "x") {
			kinds["kill"]++
		}
	}
	for _, r := range allRules {
		if seen[r] != 1 {
			t.Errorf("infraction %s staged %d times, want once", r, seen[r])
		}
	}
	if len(seen) != len(allRules) {
		t.Errorf("infractions staged: %v, want exactly %v", seen, allRules)
	}
	for _, k := range []string{referee.EventRethrow, referee.EventThirdSix, "kill", referee.EventCorrection} {
		if kinds[k] == 0 {
			t.Errorf("the tour shows no %s", k)
		}
	}
	if last := events[len(events)-1]; last.Type != referee.EventResult || last.Result != "YR" {
		t.Errorf("the tour ends with %+v, want Yellow and Red's result", last)
	}
	if kinds[referee.EventResult] != 1 || kinds[referee.EventStart] != 1 {
		t.Errorf("the tour plays %d games with %d results, want one game", kinds[referee.EventStart], kinds[referee.EventResult])
	}
}

// TestTour_EveryFaultPutRight checks that after each fault the tour puts
// the board right before the next scene: no scene starts on a board
// still wrong, as it would if its script lost step with the referee.
func TestTour_EveryFaultPutRight(t *testing.T) {
	open := false
	for _, e := range tourEvents(t) {
		switch e.Type {
		case referee.EventMismatch:
			open = true
		case referee.EventResolved:
			open = false
		case referee.EventCorrection:
			if open {
				t.Errorf("event %d: a scene set on a board still wrong", e.Seq)
			}
		}
	}
	if open {
		t.Error("the tour ends with the board wrong")
	}
}

func TestTour_PausesOnWhatItExplains(t *testing.T) {
	for _, tc := range []struct {
		e    referee.Event
		want bool
	}{
		{referee.Event{Type: referee.EventInfraction, Rule: referee.RuleBarrier}, true},
		{referee.Event{Type: referee.EventRethrow}, true},
		{referee.Event{Type: referee.EventThirdSix}, true},
		{referee.Event{Type: referee.EventMove, Move: "7x10"}, true},
		{referee.Event{Type: referee.EventResult}, true},
		{referee.Event{Type: referee.EventMove, Move: "20-24"}, false},
		{referee.Event{Type: referee.EventThrow}, false},
		{referee.Event{Type: referee.EventMismatch}, false},
	} {
		if got := tourPauses(tc.e); got != tc.want {
			t.Errorf("pause after %s %s: %v, want %v", tc.e.Type, tc.e.Move, got, tc.want)
		}
	}
}

// TestSimTour_ResultCertifiedByAJudge runs parchisd sim -tour fast: it
// explains each fault on standard output, publishes Yellow and Red's
// result, and a judge certifies it over the feed.
func TestSimTour_ResultCertifiedByAJudge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	t.Parallel()
	bin := buildDaemon(t)
	dir := t.TempDir()
	cfg, broker, _, marta := judgeConfig(t, dir, "")
	cmd := exec.Command(bin, "sim", "-tour", "-config", cfg, "-speed", "200", "-lang", "en")
	var out, log logBuf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	ready := make(chan bool)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			out.add(sc.Text())
		}
	}()
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.add(sc.Text())
			if strings.Contains(sc.Text(), "simulated table ready") {
				close(ready)
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(20 * time.Second):
		t.Fatalf("parchisd sim -tour not ready after 20 s:\n%s", log.String())
	}
	feed := watchFeed(t, broker)
	res := feed.waitResult(t, time.Minute)
	if res.Result != "YR" {
		t.Fatalf("the tour's result is %q, want YR", res.Result)
	}
	j := connectJudge(t, broker, "marta", "s3cret")
	c := res.Certify(marta, broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: "marta", Reason: "tour", Time: time.Now().UTC()})
	if r := j.command(t, marta, broadcast.Command{ID: "k1", Type: broadcast.CmdCertify, Judge: "marta", Certification: &c, RecordSHA256: res.RecordSHA256}); !r.OK {
		t.Fatalf("certify: %+v", r)
	}
	feed.waitCertified(t, res.RecordSHA256, 10*time.Second)

	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "The tour is over") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for _, want := range []string{
		"» The table saw: INFRACTION by Yellow: touched piece",
		"» The lights ask: put the piece back",
		"» The table saw: Red plays 7x10",
		"» The table saw: Yellow: third 6",
		"» The table saw: Game over: Yellow and Red win",
		"» The tour is over: Yellow and Red have won.",
		filepath.Join(dir, "tour"),
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the tour does not say %q:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "» The table saw: INFRACTION"); n != len(allRules) {
		t.Errorf("the tour explains %d infractions, want %d", n, len(allRules))
	}
}
