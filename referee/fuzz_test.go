package referee_test

import (
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// FuzzReferee feeds a referee arbitrary physical happenings — throws of
// every kind, pieces lifted and put anywhere, judges' corrections — and
// checks that it never fails: events are numbered without gaps, every
// event's position is valid, the game stays a valid game, and a board put
// back as the game has it closes any mismatch.
func FuzzReferee(f *testing.F) {
	f.Add([]byte{0, 5, 1, 100, 2, 4, 0, 0, 3})
	f.Add([]byte{0, 6, 0, 6, 0, 6, 1, 20, 2, 26, 0})
	f.Add([]byte{4, 0, 0, 1, 3, 9, 2, 50, 1})
	f.Add([]byte{0, 5, 1, 100, 2, 21, 5, 0, 0, 3})
	f.Fuzz(func(t *testing.T, ops []byte) {
		for _, caps := range []board.Caps{{Counts: true, Colours: true}, {Counts: true}, {}} {
			r := referee.New(referee.Opts{Caps: caps})
			at := time.Unix(0, 0)
			seq := uint64(0)
			check := func(events []referee.Event) {
				for _, e := range events {
					seq++
					if e.Seq != seq {
						t.Fatalf("event %+v after %d", e, seq-1)
					}
					if _, err := engine.ParsePPN(e.Position); err != nil {
						t.Fatalf("event %d: %v", e.Seq, err)
					}
				}
			}
			start := engine.NewPosition(engine.Yellow)
			check(r.Handle(referee.Input{At: at, Kind: referee.InputStart, Starter: engine.Yellow}))
			snap := board.Expected(&start)
			for i := 0; i+1 < len(ops); i += 2 {
				op, arg := ops[i]%6, ops[i+1]
				// From a hop's pace to a long pause, so that grace times
				// both end and do not.
				at = at.Add(time.Duration(arg%8) * 400 * time.Millisecond)
				in := referee.Input{At: at}
				switch op {
				case 0: // a throw
					in.Kind, in.Value = referee.InputThrow, 1+int(arg)%6
					if arg >= 240 {
						in.Throw = referee.ThrowKind(1 + arg%5)
					}
				case 1, 2: // a piece lifted from, or put on, a site
					s := engine.Site(arg % engine.NumSites)
					c := engine.Colour(arg / engine.NumSites % engine.NumColours)
					rd := &snap.Sites[s]
					if op == 1 && rd.ByColour[c] > 0 {
						rd.Count--
						rd.ByColour[c]--
					} else if op == 2 && rd.Count < 4 {
						rd.Count++
						rd.ByColour[c]++
						rd.Coloured = true
					}
					in.Kind, in.Board = referee.InputBoard, snap
				case 3: // the board put right
					pos := r.Position()
					snap = board.Expected(&pos)
					in.Kind, in.Board = referee.InputBoard, snap
				case 4: // a judge's correction to a position reached in play
					pos := r.Position()
					in.Kind, in.Position, in.Judge = referee.InputJudgeSet, pos, "fuzz"
				case 5: // the daemon's timer at the referee's deadline
					dl, ok := r.Deadline()
					if !ok {
						continue
					}
					in.Kind, in.At, at = referee.InputTimer, dl, dl
				}
				check(r.Handle(in))
				pos := r.Position()
				if pos.Phase() != engine.PhaseEnd {
					if err := pos.Validate(); err != nil {
						t.Fatalf("after op %d: %v", i/2, err)
					}
				}
				if op == 3 && r.Owed() == 0 && (r.Mismatch() != nil || r.Provisional()) {
					t.Fatalf("the board agrees with %s, yet a mismatch is open or waits", pos.String())
				}
				if dl, ok := r.Deadline(); ok && dl.Before(at) && op != 5 {
					t.Fatalf("deadline %v already past at %v", dl, at)
				}
			}
		}
	})
}
