package referee_test

import (
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// TestLights_Provisional: a piece counted out rests on a square on its way;
// the square pulses violet (provisional), the lifted piece's target still
// pulses white, and no event comes. Left there past the grace time, the
// square turns to blinking magenta with the mismatch and the infraction.
func TestLights_Provisional(t *testing.T) {
	pos, err := engine.ParsePPN("20:Y Y 4 0 - Y")
	if err != nil {
		t.Fatal(err)
	}
	r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	at := time.Unix(0, 0).UTC()
	r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
	snap := board.Expected(&pos)
	r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: snap})
	from, mid, target := engine.TrackSite(20), engine.TrackSite(22), engine.TrackSite(24)
	snap.Sites[from] = board.Reading{}
	r.Handle(referee.Input{At: at.Add(time.Second), Kind: referee.InputBoard, Board: snap})
	snap.Sites[mid] = board.Reading{Count: 1, Coloured: true, ByColour: [4]uint8{1, 0, 0, 0}}
	if ev := r.Handle(referee.Input{At: at.Add(1500 * time.Millisecond), Kind: referee.InputBoard, Board: snap}); len(ev) != 0 {
		t.Fatalf("events for a piece in transit: %+v", ev)
	}
	f := r.Lights()
	if got := f.Sites[mid]; got != (board.Light{Colour: referee.ColourViolet, Pattern: board.Pulse}) {
		t.Errorf("square passed: %+v, want pulsing violet", got)
	}
	if got := f.Sites[target]; got != (board.Light{Colour: referee.ColourWhite, Pattern: board.Pulse}) {
		t.Errorf("target: %+v, want pulsing white", got)
	}
	dl, ok := r.Deadline()
	if want := at.Add(3 * time.Second); !ok || !dl.Equal(want) {
		t.Fatalf("deadline %v %v, want %v", dl, ok, want)
	}
	// A timer before the deadline changes nothing; at it, the board is
	// flagged.
	if ev := r.Handle(referee.Input{At: dl.Add(-time.Millisecond), Kind: referee.InputTimer}); len(ev) != 0 || !r.Provisional() {
		t.Fatalf("early timer: %+v", ev)
	}
	ev := r.Handle(referee.Input{At: dl, Kind: referee.InputTimer})
	if len(ev) != 2 || ev[0].Type != referee.EventMismatch || ev[1].Rule != referee.RuleWrongCount {
		t.Fatalf("at the deadline: %+v, want a mismatch and a wrong-count", ev)
	}
	if r.Provisional() {
		t.Error("still provisional after the deadline")
	}
	if got := r.Lights().Sites[mid]; got != (board.Light{Colour: referee.ColourMagenta, Pattern: board.Blink}) {
		t.Errorf("square after the grace: %+v, want blinking magenta", got)
	}
}

// TestGrace_Negative: a negative grace flags at once, as before grace
// times existed.
func TestGrace_Negative(t *testing.T) {
	pos, _ := engine.ParsePPN("20:Y Y 4 0 - Y")
	r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}, Grace: -1})
	at := time.Unix(0, 0).UTC()
	r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
	snap := board.Expected(&pos)
	snap.Sites[engine.TrackSite(20)] = board.Reading{}
	snap.Sites[engine.TrackSite(25)] = board.Reading{Count: 1, Coloured: true, ByColour: [4]uint8{1, 0, 0, 0}}
	ev := r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: snap})
	if len(ev) != 2 || ev[1].Rule != referee.RuleWrongCount {
		t.Fatalf("%+v, want a mismatch and a wrong-count at once", ev)
	}
	if _, ok := r.Deadline(); ok {
		t.Error("a deadline with no grace")
	}
}

// TestLights_AllOwed: after a kill whose victim still stands, the lights
// show everything owed at once: the victim blinks orange, its home glows
// orange, and the pieces that may play the bonus glow white (but the
// killing piece, under the victim's orange: the kill comes first).
func TestLights_AllOwed(t *testing.T) {
	pos, _ := engine.ParsePPN("7:R,10:B,40:R R 3 0 - Y")
	r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	at := time.Unix(0, 0).UTC()
	r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
	snap := board.Expected(&pos)
	r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: snap})
	// The killing piece put down on 10, the victim left there.
	snap.Sites[engine.TrackSite(7)] = board.Reading{}
	snap.Sites[engine.TrackSite(10)] = board.Reading{Count: 2, Coloured: true, ByColour: [4]uint8{0, 1, 1, 0}}
	ev := r.Handle(referee.Input{At: at.Add(time.Second), Kind: referee.InputBoard, Board: snap})
	if len(ev) != 1 || ev[0].Move != "7x10" || r.Owed() != 1 {
		t.Fatalf("%+v (owed %d), want the kill 7x10 with its victim owed", ev, r.Owed())
	}
	f := r.Lights()
	want := map[engine.Site]board.Light{
		engine.TrackSite(10):         {Colour: referee.ColourOrange, Pattern: board.Blink},
		engine.HomeSite(engine.Blue): {Colour: referee.ColourOrange, Pattern: board.Steady},
		engine.TrackSite(40):         {Colour: referee.ColourWhite, Pattern: board.Steady},
	}
	for s, l := range want {
		if f.Sites[s] != l {
			t.Errorf("%s: %+v, want %+v", s, f.Sites[s], l)
		}
	}
}
