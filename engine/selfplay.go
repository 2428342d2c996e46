package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Validate checks the invariants every position reached in play keeps:
// sixteen pieces, each on its own route; at most two on a square; pieces of
// non-partner colours together only on safe squares; a phase consistent
// with sixes and last moved; a move available in every die or bonus phase;
// and a PPN form that reads back to the same position.
func (p *Position) Validate() error {
	var count [NumColours]int
	for s := Site(0); s < NumSites; s++ {
		cl := &p.cells[s]
		switch {
		case s.Holds2():
			if cl.n > 2 {
				return fmt.Errorf("site %s holds %d pieces", s, cl.n)
			}
			for i := uint8(0); i < cl.n; i++ {
				if !OnRoute(cl.c[i], s) {
					return fmt.Errorf("a %s piece stands on %s, off its route", cl.c[i].Name(), s)
				}
				count[cl.c[i]]++
			}
			if cl.n == 2 && cl.c[0].Pair() != cl.c[1].Pair() && !s.Safe() {
				return fmt.Errorf("non-partner pieces share unsafe square %s", s)
			}
		default:
			count[s.Owner()] += int(cl.n)
		}
	}
	for c := Colour(0); c < NumColours; c++ {
		if count[c] != 4 {
			return fmt.Errorf("%s has %d pieces", c.Name(), count[c])
		}
		for i, s := range p.pieces[c] {
			if i > 0 && p.pieces[c][i-1] > s {
				return fmt.Errorf("%s's piece list is out of order", c.Name())
			}
			if n, a, b := p.Occupants(s); n == 0 || (s.Holds2() && a != c && (n < 2 || b != c)) {
				return fmt.Errorf("%s's piece list names %s, where it has no piece", c.Name(), s)
			}
		}
	}
	switch {
	case p.sixes > 2:
		return fmt.Errorf("sixes is %d", p.sixes)
	case p.phase == 6 && p.sixes == 0, p.phase.IsDie() && p.phase != 6 && p.sixes != 0:
		return fmt.Errorf("phase %s with sixes %d", p.phase, p.sixes)
	case p.phase == PhaseEnd && (p.sixes != 0 || p.last != NoSite):
		return errors.New("a finished game keeps sixes or last moved")
	case (p.phase.IsDie() || p.phase.IsBonus()) && !p.HasLegalMove():
		return fmt.Errorf("phase %s has no legal move", p.phase)
	case p.phase != PhaseEnd && p.Finished(p.turn):
		return fmt.Errorf("finished player %s is to move", p.turn.Name())
	}
	q, err := ParsePPN(p.String())
	if err != nil {
		return fmt.Errorf("PPN %q does not read back: %w", p.String(), err)
	}
	if q != *p {
		return fmt.Errorf("PPN %q reads back as a different position", p.String())
	}
	return nil
}

// SelfPlayStats summarises random games.
type SelfPlayStats struct {
	Games   int
	Actions int // throws and moves, bonuses included
	// Wins counts the games won by each pair; Unfinished those stopped at
	// the action limit.
	Wins       [2]int
	Unfinished int
	// TiePlay counts games ended at once by a finish when the pairs were
	// level; the others ended at the end of a round.
	TiePlay int
}

// MaxGameActions bounds one random game; a game that reaches it is counted
// unfinished rather than looping for ever.
const MaxGameActions = 100000

// PlayRandomGame plays one game from pos with fair dice and uniformly random
// legal moves, and returns the final position and the number of actions.
// With check set it validates the invariants after every action and returns
// the first broken one.
func PlayRandomGame(rng *rand.Rand, pos Position, check bool) (Position, int, bool, error) {
	var ml MoveList
	tie := false
	for n := 0; n < MaxGameActions; n++ {
		var out Outcome
		switch {
		case pos.phase == PhaseEnd:
			return pos, n, tie, nil
		case pos.phase == PhaseThrow:
			pos.throw(1+rng.IntN(6), &out)
		default:
			pos.LegalMoves(&ml)
			if ml.n == 0 {
				return pos, n, tie, fmt.Errorf("position %s has no legal move", pos)
			}
			out = pos.PlayLegal(ml.moves[rng.IntN(ml.n)])
			tie = out.TiePlay
		}
		if check {
			if err := pos.Validate(); err != nil {
				return pos, n + 1, tie, fmt.Errorf("after action %d: %w", n+1, err)
			}
		}
	}
	return pos, MaxGameActions, false, nil
}

// SelfPlay plays n random games from the initial position, the starters
// taking turns, and returns what happened.
func SelfPlay(n int, seed uint64, check bool) (SelfPlayStats, error) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var st SelfPlayStats
	for i := 0; i < n; i++ {
		end, actions, tie, err := PlayRandomGame(rng, NewPosition(Colour(i%NumColours)), check)
		st.Games++
		st.Actions += actions
		if err != nil {
			return st, fmt.Errorf("game %d: %w", i+1, err)
		}
		if w, ok := end.Winner(); ok {
			st.Wins[w]++
			if tie {
				st.TiePlay++
			}
		} else {
			st.Unfinished++
		}
	}
	return st, nil
}
