package referee_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// runText feeds a table script to a referee reading sensors with caps and
// returns its events.
func runText(t *testing.T, caps board.Caps, script string) []referee.Event {
	t.Helper()
	tb, err := table.Open(table.Opts{Caps: caps})
	if err != nil {
		t.Fatal(err)
	}
	var events []referee.Event
	if err := tb.RunScript(strings.NewReader(script), func(e referee.Event) error { events = append(events, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return events
}

// TestCrowdedExit_KillInAnyOrder: Yellow comes out on a 5 onto an exit
// held by two pieces, each case of RULES.md §4's table. The victim may be
// taken home before the piece comes out or after; either way the move is
// YHx5, with no infraction and nothing left owed. Two of Yellow's own
// pieces let none out.
func TestCrowdedExit_KillInAnyOrder(t *testing.T) {
	cases := []struct {
		name, exit, victim string // victim "" when no piece may come out
	}{
		{"own and own", "YY", ""},
		{"own and partner", "YR", "R"},
		{"own and opponent", "YB", "B"},
		{"partner and opponent", "RB", "B"},
		{"partner and partner", "RR", "R"},
		{"two of the other pair, one colour", "BB", "B"},
		{"two of the other pair, two colours", "BG", "G"},
	}
	for _, tc := range cases {
		for _, caps := range []board.Caps{{Counts: true, Colours: true}, {Counts: true}} {
			for _, first := range []bool{true, false} {
				name := fmt.Sprintf("%s/counts only %v/victim first %v", tc.name, !caps.Colours, first)
				t.Run(name, func(t *testing.T) {
					setup := fmt.Sprintf("setup 5:%s,40:Y Y throw 0 - Y\nat 1 throw 5\n", tc.exit)
					if tc.victim == "" {
						events := runText(t, caps, setup+"at 2 lift YH\nat 3 place 5 Y\nat 4.5 timer\n")
						for _, e := range events {
							if e.Type == referee.EventMove {
								t.Errorf("a piece came out onto its own barrier: %+v", e)
							}
						}
						if last := events[len(events)-1]; last.Type != referee.EventInfraction {
							t.Errorf("coming out onto its own barrier is not flagged: %+v", last)
						}
						return
					}
					victim := fmt.Sprintf("lift 5 %s\nplace %sH %s\n", tc.victim, tc.victim, tc.victim)
					out := "lift YH\nplace 5 Y\n"
					script := setup + out + victim
					if first {
						script = setup + victim + out
					}
					events := runText(t, caps, script)
					var moves []string
					for _, e := range events {
						switch e.Type {
						case referee.EventInfraction, referee.EventMismatch:
							t.Errorf("%s: %+v", e.Type, e)
						case referee.EventMove:
							moves = append(moves, e.Move)
						}
					}
					last := events[len(events)-1]
					if len(moves) != 1 || moves[0] != "YHx5" || !strings.Contains(last.Position, "Y +20 0 5 Y") {
						t.Errorf("moves %v, position %s; want YHx5 and the bonus 20 to play", moves, last.Position)
					}
				})
			}
		}
	}
}
