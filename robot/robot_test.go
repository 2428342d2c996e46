package robot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/robot"
)

func TestNew_Seats(t *testing.T) {
	for _, tc := range []struct {
		levels map[string]string
		err    string
		robots string
	}{
		{nil, "", ""},
		{map[string]string{"G": "greedy"}, "", "G"},
		{map[string]string{"B": "random", "G": "mc:10"}, "", "BG"},
		{map[string]string{"Y": "none", "B": "none", "R": "none", "G": "greedy"}, "", "G"},
		{map[string]string{"X": "greedy"}, "bad colour", ""},
		{map[string]string{"G": "genius"}, `bad bot "genius"`, ""},
		{map[string]string{"Y": "greedy", "B": "greedy", "R": "greedy", "G": "greedy"}, "every colour", ""},
	} {
		s, err := robot.New(tc.levels, 1)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("New(%v) = %v, want an error with %q", tc.levels, err, tc.err)
			}
			continue
		}
		got := ""
		for _, c := range s.Colours() {
			got += c.String()
		}
		if err != nil || got != tc.robots {
			t.Errorf("New(%v) = robots %q, %v; want %q", tc.levels, got, err, tc.robots)
		}
	}
}

// frame returns the referee's lights for pos with the board as the game
// has it, and with the piece on lift in hand (unless NoSite).
func frame(t *testing.T, pos engine.Position, lift engine.Site) *board.Frame {
	t.Helper()
	at := time.Unix(0, 0)
	r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
	b := board.Expected(&pos)
	r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: b})
	if lift != engine.NoSite {
		b.Sites[lift].Count--
		b.Sites[lift].ByColour[pos.Turn()]--
		r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: b})
	}
	f := *r.Lights()
	return &f
}

// TestLights_ShowTheRobotsMove: the lights show the robot's move, which a
// player reads back; the rest of the frame is the referee's.
func TestLights_ShowTheRobotsMove(t *testing.T) {
	seats, err := robot.New(map[string]string{"G": "greedy"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, ppn, want string
	}{
		{"kill", "10:G,14:Y,30:G G 4 0 - Y", "10x14"},
		{"out of home on a 5", "30:G G 5 0 - Y", "GH-56"},
		{"joins the partner, never kills it", "40:G,43:B G 3 0 - Y", "40-43"},
	} {
		pos, err := engine.ParsePPN(tc.ppn)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := seats.Move(&pos)
		if !ok || m.String() != tc.want {
			t.Errorf("%s: robot's move %v %v, want %s", tc.name, m, ok, tc.want)
			continue
		}
		ref := frame(t, pos, engine.NoSite)
		f := seats.Lights(ref, &pos)
		if got, ok := robot.ReadMove(f, &pos); !ok || got != m {
			t.Errorf("%s: the lights read as %v %v, want %s", tc.name, got, ok, m)
		}
		if f.Sites[m.To].Colour != referee.PlayerColours[engine.Green] || f.Sites[m.To].Pattern != board.Pulse {
			t.Errorf("%s: the square to put it on shows %+v", tc.name, f.Sites[m.To])
		}
		if f.Tray != ref.Tray {
			t.Errorf("%s: the tray changed", tc.name)
		}
		// The piece lifted: its square still pulses in the robot's colour.
		lifted := seats.Lights(frame(t, pos, m.From), &pos)
		if lifted.Sites[m.To].Colour != referee.PlayerColours[engine.Green] {
			t.Errorf("%s: with the piece in hand the square shows %+v", tc.name, lifted.Sites[m.To])
		}
	}
}

// TestLights_PeopleAndWaitingUnchanged: a person's turn, and a robot's
// turn before its throw, keep the referee's frame.
func TestLights_PeopleAndWaitingUnchanged(t *testing.T) {
	seats, _ := robot.New(map[string]string{"G": "greedy"}, 1)
	for _, ppn := range []string{"10:Y,14:B,30:Y Y 4 0 - Y", "10:G,14:B,30:G G throw 0 - Y"} {
		pos, _ := engine.ParsePPN(ppn)
		ref := frame(t, pos, engine.NoSite)
		if f := seats.Lights(ref, &pos); *f != *ref {
			t.Errorf("%s: lights changed", ppn)
		}
		if _, ok := robot.ReadMove(ref, &pos); ok && pos.Turn() != engine.Green {
			t.Errorf("%s: a move read from a person's lights", ppn)
		}
	}
}

// BenchmarkSeats_Lights measures what a robot partner costs the table's
// goroutine each time the lights are drawn during its move (the greedy
// robot's choice is made once per position and kept).
func BenchmarkSeats_Lights(b *testing.B) {
	seats, _ := robot.New(map[string]string{"G": "greedy"}, 1)
	pos, _ := engine.ParsePPN("10:G,14:Y,30:G G 4 0 - Y")
	at := time.Unix(0, 0)
	r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
	r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: board.Expected(&pos)})
	b.ReportAllocs()
	for b.Loop() {
		seats.Lights(r.Lights(), &pos)
	}
}

// TestSeats_SlowRobotThinksOffTheCaller: with Run going, an mc robot's
// move is not chosen on the caller's goroutine; once Ready tells, it is
// the move the same robot chooses when asked directly.
func TestSeats_SlowRobotThinksOffTheCaller(t *testing.T) {
	levels := map[string]string{"G": "mc:200"}
	pos, _ := engine.ParsePPN("10:G,14:Y,30:G G 4 0 - Y")
	direct, _ := robot.New(levels, 3)
	want, ok := direct.Move(&pos)
	if !ok {
		t.Fatal("no move without Run")
	}
	seats, _ := robot.New(levels, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go seats.Run(ctx)
	for !seats.Thinking() {
		time.Sleep(time.Millisecond)
	}
	if _, ok := seats.Move(&pos); ok {
		t.Fatal("the mc robot chose on the caller's goroutine")
	}
	select {
	case <-seats.Ready():
	case <-time.After(60 * time.Second):
		t.Fatal("the robot never chose")
	}
	got, ok := seats.Move(&pos)
	if !ok {
		t.Fatal("no move after Ready")
	}
	if got != want {
		t.Errorf("robot thinking on its own goroutine chose %s, directly %s", got, want)
	}
}

// Seats written by colour, as a journal's robots line holds them, seat
// the same robots again.
func TestSeats_ByColour_RoundTrip(t *testing.T) {
	for _, levels := range []map[string]string{{}, {"G": "greedy"}, {"Y": "random", "B": "mc:50", "R": "none"}} {
		s, err := robot.New(levels, 1)
		if err != nil {
			t.Fatal(err)
		}
		again, err := robot.NewByColour(s.ByColour(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fmt.Sprint(again.Levels()), fmt.Sprint(s.Levels()); got != want {
			t.Errorf("%v: seated again as %s, want %s", levels, got, want)
		}
	}
	if _, err := robot.NewByColour([4]string{"greedy", "greedy", "greedy", "greedy"}, 1); err == nil {
		t.Error("four robots seated")
	}
}
