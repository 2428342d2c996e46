package main

import (
	"strings"
	"testing"

	"github.com/parchis-table/parchis/board"
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
