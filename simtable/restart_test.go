package simtable

import (
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// TestResume_BoardLeftWrong_GameGoesOn stops a simulated table at a throw
// whose board the referee last saw wrong — a piece put one square too
// far, before or after the grace flagged it — and resumes it from the
// journal, as parchisd sim does after a restart. The resumed players put
// every piece where the game has it: the referee must be told, and the
// game go on, not refuse each throw for ever as early.
func TestResume_BoardLeftWrong_GameGoesOn(t *testing.T) {
	cases := []struct {
		name string
		// stop tells, after a frame, whether to stop the table there,
		// given the last board the referee saw and the game's.
		stop func(r *referee.Referee, seen, want *board.Snapshot) bool
	}{
		{"a piece one square too far, within the grace", func(r *referee.Referee, seen, want *board.Snapshot) bool {
			return oneTooFar(seen, want) && r.Mismatch() == nil
		}},
		{"a piece one square too far, flagged", func(r *referee.Referee, seen, want *board.Snapshot) bool {
			return oneTooFar(seen, want) && r.Mismatch() != nil
		}},
		{"the board as the game has it", func(r *referee.Referee, seen, want *board.Snapshot) bool {
			return *seen == *want
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var seen board.Snapshot
			open := func() *table.Table {
				tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}, Dir: dir,
					Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
					Sinks: []table.Sink{table.SinkFunc(func(u *table.Update) error {
						if u.Input.Kind == referee.InputBoard {
							seen = u.Input.Board
						}
						return nil
					})}})
				if err != nil {
					t.Fatal(err)
				}
				return tb
			}
			tb := open()
			opts := DefaultOpts
			opts.Mistakes = map[string]float64{MistakeWrongCount: 0.3}
			d := NewDriver(tb, opts)
			if _, err := d.Start(engine.Yellow, [4]string{}); err != nil {
				t.Fatal(err)
			}
			for i := 0; ; i++ {
				if _, err := d.Tick(); err != nil {
					t.Fatal(err)
				}
				r := tb.Referee()
				pos := r.Position()
				want := board.Expected(&pos)
				if pos.Phase() == engine.PhaseThrow && d.Camera.Resting(d.Now()) && tc.stop(r, &seen, &want) {
					break
				}
				if pos.Phase() == engine.PhaseEnd || i > 50000 {
					t.Fatalf("the game never came to a throw with %s", tc.name)
				}
			}
			stopped := tb.Referee().Position()
			if err := tb.Close(); err != nil {
				t.Fatal(err)
			}

			tb = open()
			defer tb.Close()
			opts.Epoch = tb.LastInput()
			d = NewDriver(tb, opts)
			events, err := d.Resume()
			if err != nil {
				t.Fatal(err)
			}
			// A minute of the players' time: a throw, a move or two.
			for range 1500 {
				if tb.Referee().Position() != stopped {
					return
				}
				ev, err := d.Tick()
				if err != nil {
					t.Fatal(err)
				}
				events = append(events, ev...)
			}
			refused := 0
			for _, e := range events {
				if e.Type == referee.EventInfraction && e.Throw != "" {
					refused++
				}
			}
			t.Errorf("the game stands still at %s a minute after the restart: %d throws refused", &stopped, refused)
		})
	}
}

// oneTooFar reports whether seen is want with one piece put one square
// further on than the game has it.
func oneTooFar(seen, want *board.Snapshot) bool {
	var missing, extra []engine.Site
	var colour engine.Colour
	for i := range seen.Sites {
		s, w := &seen.Sites[i], &want.Sites[i]
		for c := engine.Colour(0); c < engine.NumColours; c++ {
			switch int(s.ByColour[c]) - int(w.ByColour[c]) {
			case 0:
			case -1:
				missing, colour = append(missing, engine.Site(i)), c
			case 1:
				extra = append(extra, engine.Site(i))
			default:
				return false
			}
		}
	}
	if len(missing) != 1 || len(extra) != 1 {
		return false
	}
	next, ok := engine.Advance(colour, missing[0], 1)
	return ok && next == extra[0]
}

// TestResume_ShortRuns_PlayersChooseAfresh stops a simulated table again
// and again, each run a few actions long, from the game's start, where
// every piece is home and a 5 must come to take one out. Players seeded
// alike at every restart would throw the same values each run, and some
// seeds never a 5: each run must throw afresh, and a piece come out.
func TestResume_ShortRuns_PlayersChooseAfresh(t *testing.T) {
	cases := []struct {
		seed  uint64
		every int // frames a run lasts
	}{
		{3, 60}, {4, 60}, {5, 60}, {3, 100}, {4, 100}, {5, 100},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("seed %d, runs of %d frames", tc.seed, tc.every), func(t *testing.T) {
			dir := t.TempDir()
			open := func() *table.Table {
				tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}, Dir: dir,
					Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
				if err != nil {
					t.Fatal(err)
				}
				return tb
			}
			tb := open()
			defer func() { tb.Close() }()
			opts := DefaultOpts
			opts.Seed = tc.seed
			d := NewDriver(tb, opts)
			if _, err := d.Start(engine.Yellow, [4]string{}); err != nil {
				t.Fatal(err)
			}
			var thrown [][]int
			for run := range 20 {
				for range tc.every {
					if _, err := d.Tick(); err != nil {
						t.Fatal(err)
					}
				}
				thrown = append(thrown, d.Players.Throws)
				pos := tb.Referee().Position()
				for c := engine.Colour(0); c < engine.NumColours; c++ {
					for _, s := range pos.Pieces(c) {
						if s.Kind() != engine.Home {
							t.Logf("a piece out in run %d", run+1)
							return
						}
					}
				}
				if err := tb.Close(); err != nil {
					t.Fatal(err)
				}
				tb = open()
				opts.Epoch = tb.LastInput()
				d = NewDriver(tb, opts)
				if _, err := d.Resume(); err != nil {
					t.Fatal(err)
				}
			}
			t.Errorf("every piece still home after 20 runs of %d frames; the values thrown, run by run: %v", tc.every, thrown)
		})
	}
}
