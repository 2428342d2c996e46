// Package tournament describes a parchís por parejas tournament — its
// pairs, their players and clubs, its rounds with the table and colours
// of each game — as an organiser writes it in one file (YAML or CSV),
// draws rounds the file leaves out (round robin in groups, or Swiss by
// points), and ranks the pairs from the certified results
// (docs/tournament.md). It does no I/O beyond reading the file it is
// given, and reads no clock.
package tournament

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Pair is one team of two players, who sit opposite: the first plays
// Yellow or Blue, the second Red or Green.
type Pair struct {
	ID      string    `json:"id" yaml:"id"`
	Name    string    `json:"name,omitempty" yaml:"name"`
	Club    string    `json:"club,omitempty" yaml:"club"`
	Players [2]string `json:"players" yaml:"players"`
}

// Label is the pair's name, or its players' when it has none.
func (p Pair) Label() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Players[0] + " / " + p.Players[1]
}

// Game is one game of a round: at Table, pair YR plays Yellow and Red,
// pair BG Blue and Green.
type Game struct {
	Round int    `json:"round" yaml:"round"`
	Table string `json:"table" yaml:"table"`
	YR    string `json:"yr" yaml:"yr"`
	BG    string `json:"bg" yaml:"bg"`
}

// Draw methods for the rounds the file does not list.
const (
	DrawNone       = ""
	DrawRoundRobin = "round-robin"
	DrawSwiss      = "swiss"
)

// Event is a tournament.
type Event struct {
	// Event is the live feed's event, parchis/v1/<event>/…, that the
	// tables play under; Name is what people read.
	Event string `json:"event" yaml:"event"`
	Name  string `json:"name,omitempty" yaml:"name"`
	// Win and Loss are the points of a game won and lost.
	Win  int `json:"win" yaml:"win"`
	Loss int `json:"loss" yaml:"loss"`
	// Pairs in the order of the file (their seeding).
	Pairs []Pair `json:"pairs" yaml:"pairs"`
	// Rounds are the games of each round, in order; Rounds[i] is round
	// i+1.
	Rounds [][]Game `json:"rounds" yaml:"-"`
	// Draw says how rounds beyond those listed are drawn; NumRounds how
	// many rounds there are in all; Groups how many round-robin groups;
	// Tables the tables games are drawn to, in order.
	Draw      string   `json:"draw,omitempty" yaml:"draw"`
	NumRounds int      `json:"num_rounds" yaml:"num_rounds"`
	Groups    int      `json:"groups,omitempty" yaml:"groups"`
	Tables    []string `json:"tables,omitempty" yaml:"tables"`
}

// Pair returns the pair with id.
func (e *Event) Pair(id string) (Pair, bool) {
	for _, p := range e.Pairs {
		if p.ID == id {
			return p, true
		}
	}
	return Pair{}, false
}

// Game returns the game of round (from 1) at table.
func (e *Event) Game(round int, table string) (Game, bool) {
	if round < 1 || round > len(e.Rounds) {
		return Game{}, false
	}
	for _, g := range e.Rounds[round-1] {
		if g.Table == table {
			return g, true
		}
	}
	return Game{}, false
}

// Players returns the names of a game's players by colour letter, as the
// tables' new-game command takes them.
func (e *Event) Players(g Game) map[string]string {
	yr, _ := e.Pair(g.YR)
	bg, _ := e.Pair(g.BG)
	return map[string]string{"Y": yr.Players[0], "R": yr.Players[1], "B": bg.Players[0], "G": bg.Players[1]}
}

// check validates an event read from a file.
func (e *Event) check() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if e.Event == "" || strings.ContainsAny(e.Event, "/+# ") {
		bad("event %q: want the feed's event name (no spaces, /, + or #)", e.Event)
	}
	if e.Win == 0 && e.Loss == 0 {
		e.Win = 1
	}
	if e.Win <= e.Loss {
		bad("scoring: a win (%d) must be worth more than a loss (%d)", e.Win, e.Loss)
	}
	if len(e.Pairs) < 2 {
		bad("%d pairs: want at least 2", len(e.Pairs))
	}
	seen := map[string]bool{}
	for i, p := range e.Pairs {
		switch {
		case p.ID == "":
			bad("pair %d has no id", i+1)
		case seen[p.ID]:
			bad("pair %s given twice", p.ID)
		}
		seen[p.ID] = true
		for _, n := range p.Players {
			if strings.TrimSpace(n) == "" || len(n) > 80 || strings.ContainsAny(n, "\r\n") {
				bad("pair %s: players %q: want two names of one line", p.ID, p.Players)
				break
			}
		}
	}
	switch e.Draw {
	case DrawNone, DrawRoundRobin, DrawSwiss:
	default:
		bad("draw %q: want %s or %s", e.Draw, DrawRoundRobin, DrawSwiss)
	}
	if e.NumRounds < len(e.Rounds) {
		e.NumRounds = len(e.Rounds)
	}
	if e.NumRounds > len(e.Rounds) && e.Draw == DrawNone {
		bad("%d rounds but %d listed: list them or give a draw", e.NumRounds, len(e.Rounds))
	}
	if e.NumRounds == 0 {
		bad("no rounds: list them, or give num_rounds and a draw")
	}
	for r, games := range e.Rounds {
		tables, playing := map[string]bool{}, map[string]bool{}
		for _, g := range games {
			if g.Table == "" || strings.ContainsAny(g.Table, "/+# ") {
				bad("round %d: table %q", r+1, g.Table)
			}
			if tables[g.Table] {
				bad("round %d: table %s has two games", r+1, g.Table)
			}
			tables[g.Table] = true
			for _, id := range []string{g.YR, g.BG} {
				if !seen[id] {
					bad("round %d, table %s: no pair %q", r+1, g.Table, id)
				}
				if playing[id] {
					bad("round %d: pair %s plays twice", r+1, id)
				}
				playing[id] = true
			}
		}
	}
	if e.Draw != DrawNone && len(e.Tables) < len(e.Pairs)/2 {
		bad("draw: %d tables for %d pairs: want at least %d", len(e.Tables), len(e.Pairs), len(e.Pairs)/2)
	}
	return errors.Join(errs...)
}

// pairIndex maps the pairs' ids to their order in the file.
func (e *Event) pairIndex() map[string]int {
	m := make(map[string]int, len(e.Pairs))
	for i, p := range e.Pairs {
		m[p.ID] = i
	}
	return m
}

// Rounds' games are kept sorted by table.
func sortGames(gs []Game) {
	slices.SortStableFunc(gs, func(a, b Game) int { return compareNames(a.Table, b.Table) })
}

// compareNames orders table names, numbers by value.
func compareNames(a, b string) int {
	if len(a) != len(b) && digits(a) && digits(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
