// Package simtable is the simulated table: four simulated players who throw
// a die under a synthetic camera and move pieces on the in-memory board
// (hw/sim), mostly legally and with mistakes at configured rates, and a
// driver that runs them through the same sensor debouncing, die
// recogniser, journal and referee as a real table. It lets the whole
// daemon run on any machine, and tests run whole games through the real
// pipeline.
package simtable

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/robot"
)

// Mistakes a simulated player makes, with their rates per action.
const (
	MistakeTouched    = "touched-piece" // lifts one movable piece, then plays another
	MistakeWrongCount = "wrong-count"   // moves a piece one square too far
	MistakeKillLeft   = "kill-not-done" // throws before taking the killed piece home
	MistakeEarlyThrow = "early-throw"   // throws before playing the last throw
	MistakeEdge       = "edge"          // the die lands on its edge
)

// How simulated players handle pieces, as people do, with their rates per
// action (Opts.Handling). None is a mistake: the referee must stay quiet.
const (
	HandlingCountOut    = "count-out"    // counts a piece out square by square
	HandlingVictimFirst = "victim-first" // takes a killed piece home before putting the killing piece down (else after)
	HandlingLiftIdle    = "lift-idle"    // lifts a piece that cannot move and puts it back
	HandlingPause       = "pause"        // stops a moment, longer than the grace time, with the board at rest
)

// DefaultHandling are the rates players handle pieces at by default.
var DefaultHandling = map[string]float64{
	HandlingCountOut: 0.5, HandlingVictimFirst: 0.5, HandlingLiftIdle: 0.1, HandlingPause: 0.1,
}

// pauseFor is how long a pause lasts: longer than the referee's grace time
// (referee.DefaultGrace), so that a board at rest is seen to stay quiet.
const pauseFor = 2 * time.Second

// Patience is how long a player waits, after moving pieces, for the table
// to take the move in before looking at the board again. It is longer than
// the referee's grace time (referee.DefaultGrace): a player who put a piece
// down wrong leaves it until the table says so.
const Patience = 2500 * time.Millisecond

// View is what the players see of the table: the game as the referee has
// it and what the lights tell.
type View struct {
	Pos engine.Position
	// Mismatch is set while the board disagrees with the game.
	Mismatch bool
	// Touched is the piece that must be played, or engine.NoSite.
	Touched engine.Site
	// Lights is what the lights show; Robot is set when a robot partner
	// is to move, whose move a player reads from the lights and makes.
	Lights *board.Frame
	Robot  bool
}

// step is one physical action: a piece lifted from or put on a site, or a
// pause.
type step struct {
	lift   bool
	site   engine.Site
	colour engine.Colour
	pause  time.Duration
}

// Players plays all four seats.
type Players struct {
	// Chooser chooses the players' moves; nil chooses uniformly at
	// random.
	Chooser bots.Bot

	board    *sim.Board
	cam      *Camera
	rng      *rand.Rand
	mistakes map[string]float64
	handling map[string]float64
	// pauseUntil is when a pausing player acts again.
	pauseUntil time.Duration

	steps []step
	// After its last step, a player waits for the table to take the
	// action in: until the position changes, or until waitUntil.
	waiting   bool
	planned   engine.Position
	waitUntil time.Duration
	// lastThrown is when the die was last thrown, so no one throws while it
	// still tumbles.
	lastThrown time.Duration
	thrown     bool
	// Record of what the players chose, for tests: the values thrown and
	// the moves played, in order.
	Throws []int
	Moves  []engine.Move
	// Made counts the mistakes made, by kind; Handled, the ways of
	// handling pieces used.
	Made    map[string]int
	Handled map[string]int
}

// NewPlayers returns players acting on b and throwing under cam, seeded
// for repeatable games, who make mistakes and handle pieces at the given
// rates per action.
func NewPlayers(b *sim.Board, cam *Camera, seed uint64, mistakes, handling map[string]float64) *Players {
	return &Players{board: b, cam: cam, rng: rand.New(rand.NewPCG(seed, seed+1)), mistakes: mistakes, handling: handling,
		Made: map[string]int{}, Handled: map[string]int{}}
}

func (p *Players) chance(kind string) bool {
	r := p.mistakes[kind]
	if r > 0 && p.rng.Float64() < r {
		p.Made[kind]++
		return true
	}
	return false
}

// handles tells whether a player handles pieces in the given way now.
func (p *Players) handles(kind string) bool {
	r := p.handling[kind]
	if r > 0 && p.rng.Float64() < r {
		p.Handled[kind]++
		return true
	}
	return false
}

// Act makes one physical action at time now, given what the table shows,
// and says what it was ("" for waiting).
func (p *Players) Act(now time.Duration, v View) (string, error) {
	if now < p.pauseUntil {
		return "", nil
	}
	if len(p.steps) > 0 {
		s := p.steps[0]
		p.steps = p.steps[1:]
		if len(p.steps) == 0 {
			p.waiting, p.planned, p.waitUntil = true, v.Pos, now+Patience
		}
		if s.pause > 0 {
			p.pauseUntil = now + s.pause
			return "pause", nil
		}
		if s.lift {
			return "lift " + s.site.String(), p.board.Lift(s.site, s.colour)
		}
		return "place " + s.site.String() + " " + s.colour.String(), p.board.Place(s.site, s.colour)
	}
	if p.waiting && v.Pos == p.planned && now < p.waitUntil {
		return "", nil
	}
	p.waiting = false
	if !p.cam.Resting(now) {
		return "", nil
	}
	pos := &v.Pos
	want := board.Expected(pos)
	have := p.board.Pieces()
	if have != want {
		if pos.Phase() == engine.PhaseThrow && !v.Mismatch && p.chance(MistakeKillLeft) {
			return p.throw(now, "throw before the board is right")
		}
		p.fix(&have, &want)
		return p.Act(now, v)
	}
	switch ph := pos.Phase(); {
	case ph == engine.PhaseEnd:
		return "", nil
	case ph == engine.PhaseThrow:
		return p.throw(now, "throw")
	case ph.IsDie() && p.chance(MistakeEarlyThrow):
		return p.throw(now, "throw before playing")
	case v.Robot:
		// The robot's move, as the lights show it, made by a player.
		m, ok := robot.ReadMove(v.Lights, pos)
		if !ok {
			return "", nil
		}
		return p.play(pos, m, v.Touched, nil)
	default:
		return p.move(pos, v.Touched)
	}
}

func (p *Players) throw(now time.Duration, what string) (string, error) {
	face := 1 + p.rng.IntN(6)
	edge := p.chance(MistakeEdge)
	p.cam.Throw(now, face, edge)
	if edge {
		return what + ": lands on its edge", nil
	}
	return fmt.Sprintf("%s: %d", what, face), nil
}

// Thrown records that the table accepted a throw of value d: tests compare
// the values with the game record.
func (p *Players) Thrown(d int) { p.Throws = append(p.Throws, d) }

// fix plans the steps that make the board agree with the game: pieces
// taken off where there are too many, then put where they are missing.
func (p *Players) fix(have, want *board.Snapshot) {
	var places []step
	for s := range have.Sites {
		for c := engine.Colour(0); c < engine.NumColours; c++ {
			h, w := int(have.Sites[s].ByColour[c]), int(want.Sites[s].ByColour[c])
			for ; h > w; h-- {
				p.steps = append(p.steps, step{lift: true, site: engine.Site(s), colour: c})
			}
			for ; h < w; h++ {
				places = append(places, step{site: engine.Site(s), colour: c})
			}
		}
	}
	p.steps = append(p.steps, places...)
}

// move chooses a legal move as the Chooser does (at random among the
// touched piece's moves when there is one: the rules leave no other
// choice) and plans its steps, with the configured mistakes.
func (p *Players) move(pos *engine.Position, touched engine.Site) (string, error) {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	if ml.Len() == 0 {
		return "", nil
	}
	moves := ml.Moves()
	if touched != engine.NoSite {
		var own []engine.Move
		for _, m := range moves {
			if m.From == touched {
				own = append(own, m)
			}
		}
		if len(own) > 0 {
			moves = own
		}
	}
	var m engine.Move
	switch {
	case len(moves) < ml.Len() || p.Chooser == nil:
		// A touched piece leaves only its own moves to choose from.
		m = moves[p.rng.IntN(len(moves))]
	default:
		m = p.Chooser.Choose(pos)
	}
	return p.play(pos, m, touched, &ml)
}

// play plans the steps of move m, with the configured mistakes; ml, when
// given, are the legal moves a player chose m from (a robot's move is
// made as the lights show it, without touching others first).
func (p *Players) play(pos *engine.Position, m engine.Move, touched engine.Site, ml *engine.MoveList) (string, error) {
	c := pos.Turn()
	var moves []engine.Move
	if ml != nil {
		moves = ml.Moves()
	}
	if touched == engine.NoSite && ml != nil && p.handles(HandlingLiftIdle) {
		// A piece that cannot move is lifted and put back: no fault.
		if s, ok := idlePiece(pos, ml); ok {
			p.steps = append(p.steps, step{lift: true, site: s, colour: c}, step{site: s, colour: c})
		}
	}
	if touched == engine.NoSite && p.chance(MistakeTouched) {
		for _, o := range moves {
			if o.From != m.From {
				// Touch another movable piece first, put it back, then
				// play m: the referee must insist on the touched one.
				p.steps = append(p.steps, step{lift: true, site: o.From, colour: c}, step{site: o.From, colour: c})
				break
			}
		}
	}
	if p.handles(HandlingPause) {
		p.steps = append(p.steps, step{pause: pauseFor})
	}
	to := m.To
	if p.chance(MistakeWrongCount) {
		if t, ok := engine.Advance(c, m.To, 1); ok && t.Kind() != engine.Goal && !full(pos, t) {
			to = t
		}
	}
	victim, kill := pos.Victim(m)
	home := engine.HomeSite(victim)
	if kill && to == m.To {
		if n, _, _ := pos.Occupants(m.To); n == 2 || p.handles(HandlingVictimFirst) {
			// The victim goes home first (always when there is no room
			// for a third piece).
			p.steps = append(p.steps, step{lift: true, site: m.To, colour: victim}, step{site: home, colour: victim})
			kill = false
		}
	}
	p.steps = append(p.steps, step{lift: true, site: m.From, colour: c})
	if m.From.Kind() != engine.Home && p.handles(HandlingCountOut) {
		// "One, two, three…": the piece rests a moment on each square on
		// its way that has room, and is lifted again.
		for k := 1; k < engine.Steps(c, m.From, to); k++ {
			if s, _ := engine.Advance(c, m.From, k); !full(pos, s) {
				p.steps = append(p.steps, step{site: s, colour: c}, step{lift: true, site: s, colour: c})
			}
		}
	}
	p.steps = append(p.steps, step{site: to, colour: c})
	if to == m.To {
		p.Moves = append(p.Moves, m)
		if kill && !p.chance(MistakeKillLeft) {
			p.steps = append(p.steps, step{lift: true, site: m.To, colour: victim}, step{site: home, colour: victim})
		}
	}
	return "play " + engine.Move{From: m.From, To: to, Kill: m.Kill}.String(), nil
}

// idlePiece returns the site of a piece of the side to move that has no
// legal move, if there is one.
func idlePiece(pos *engine.Position, ml *engine.MoveList) (engine.Site, bool) {
	for _, s := range pos.Pieces(pos.Turn()) {
		movable := false
		for _, m := range ml.Moves() {
			movable = movable || m.From == s
		}
		if !movable {
			return s, true
		}
	}
	return 0, false
}

// full reports whether s holds as many pieces as it can.
func full(pos *engine.Position, s engine.Site) bool {
	n, _, _ := pos.Occupants(s)
	return s.Holds2() && n >= 2
}
