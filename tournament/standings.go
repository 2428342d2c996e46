package tournament

import (
	"fmt"
	"slices"
)

// Result is a certified game's outcome, as the standings take it.
type Result struct {
	Round int    `json:"round"`
	Table string `json:"table"`
	// Winner is the winning side, "YR" or "BG".
	Winner string `json:"winner"`
	// GoalYR and GoalBG are the pieces each side had in its goals when
	// the game ended (the winners' 8).
	GoalYR int `json:"goal_yr"`
	GoalBG int `json:"goal_bg"`
}

// Standing is one pair's line of the standings.
type Standing struct {
	// Rank is shared by pairs equal on every criterion.
	Rank    int       `json:"rank"`
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Club    string    `json:"club,omitempty"`
	Players [2]string `json:"players"`
	Played  int       `json:"played"`
	Won     int       `json:"won"`
	Lost    int       `json:"lost"`
	Points  int       `json:"points"`
	// HeadToHead is the points won in games between the pairs level on
	// points with this one (docs/tournament.md).
	HeadToHead int `json:"head_to_head"`
	// Goal is the pieces in goal at the end of the pair's games.
	Goal int `json:"goal"`
}

// played is a result with its game.
type played struct {
	g Game
	r Result
}

// Standings ranks the pairs from the results (docs/tournament.md): by
// points, then by the points won between the pairs level on points, then
// by pieces in goal, then in the file's order (seeding). Results of a
// game the tournament does not have are returned as errors and left out;
// a game given twice counts once, the last given.
func (e *Event) Standings(results []Result) ([]Standing, []error) {
	var errs []error
	byGame := map[[2]string]played{}
	var order [][2]string
	for _, r := range results {
		g, ok := e.Game(r.Round, r.Table)
		if !ok {
			errs = append(errs, fmt.Errorf("result of round %d at table %s: the tournament has no such game", r.Round, r.Table))
			continue
		}
		if r.Winner != "YR" && r.Winner != "BG" {
			errs = append(errs, fmt.Errorf("result of round %d at table %s: winner %q", r.Round, r.Table, r.Winner))
			continue
		}
		k := [2]string{fmt.Sprint(r.Round), r.Table}
		if _, dup := byGame[k]; !dup {
			order = append(order, k)
		}
		byGame[k] = played{g: g, r: r}
	}
	idx := e.pairIndex()
	st := make([]Standing, len(e.Pairs))
	for i, p := range e.Pairs {
		st[i] = Standing{ID: p.ID, Name: p.Label(), Club: p.Club, Players: p.Players}
	}
	games := make([]played, 0, len(order))
	for _, k := range order {
		games = append(games, byGame[k])
	}
	for _, pg := range games {
		g, r := pg.g, pg.r
		yr, bg := &st[idx[g.YR]], &st[idx[g.BG]]
		yr.Played++
		bg.Played++
		yr.Goal += r.GoalYR
		bg.Goal += r.GoalBG
		win, lose := yr, bg
		if r.Winner == "BG" {
			win, lose = bg, yr
		}
		win.Won++
		win.Points += e.Win
		lose.Lost++
		lose.Points += e.Loss
	}
	// Head to head: the points won against the pairs level on points.
	for i := range st {
		for _, pg := range games {
			g := pg.g
			var opp string
			var won bool
			switch st[i].ID {
			case g.YR:
				opp, won = g.BG, pg.r.Winner == "YR"
			case g.BG:
				opp, won = g.YR, pg.r.Winner == "BG"
			default:
				continue
			}
			if st[idx[opp]].Points != st[i].Points {
				continue
			}
			if won {
				st[i].HeadToHead += e.Win
			} else {
				st[i].HeadToHead += e.Loss
			}
		}
	}
	slices.SortStableFunc(st, func(a, b Standing) int {
		switch {
		case a.Points != b.Points:
			return b.Points - a.Points
		case a.HeadToHead != b.HeadToHead:
			return b.HeadToHead - a.HeadToHead
		case a.Goal != b.Goal:
			return b.Goal - a.Goal
		}
		return idx[a.ID] - idx[b.ID]
	})
	for i := range st {
		st[i].Rank = i + 1
		if i > 0 {
			p := st[i-1]
			if p.Points == st[i].Points && p.HeadToHead == st[i].HeadToHead && p.Goal == st[i].Goal {
				st[i].Rank = p.Rank
			}
		}
	}
	return st, errs
}
