package simtable

import (
	"testing"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/robot"
)

// replayMoves plays the players' throws and moves on the engine, calls
// check (if not nil) with the position before each move, and returns the
// game.
func replayMoves(t *testing.T, d *Driver, check func(pos *engine.Position, m engine.Move)) *engine.Game {
	t.Helper()
	g := engine.NewGame(engine.NewPosition(engine.Yellow))
	throws, moves := d.Players.Throws, d.Players.Moves
	for g.Pos.Phase() != engine.PhaseEnd {
		var err error
		if g.Pos.Phase() == engine.PhaseThrow {
			if len(throws) == 0 {
				t.Fatalf("out of throws at %s", g.Pos)
			}
			_, err = g.Throw(throws[0])
			throws = throws[1:]
		} else {
			if len(moves) == 0 {
				t.Fatalf("out of moves at %s", g.Pos)
			}
			if check != nil {
				check(&g.Pos, moves[0])
			}
			_, err = g.Play(moves[0])
			moves = moves[1:]
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestSimulatedGame_PlayersAreGreedy: by default the simulated players
// choose every move as the greedy bot does.
func TestSimulatedGame_PlayersAreGreedy(t *testing.T) {
	d, _ := playGame(t, DefaultOpts, 200000)
	n := 0
	replayMoves(t, d, func(pos *engine.Position, m engine.Move) {
		n++
		if want := (bots.Greedy{}).Choose(pos); m != want {
			t.Errorf("on %s the player played %s, greedy plays %s", pos, m, want)
		}
	})
	if n < 50 {
		t.Errorf("%d moves checked, want a whole game's", n)
	}
}

// TestSimulatedGame_RobotPartner: three players (choosing at random) and
// a greedy robot at Green. At Green's turns a player throws for it, reads
// its move from the lights and makes it; the referee accepts every one,
// and each is the robot's choice. The others' moves are not.
func TestSimulatedGame_RobotPartner(t *testing.T) {
	seats, err := robot.New(map[string]string{"G": "greedy"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOpts
	opts.Bot, opts.Robots = "random", func() *robot.Seats { return seats }
	d, events := playGame(t, opts, 200000)
	for _, e := range events {
		if e.Type == referee.EventInfraction || e.Type == referee.EventMismatch {
			t.Errorf("%s in a game without mistakes: %+v", e.Type, e)
		}
	}
	check, _ := robot.New(map[string]string{"G": "greedy"}, 1)
	robotMoves, others, otherGreedy := 0, 0, 0
	replayMoves(t, d, func(pos *engine.Position, m engine.Move) {
		var ml engine.MoveList
		pos.LegalMoves(&ml)
		if pos.Turn() == engine.Green {
			robotMoves++
			if want, _ := check.Move(pos); m != want {
				t.Errorf("on %s the robot's player made %s, the robot chose %s", pos, m, want)
			}
			return
		}
		if ml.Len() > 1 {
			others++
			if m == (bots.Greedy{}).Choose(pos) {
				otherGreedy++
			}
		}
	})
	t.Logf("%d robot moves; %d of the players' %d choices were greedy's", robotMoves, otherGreedy, others)
	if robotMoves < 10 {
		t.Errorf("%d robot moves, want a whole game's", robotMoves)
	}
	if otherGreedy == others {
		t.Errorf("the players chose as greedy %d times of %d: the robot's lights misread as theirs?", otherGreedy, others)
	}
}
