package bots

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/parchis-table/parchis/engine"
)

// MC plays the move whose playouts win most often for its pair. Each
// playout plays the move, then the game to its end with fair dice and
// every colour choosing as Greedy does. The budget is split evenly between
// the legal moves, in turns, so that a budget by playouts is repeatable
// for a seed.
type MC struct {
	// Playouts is the budget of one choice.
	Playouts int
	// Deadline, when set, is asked between rounds of playouts (one per
	// legal move) whether time is up; a budget by time is not repeatable.
	Deadline func() bool

	rng   *rand.Rand
	level string
}

// NewMC returns a Monte Carlo player with a budget of playouts a move,
// seeded for repeatable choices.
func NewMC(playouts int, seed uint64) *MC {
	return &MC{Playouts: playouts, rng: newRand(seed), level: "mc"}
}

// Name returns the level the bot was made from, mc or mc:N.
func (b *MC) Name() string {
	if b.level == "" {
		return "mc"
	}
	return b.level
}

// Choose returns the move with the best playouts; a move that is the
// only one legal is played without playouts.
func (b *MC) Choose(pos *engine.Position) engine.Move {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	if ml.Len() == 1 {
		return ml.At(0)
	}
	return b.Evaluate(pos)[0].Move
}

// Value is a move with its playouts: Wins of Playouts won by the pair of
// the side that played it, a drawn or unfinished one counting half.
type Value struct {
	Move     engine.Move
	Wins     float64
	Playouts int
}

// Chance returns the move's estimated win chance.
func (v Value) Chance() float64 {
	if v.Playouts == 0 {
		return 0
	}
	return v.Wins / float64(v.Playouts)
}

// Evaluate returns the legal moves of pos with their playouts, best first
// (equal ones in canonical order).
func (b *MC) Evaluate(pos *engine.Position) []Value {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	vals := make([]Value, ml.Len())
	for i := range vals {
		vals[i].Move = ml.At(i)
	}
	if len(vals) == 0 {
		return vals
	}
	pair := pos.Turn().Pair()
	for i := 0; i < b.Playouts; i++ {
		k := i % len(vals)
		if k == 0 && b.Deadline != nil && i > 0 && b.Deadline() {
			break
		}
		q := *pos
		q.PlayLegal(vals[k].Move)
		vals[k].Wins += points(Playout(q, b.rng), pair)
		vals[k].Playouts++
	}
	sort.SliceStable(vals, func(i, j int) bool { return vals[i].Chance() > vals[j].Chance() })
	return vals
}

// points is what a game's end is worth to pair pr: 1 won, 0 lost, ½ with
// no winner.
func points(end engine.Position, pr engine.Pair) float64 {
	w, ok := end.Winner()
	switch {
	case !ok:
		return 0.5
	case w == pr:
		return 1
	}
	return 0
}

// Playout plays pos to its end with dice from rng, every colour choosing
// as Greedy does, and returns the final position (one still in play after
// engine.MaxGameActions actions). It allocates nothing.
func Playout(pos engine.Position, rng *rand.Rand) engine.Position {
	var ml engine.MoveList
	pos.Settle()
	for n := 0; n < engine.MaxGameActions; n++ {
		switch pos.Phase() {
		case engine.PhaseEnd:
			return pos
		case engine.PhaseThrow:
			pos.Throw(1 + rng.IntN(6))
		default:
			pos.LegalMoves(&ml)
			pos.PlayLegal(greedyPick(&pos, &ml))
		}
	}
	return pos
}

// Estimate is the result of playouts from one position: how many ended
// won by each pair, of how many.
type Estimate struct {
	Playouts int
	Wins     [2]int
}

// Add counts one playout's end.
func (e *Estimate) Add(end engine.Position) {
	e.Playouts++
	if w, ok := end.Winner(); ok {
		e.Wins[w]++
	}
}

// Chance returns pair pr's estimated win chance, a playout with no winner
// counting half to each pair, so that the two chances add up to 1.
func (e Estimate) Chance(pr engine.Pair) float64 {
	if e.Playouts == 0 {
		return 0.5
	}
	none := e.Playouts - e.Wins[0] - e.Wins[1]
	return (float64(e.Wins[pr]) + float64(none)/2) / float64(e.Playouts)
}

// Interval returns the 95% interval of pair pr's win chance.
func (e Estimate) Interval(pr engine.Pair) (lo, hi float64) {
	return Wilson(e.Chance(pr)*float64(e.Playouts), e.Playouts)
}

// WinChance estimates each pair's win chance in pos from n playouts
// (Playout) with dice seeded by seed.
func WinChance(pos engine.Position, n int, seed uint64) Estimate {
	return WinChanceUntil(pos, n, newRand(seed), nil)
}

// WinChanceUntil is WinChance with dice from rng, stopping early when stop
// (asked every 64 playouts) says so.
func WinChanceUntil(pos engine.Position, n int, rng *rand.Rand, stop func() bool) Estimate {
	var e Estimate
	for i := 0; i < n; i++ {
		if stop != nil && i%64 == 0 && i > 0 && stop() {
			break
		}
		e.Add(Playout(pos, rng))
	}
	return e
}

// Wilson returns the 95% Wilson score interval of a proportion: k
// successes in n trials.
func Wilson(k float64, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	nf := float64(n)
	p := k / nf
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return max(0, c-h), min(1, c+h)
}
