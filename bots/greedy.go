package bots

import "github.com/parchis-table/parchis/engine"

// Greedy plays the legal move its heuristic scores highest, the first in
// canonical order among equals; it uses no randomness. The heuristic looks
// one move ahead, as a careful club player does:
//
//   - kill an opponent's piece when possible (+100: its owner starts again
//     and the killer counts 20), and never a partner's piece when joining
//     it is possible (−60);
//   - enter the goal (+80) or the home column (+40), where no piece is
//     ever killed;
//   - escape danger: leaving an unsafe square that opponents' pieces 1 to
//     7 steps behind could reach (+30 a threat), and not landing on one
//     (−30 a threat);
//   - form barriers (+25 with an own piece, +30 with the partner's, which
//     shields the partner's piece too) and stand on safe squares (+15);
//     breaking a barrier costs 10 (a 6 may oblige it all the same);
//   - help the partner: killing an opponent's piece that threatens one of
//     the partner's pieces is worth 20 more;
//   - among equals, move the piece furthest along its route, which reaches
//     safety soonest.
type Greedy struct{}

// Name returns "greedy".
func (Greedy) Name() string { return "greedy" }

// Choose returns the legal move with the highest score.
func (Greedy) Choose(pos *engine.Position) engine.Move {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	return greedyPick(pos, &ml)
}

// progress[c][s] is how far along colour c's route site s lies: 0 at home,
// 1 on the exit square, 72 in the goal, −1 off the route.
var progress = func() (pr [engine.NumColours][engine.NumSites]int8) {
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for s := engine.Site(0); s < engine.NumSites; s++ {
			pr[c][s] = int8(engine.Steps(c, engine.HomeSite(c), s))
		}
		pr[c][engine.HomeSite(c)] = 0
	}
	return
}()

// maxReach is the longest die count: a 6 counts 7 with no piece at home.
const maxReach = 7

func greedyPick(pos *engine.Position, ml *engine.MoveList) engine.Move {
	if ml.Len() == 1 {
		return ml.At(0)
	}
	best, bestScore := 0, Score(pos, ml.At(0))
	for i := 1; i < ml.Len(); i++ {
		if s := Score(pos, ml.At(i)); s > bestScore {
			best, bestScore = i, s
		}
	}
	return ml.At(best)
}

// threats counts the opponents' pieces on the track from 1 to 7 steps
// behind track square s, on their route: the pieces that a throw could
// bring onto s to kill colour c's piece there. A safe square has none.
func threats(pos *engine.Position, c engine.Colour, s engine.Site) int {
	if s >= engine.TrackLen || s.Safe() {
		return 0
	}
	n := 0
	for _, o := range [2]engine.Colour{c.Next(), c.Prev()} {
		ps := int(progress[o][s])
		if ps <= 1 {
			continue
		}
		for _, t := range pos.Pieces(o) {
			// Sites below TrackLen are the track's squares.
			if t >= engine.TrackLen {
				continue
			}
			if d := ps - int(progress[o][t]); d >= 1 && d <= maxReach {
				n++
			}
		}
	}
	return n
}

// barrier reports whether s holds two pieces of one pair.
func barrier(pos *engine.Position, s engine.Site) bool {
	n, a, b := pos.Occupants(s)
	return s.Holds2() && n == 2 && a.Pair() == b.Pair()
}

// Score is the greedy heuristic's value of the side to move's legal move
// m (see Greedy): higher is better.
func Score(pos *engine.Position, m engine.Move) int {
	c := pos.Turn()
	score := int(progress[c][m.From]) / 8
	if m.Kill {
		v, _ := pos.Victim(m)
		if v.Pair() == c.Pair() {
			score -= 60
		} else {
			score += 100
			// Does the victim threaten the partner's pieces?
			for _, s := range pos.Pieces(c.Partner()) {
				if s.Kind() == engine.Track && !s.Safe() {
					if d := int(progress[v][s]) - int(progress[v][m.To]); d >= 1 && d <= maxReach {
						score += 20
						break
					}
				}
			}
		}
	}
	switch m.To.Kind() {
	case engine.Goal:
		score += 80
	case engine.Column:
		if m.From.Kind() != engine.Column {
			score += 40
		}
	case engine.Track:
		n, a, _ := pos.Occupants(m.To)
		switch {
		case !m.Kill && n == 1 && a == c:
			score += 25
		case !m.Kill && n == 1 && a == c.Partner():
			score += 30
		case m.To.Safe():
			score += 15
		default:
			score -= 30 * threats(pos, c, m.To)
		}
	}
	if m.From.Kind() == engine.Track {
		if barrier(pos, m.From) {
			score -= 10
		} else {
			score += 30 * threats(pos, c, m.From)
		}
	}
	return score
}
