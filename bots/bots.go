// Package bots holds the players that think: a random player, a greedy
// player with a documented heuristic, and a Monte Carlo player whose
// playouts follow the greedy one; and the win chance of each pair in a
// position, estimated by playouts. All are deterministic for a seed; none
// reads a clock: a time budget is a deadline function the caller hands in.
package bots

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/parchis-table/parchis/engine"
)

// Bot chooses the move of the side to move.
type Bot interface {
	// Name is the level the bot was made from, as New reads it.
	Name() string
	// Choose returns one of the legal moves of pos, which must be in a die
	// or bonus phase with at least one legal move.
	Choose(pos *engine.Position) engine.Move
}

// Person is the level that seats no bot: where a level is asked for a
// colour (a robot partner), the colour is a person's.
const Person = "none"

// Levels are the bots' names, weakest first.
var Levels = []string{"random", "greedy", "mc"}

// DefaultPlayouts is the mc bot's budget when its level names none: about
// what 200 ms buy on one core of the development machine, averaged over
// the choices of a game (BenchmarkMCDecisionInGame: 65 ms for 2,000).
const DefaultPlayouts = 6000

// New returns the bot a level names: random, greedy, mc or mc:N (N
// playouts a move), seeded for repeatable choices.
func New(level string, seed uint64) (Bot, error) {
	name, arg, hasArg := strings.Cut(level, ":")
	rng := newRand(seed)
	switch {
	case name == "random" && !hasArg:
		return &Random{rng: rng}, nil
	case name == "greedy" && !hasArg:
		return Greedy{}, nil
	case name == "mc":
		n := DefaultPlayouts
		if hasArg {
			v, err := strconv.Atoi(arg)
			if err != nil || v < 1 {
				return nil, fmt.Errorf("bad bot %q: mc:N wants N, playouts a move, of at least 1", level)
			}
			n = v
		}
		return &MC{Playouts: n, rng: rng, level: level}, nil
	}
	return nil, fmt.Errorf("bad bot %q: want random, greedy, mc or mc:N", level)
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Random plays a uniformly random legal move.
type Random struct{ rng *rand.Rand }

// NewRandom returns a random player seeded for repeatable choices.
func NewRandom(seed uint64) *Random { return &Random{rng: newRand(seed)} }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose returns a uniformly random legal move.
func (r *Random) Choose(pos *engine.Position) engine.Move {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	return ml.At(r.rng.IntN(ml.Len()))
}

// Dice throws fair dice.
type Dice struct{ rng *rand.Rand }

// NewDice returns fair dice seeded for repeatable throws.
func NewDice(seed uint64) *Dice { return &Dice{rng: newRand(seed)} }

// Throw returns a value 1…6.
func (d *Dice) Throw() int { return 1 + d.rng.IntN(6) }

// Game plays pos to its end (or engine.MaxGameActions actions), each
// colour's moves chosen by its bot and the throws by dice. It returns the
// final position.
func Game(players [engine.NumColours]Bot, pos engine.Position, dice *Dice) (engine.Position, error) {
	for n := 0; n < engine.MaxGameActions; n++ {
		switch ph := pos.Phase(); {
		case ph == engine.PhaseEnd:
			return pos, nil
		case ph == engine.PhaseThrow:
			if _, err := pos.Throw(dice.Throw()); err != nil {
				return pos, err
			}
		default:
			if !pos.HasLegalMove() {
				pos.Settle()
				continue
			}
			c := pos.Turn()
			m := players[c].Choose(&pos)
			if _, err := pos.Play(m); err != nil {
				return pos, fmt.Errorf("%s's bot (%s) chose %s on %s: %w", c.Name(), players[c].Name(), m, pos, err)
			}
		}
	}
	return pos, nil
}
