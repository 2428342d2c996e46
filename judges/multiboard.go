package judges

import (
	"encoding/json"
	"html/template"
	"math"
	"strings"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// The multiboard is the index page: one small tile per table, the tables
// that need a judge first. Its event stream (/events?view=tiles) carries
// small JSON deltas (Tile) that the page draws itself, instead of cards
// rendered on the server: a few hundred bytes an event, whatever the
// number of tables.

// What a table needs, in the order the multiboard shows them.
const (
	NeedCertify  = iota // a result awaits a judge
	NeedCheck           // an open mismatch, a repeated infraction, an alert
	NeedOffline         // the table is offline
	NeedLive            // a game is being played
	NeedFinished        // the game is over and judged
)

// repeatWindow and repeatCount define a repeated infraction: that many
// infractions among the table's last repeatWindow events.
const (
	repeatWindow = 30
	repeatCount  = 2
)

// Tile is what the multiboard shows of one table, and the data of a
// "tile" server-sent event. Field names are short: it is sent at every
// event of every table.
type Tile struct {
	ID    string `json:"id"`
	Event string `json:"ev"`
	Table string `json:"tb"`
	Seq   uint64 `json:"s"`
	// Pos is the position (PPN) the page draws.
	Pos    string `json:"p,omitempty"`
	Status string `json:"st"`
	// Need is one of the Need… values; Why says it in words.
	Need int    `json:"k"`
	Why  string `json:"y,omitempty"`
	// Turn is the colour letter to move; Throw the last throw in words.
	Turn  string `json:"tu,omitempty"`
	Throw string `json:"th,omitempty"`
	// Infractions counts the infractions in the kept feed; Waiting the
	// results awaiting a judge.
	Infractions int `json:"n,omitempty"`
	Waiting     int `json:"w,omitempty"`
	// Mismatch are the sites where the board disagrees.
	Mismatch []string `json:"m,omitempty"`
	// Last is the newest event in words; LastSite the site it moved a
	// piece to, highlighted.
	Last     string `json:"l,omitempty"`
	LastSite string `json:"ls,omitempty"`
	// Winner is the winning pair's name once the game is over.
	Winner string `json:"r,omitempty"`
	// Round is the tournament round the table plays, if known, and
	// Pairs the pairs of its game there.
	Round string `json:"rd,omitempty"`
	Pairs string `json:"pp,omitempty"`
	// Win is YR's win chance in percent (BG's is the rest), nil before
	// the table sent one; WinStale is set while the position shown is
	// newer than the estimate.
	Win      *int `json:"wc,omitempty"`
	WinStale bool `json:"wx,omitempty"`
}

// needOf says what a table needs, and why in lang.
func needOf(lang string, t *Table) (int, string) {
	switch {
	case t.Waiting() > 0:
		return NeedCertify, T(lang, "need.certify")
	case len(t.Alerts) > 0:
		return NeedCheck, T(lang, "needs-check")
	case t.State != nil && len(t.State.Mismatch) > 0 && t.State.Seq >= t.PositionSeq:
		return NeedCheck, T(lang, "need.mismatch") + " " + strings.Join(t.State.Mismatch, " ")
	case recentInfractions(t) >= repeatCount:
		return NeedCheck, T(lang, "need.repeated")
	case t.Offline():
		return NeedOffline, T(lang, "offline")
	}
	// Finished: the game is over (a judged result of a game since replaced
	// by a new one is not).
	if p := t.Pos(); p != nil && p.Phase() == engine.PhaseEnd || p == nil && t.Result != nil {
		return NeedFinished, T(lang, "need.finished")
	}
	return NeedLive, ""
}

// recentInfractions counts the infractions among the table's last events.
func recentInfractions(t *Table) int {
	n := 0
	for i := len(t.Feed) - 1; i >= 0 && i >= len(t.Feed)-repeatWindow; i-- {
		if t.Feed[i].Type == referee.EventInfraction {
			n++
		}
	}
	return n
}

// viewTile builds a table's tile in lang.
func viewTile(lang string, t *Table, round, pairs string) Tile {
	v := Tile{ID: t.ID(), Event: t.Event, Table: t.Table, Seq: t.LastSeq, Pos: t.Position, Status: t.Status,
		Infractions: t.Infractions(), Waiting: t.Waiting(), Round: round, Pairs: pairs}
	if v.Status == "" {
		v.Status = "unknown"
	}
	v.Need, v.Why = needOf(lang, t)
	if p := t.Pos(); p != nil {
		v.Turn = p.Turn().String()
		if w, over := p.Winner(); over {
			v.Winner = T(lang, "pair."+w.String())
		}
	}
	v.Throw = throwText(lang, t.LastThrow)
	if w := viewWin(lang, t.Win, t.LastSeq); w != nil {
		v.Win, v.WinStale = &w.YR, w.Estimating
	}
	if t.State != nil && t.State.Seq >= t.PositionSeq {
		v.Mismatch = t.State.Mismatch
	}
	if n := len(t.Feed); n > 0 {
		e := viewEntry(lang, t.Feed[n-1])
		v.Last = e.Label
		if e.Text != "" {
			v.Last += " · " + e.Text
		}
		if m, err := engine.ParseMove(t.Feed[n-1].Move); err == nil && t.Feed[n-1].Type == referee.EventMove {
			v.LastSite = m.To.String()
		}
	}
	return v
}

// lessTile orders tiles as the multiboard shows them: by need, then by
// event and table.
func lessTile(a, b Tile) bool {
	if a.Need != b.Need {
		return a.Need < b.Need
	}
	if a.Event != b.Event {
		return a.Event < b.Event
	}
	return lessName(a.Table, b.Table)
}

// tileEvent is a tile as a server-sent event.
func tileEvent(v Tile) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	out := make([]byte, 0, len(data)+24)
	out = append(out, "event: tile\ndata: "...)
	out = append(out, data...)
	return append(out, "\n\n"...)
}

// boardLayout is where the page draws pieces on a tile's board, in the
// board's pixels: the centre of every site but the homes (with h set on
// the squares where two pieces stand side by side left and right), the
// four places in each home, the places in each goal for 1…4 pieces, and
// the pieces' radii.
type boardLayout struct {
	Sites map[string][3]float64                           `json:"sites"`
	Homes map[string][4][2]float64                        `json:"homes"`
	Goals map[string][4][][2]float64                      `json:"goals"`
	R     struct{ Piece, Home, Pair, Goal, Step float64 } `json:"r"`
	// Order is every site but the homes, in canonical order (PPN's).
	Order []string `json:"order"`
}

// layoutJSON is the board layout for the page's script.
var layoutJSON = func() template.JS {
	var l boardLayout
	l.Sites = map[string][3]float64{}
	l.Homes = map[string][4][2]float64{}
	l.Goals = map[string][4][][2]float64{}
	round := func(f float64) float64 { return math.Round(f*10) / 10 }
	for s := engine.Site(0); s < engine.NumSites; s++ {
		c := siteCentre(s)
		if s.Kind() != engine.Home {
			l.Order = append(l.Order, s.String())
		}
		switch s.Kind() {
		case engine.Track, engine.Column:
			h := 0.0
			if horizontalSquare(s) {
				h = 1
			}
			l.Sites[s.String()] = [3]float64{round(c.x * cell), round(c.y * cell), h}
		case engine.Goal:
			col := s.Owner().String()
			var g [4][][2]float64
			for n := 1; n <= 4; n++ {
				for i := 0; i < n; i++ {
					o := rot(pt{9.5 + 0.55*(float64(i)-float64(n-1)/2), 10.55}, int(s.Owner()))
					g[n-1] = append(g[n-1], [2]float64{round(o.x * cell), round(o.y * cell)})
				}
			}
			l.Goals[col] = g
			l.Sites[s.String()] = [3]float64{round(c.x * cell), round(c.y * cell), 0}
		case engine.Home:
			var h [4][2]float64
			for i := 0; i < 4; i++ {
				h[i] = [2]float64{round(c.x*cell + float64(i%2*2-1)*cell*0.8), round(c.y*cell + float64(i/2*2-1)*cell*0.8)}
			}
			l.Homes[s.Owner().String()] = h
		}
	}
	l.R.Piece, l.R.Home, l.R.Pair, l.R.Goal, l.R.Step = pieceR, homeR, round(pieceR*0.8), round(pieceR*0.75), cell*0.24
	b, err := json.Marshal(l)
	if err != nil {
		panic(err)
	}
	return template.JS(b)
}()

// tileCard is a tile as the index page first draws it.
type tileCard struct {
	Tile
	Lang  string
	Board template.HTML
}

// viewTileCard builds a tile with its board drawn.
func viewTileCard(lang string, t *Table, round, pairs string) tileCard {
	v := tileCard{Tile: viewTile(lang, t, round, pairs), Lang: lang}
	var o BoardOpts
	o.Shared, o.Title = true, T(lang, "table")+" "+t.Table
	o.Mismatch = v.Mismatch
	var b strings.Builder
	_ = WriteBoard(&b, t.Pos(), o)
	v.Board = template.HTML(b.String())
	return v
}
