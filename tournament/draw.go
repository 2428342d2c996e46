package tournament

import (
	"errors"
	"fmt"
	"slices"
)

// DrawRound returns the games of round (from 1): those the file lists, or
// else those the draw makes — round robin in groups from the seeding, or
// Swiss from the standings after the results given. Tables are taken in
// the order of Tables.
func (e *Event) DrawRound(round int, results []Result) ([]Game, error) {
	if round < 1 || round > e.NumRounds {
		return nil, fmt.Errorf("round %d: the tournament has rounds 1 to %d", round, e.NumRounds)
	}
	if round <= len(e.Rounds) {
		return e.Rounds[round-1], nil
	}
	if round != len(e.Rounds)+1 {
		return nil, fmt.Errorf("round %d: round %d is not drawn yet", round, len(e.Rounds)+1)
	}
	var pairs [][2]string
	switch e.Draw {
	case DrawRoundRobin:
		pairs = e.roundRobin(round)
	case DrawSwiss:
		pairs = e.swiss(results)
	default:
		return nil, fmt.Errorf("round %d: not in the file, and no draw given", round)
	}
	if len(pairs) > len(e.Tables) {
		return nil, fmt.Errorf("round %d: %d games, %d tables", round, len(pairs), len(e.Tables))
	}
	games := make([]Game, len(pairs))
	for i, p := range pairs {
		games[i] = Game{Round: round, Table: e.Tables[i], YR: p[0], BG: p[1]}
	}
	return games, nil
}

// AddRound appends a drawn round.
func (e *Event) AddRound(games []Game) error {
	if len(games) == 0 {
		return errors.New("a round with no games")
	}
	if games[0].Round != len(e.Rounds)+1 {
		return fmt.Errorf("round %d: the next round is %d", games[0].Round, len(e.Rounds)+1)
	}
	e.Rounds = append(e.Rounds, games)
	return nil
}

// roundRobin pairs each group's pairs by the circle method: groups are
// dealt from the seeding in a snake (1 2 … G G … 2 1 …), and a pair with
// no partner in a round (an odd group) rests.
func (e *Event) roundRobin(round int) [][2]string {
	g := max(e.Groups, 1)
	groups := make([][]string, g)
	for i, p := range e.Pairs {
		k := i % (2 * g)
		if k >= g {
			k = 2*g - 1 - k
		}
		groups[k] = append(groups[k], p.ID)
	}
	var out [][2]string
	for _, grp := range groups {
		ids := slices.Clone(grp)
		if len(ids)%2 == 1 {
			ids = append(ids, "")
		}
		n := len(ids)
		if n < 2 {
			continue
		}
		// Rotate all but the first, round-1 times.
		r := (round - 1) % (n - 1)
		rest := append(slices.Clone(ids[1:][r:]), ids[1:][:r]...)
		ring := append([]string{ids[0]}, rest...)
		for i := 0; i < n/2; i++ {
			a, b := ring[i], ring[n-1-i]
			if a == "" || b == "" {
				continue
			}
			if (round+i)%2 == 0 {
				a, b = b, a
			}
			out = append(out, [2]string{a, b})
		}
	}
	return out
}

// swiss pairs the pairs by the standings: the best placed with the next
// best it has not yet met (a rematch only when nothing else is left), the
// one that played Yellow and Red less often taking them. An odd pair out
// rests.
func (e *Event) swiss(results []Result) [][2]string {
	st, _ := e.Standings(results)
	met := map[[2]string]bool{}
	yr := map[string]int{}
	for _, games := range e.Rounds {
		for _, g := range games {
			met[[2]string{g.YR, g.BG}], met[[2]string{g.BG, g.YR}] = true, true
			yr[g.YR]++
		}
	}
	left := make([]string, len(st))
	for i, s := range st {
		left[i] = s.ID
	}
	var out [][2]string
	for len(left) >= 2 {
		a := left[0]
		j := 1
		for k := 1; k < len(left); k++ {
			if !met[[2]string{a, left[k]}] {
				j = k
				break
			}
		}
		b := left[j]
		left = append(left[1:j], left[j+1:]...)
		if yr[b] < yr[a] {
			a, b = b, a
		}
		out = append(out, [2]string{a, b})
	}
	return out
}
