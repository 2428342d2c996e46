package simtable

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// startGame starts a simulated game, Yellow first, and returns the driver
// and the start's events.
func startGame(t *testing.T, opts Opts) (*Driver, *table.Table, []referee.Event) {
	t.Helper()
	tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	if err != nil {
		t.Fatal(err)
	}
	d := NewDriver(tb, opts)
	events, err := d.Start(engine.Yellow, [4]string{"Ana", "Bea", "Carla", "Dani"})
	if err != nil {
		t.Fatal(err)
	}
	return d, tb, events
}

// playGame runs a simulated game to its end (or maxTicks) and returns the
// driver and every event.
func playGame(t *testing.T, opts Opts, maxTicks int) (*Driver, []referee.Event) {
	t.Helper()
	d, tb, events := startGame(t, opts)
	for i := 0; i < maxTicks; i++ {
		ev, err := d.Tick()
		if err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		events = append(events, ev...)
		if pos := tb.Referee().Position(); pos.Phase() == engine.PhaseEnd {
			return d, events
		}
	}
	pos := tb.Referee().Position()
	t.Fatalf("game not over after %d ticks: %s", maxTicks, &pos)
	return nil, nil
}

func TestSimulatedGame_MatchesEngine(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		opts := DefaultOpts
		opts.Seed = seed
		d, events := playGame(t, opts, 200000)
		counts := map[string]int{}
		for _, e := range events {
			counts[e.Type+" "+e.Rule]++
		}
		t.Logf("seed %d: %d events %v, %v simulated; handling %v", seed, len(events), counts, d.Now(), d.Players.Handled)
		for _, e := range events {
			if e.Type == referee.EventInfraction || e.Type == referee.EventMismatch {
				t.Errorf("%s in a game without mistakes, with pieces handled as people do: %+v", e.Type, e)
			}
		}
		// The players counted pieces out, took victims home first, lifted
		// idle pieces and paused, through the real debouncing, and the
		// table stayed quiet.
		for _, k := range []string{HandlingCountOut, HandlingVictimFirst, HandlingLiftIdle, HandlingPause} {
			if d.Players.Handled[k] == 0 {
				t.Errorf("no %s in the game", k)
			}
		}
		// The engine, given the same throws and choices, plays the same game.
		g := replayMoves(t, d, nil)
		got := d.Table.Referee().Game()
		if got.Pos != g.Pos {
			t.Errorf("referee ends at %s, engine at %s", got.Pos, g.Pos)
		}
		var a, b bytes.Buffer
		got.WriteTo(&a)
		g.Tags = got.Tags
		g.WriteTo(&b)
		// The referee's record notes when each line was played; the
		// engine's, played at no time, does not.
		played := regexp.MustCompile(` \{\d\d:\d\d:\d\d\}`).ReplaceAllString(a.String(), "")
		if played != b.String() {
			t.Errorf("records differ:\n%s\n---\n%s", played, b.String())
		}
	}
}

func TestSimulatedGame_WithMistakes_FlagsEachAndStillEnds(t *testing.T) {
	opts := DefaultOpts
	opts.Seed = 3
	opts.Mistakes = map[string]float64{
		MistakeTouched: 0.05, MistakeWrongCount: 0.05, MistakeKillLeft: 0.3, MistakeEarlyThrow: 0.05, MistakeEdge: 0.05,
	}
	d, events := playGame(t, opts, 400000)
	count := map[string]int{}
	for _, e := range events {
		count[e.Type+" "+e.Rule]++
	}
	made := d.Players.Made
	t.Logf("mistakes made %v; events %v", made, count)
	if made[MistakeEdge] == 0 || count["rethrow "] != made[MistakeEdge] {
		t.Errorf("%d dice on an edge gave %d rethrows", made[MistakeEdge], count["rethrow "])
	}
	for _, rule := range []string{referee.RuleWrongCount, referee.RuleTouchedPiece, referee.RuleEarlyThrow} {
		if count["infraction "+rule] == 0 {
			t.Errorf("no %s infraction flagged", rule)
		}
	}
	if count["mismatch "] != count["resolved "] {
		t.Errorf("%d mismatches but %d resolved", count["mismatch "], count["resolved "])
	}
	// The record the referee kept replays to the same end.
	var rec bytes.Buffer
	g := d.Table.Referee().Game()
	g.WriteTo(&rec)
	replayed, err := engine.ReadRecord(&rec)
	if err != nil {
		t.Fatalf("record does not replay: %v\n%s", err, rec.String())
	}
	if replayed.Pos != g.Pos {
		t.Errorf("record replays to %s, game ended at %s", replayed.Pos.String(), g.Pos.String())
	}
}

func BenchmarkSimulatedGame(b *testing.B) {
	for i := 0; i < b.N; i++ {
		tb, _ := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}})
		opts := DefaultOpts
		opts.Seed = uint64(i)
		d := NewDriver(tb, opts)
		d.Start(engine.Yellow, [4]string{})
		for {
			if _, err := d.Tick(); err != nil {
				b.Fatal(err)
			}
			if pos := tb.Referee().Position(); pos.Phase() == engine.PhaseEnd {
				break
			}
		}
	}
}
