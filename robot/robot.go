// Package robot seats bots at a real table as robot partners, so that a
// club with three players can play a game of four. When a robot's turn
// comes a player throws for it and the table reads the die as usual; the
// robot chooses its move, and the lights show it: only the piece to lift
// glows steady white, and the square to put it on pulses in the robot's
// colour. A player makes the move, and the referee checks it like any
// other: the robot only changes what the lights advise, never the rules.
package robot

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// Seats are the colours robots play, with their bots.
//
// A random or greedy robot chooses at once. An mc robot thinks for a
// while (its playouts: up to a second or two on a Pi), so when Run is
// going it thinks on Run's goroutine and never on the caller's (the
// table's): until it has chosen, the lights show what the referee shows
// anyone, and Ready tells when to draw them again.
type Seats struct {
	levels map[string]string
	bots   [engine.NumColours]bots.Bot

	mu sync.Mutex
	// The last choice, kept for its position: the lights are drawn many
	// times for one position, and a robot thinks once.
	lastPos  engine.Position
	lastMove engine.Move
	lastOK   bool
	// async is set while Run thinks for the slow robots; want is the
	// position it is to think about next.
	async bool
	want  chan engine.Position
	ready chan struct{}
	// asked is the position last handed to Run.
	asked   engine.Position
	askedOK bool
}

// New seats a robot at each colour that levels names (colour letter to
// bot level, as bots.New reads it, or bots.Person), seeded for repeatable
// choices. Nil or empty levels seat none. At least one colour must stay a
// person's.
func New(levels map[string]string, seed uint64) (*Seats, error) {
	s := &Seats{levels: map[string]string{}, want: make(chan engine.Position, 1), ready: make(chan struct{}, 1)}
	for k, level := range levels {
		c, err := engine.ParseColour(k)
		if err != nil {
			return nil, fmt.Errorf("robot seat: %w", err)
		}
		if level == bots.Person {
			continue
		}
		b, err := bots.New(level, seed+uint64(c))
		if err != nil {
			return nil, fmt.Errorf("robot seat %s: %w", k, err)
		}
		s.bots[c], s.levels[k] = b, level
	}
	if len(s.levels) == engine.NumColours {
		return nil, fmt.Errorf("robot seats: every colour is a robot; a player must make the robots' moves")
	}
	return s, nil
}

// Levels returns the seats as New reads them: colour letter to level.
func (s *Seats) Levels() map[string]string { return maps.Clone(s.levels) }

// ByColour returns each colour's level, "" for a person's: the seats as a
// journal's robots line writes them.
func (s *Seats) ByColour() (levels [engine.NumColours]string) {
	for k, level := range s.levels {
		if c, err := engine.ParseColour(k); err == nil {
			levels[c] = level
		}
	}
	return levels
}

// NewByColour seats a robot at each colour that levels names by colour
// ("" for a person), as New does.
func NewByColour(levels [engine.NumColours]string, seed uint64) (*Seats, error) {
	m := map[string]string{}
	for c, level := range levels {
		if level != "" {
			m[engine.Colour(c).String()] = level
		}
	}
	return New(m, seed)
}

// Colours returns the robots' colours, in turn order.
func (s *Seats) Colours() []engine.Colour {
	var cs []engine.Colour
	for c, b := range s.bots {
		if b != nil {
			cs = append(cs, engine.Colour(c))
		}
	}
	return cs
}

// Plays reports whether a robot plays colour c.
func (s *Seats) Plays(c engine.Colour) bool { return s != nil && s.bots[c] != nil }

// Move returns the move the robot to move chooses in pos, and false when
// no robot's move is due. Where the robot would kill its partner's piece
// rather than join it (a choice the lights cannot show, since both moves
// end on the same square), it joins it: the robot never asks its partner
// to send their own piece home.
//
// A slow robot's move, while Run is going, is chosen on Run's goroutine:
// Move returns false until it is ready (Ready).
func (s *Seats) Move(pos *engine.Position) (engine.Move, bool) {
	if !s.Plays(pos.Turn()) || !(pos.Phase().IsDie() || pos.Phase().IsBonus()) || !pos.HasLegalMove() {
		return engine.Move{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastOK && s.lastPos == *pos {
		return s.lastMove, true
	}
	if _, slow := s.bots[pos.Turn()].(*bots.MC); slow && s.async {
		if s.askedOK && s.asked == *pos {
			return engine.Move{}, false
		}
		s.asked, s.askedOK = *pos, true
		// The newest position replaces one not yet taken.
		select {
		case <-s.want:
		default:
		}
		s.want <- *pos
		return engine.Move{}, false
	}
	s.lastPos, s.lastMove, s.lastOK = *pos, s.choose(pos), true
	return s.lastMove, true
}

// choose asks the robot to move in pos for its move.
func (s *Seats) choose(pos *engine.Position) engine.Move {
	m := s.bots[pos.Turn()].Choose(pos)
	if v, ok := pos.Victim(m); ok && v == pos.Turn().Partner() {
		if join := (engine.Move{From: m.From, To: m.To}); pos.Check(join) == nil {
			m = join
		}
	}
	return m
}

// Run thinks for the slow (mc) robots until ctx ends.
func (s *Seats) Run(ctx context.Context) {
	s.mu.Lock()
	s.async = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.async = false
		s.mu.Unlock()
	}()
	for {
		var pos engine.Position
		select {
		case <-ctx.Done():
			return
		case pos = <-s.want:
		}
		m := s.choose(&pos)
		s.mu.Lock()
		s.lastPos, s.lastMove, s.lastOK = pos, m, true
		s.mu.Unlock()
		select {
		case s.ready <- struct{}{}:
		default:
		}
	}
}

// Thinking reports whether Run is going: slow robots think there.
func (s *Seats) Thinking() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.async
}

// Ready tells, while Run is going, that a slow robot has chosen: the
// lights are to be drawn again. Nil Seats never tell.
func (s *Seats) Ready() <-chan struct{} {
	if s == nil {
		return nil
	}
	return s.ready
}

// Lights returns the frame f with the robot's move shown, when one is due
// and the referee's frame offers it: with no piece in hand (the movable
// pieces glow steady white), only the piece to lift stays white and the
// square to put it on pulses in the robot's colour; with the robot's
// piece lifted, its square pulses in the robot's colour. Anything else
// the referee shows (a mismatch, a piece owed home, another piece
// lifted) is left as it is.
func (s *Seats) Lights(f *board.Frame, pos *engine.Position) *board.Frame {
	m, ok := s.Move(pos)
	if !ok {
		return f
	}
	white := board.Light{Colour: referee.ColourWhite, Pattern: board.Steady}
	here := board.Light{Colour: referee.PlayerColours[pos.Turn()], Pattern: board.Pulse}
	out := *f
	switch {
	case f.Sites[m.From] == white:
		for i, l := range out.Sites {
			if l == white && engine.Site(i) != m.From {
				out.Sites[i] = board.Light{}
			}
		}
		out.Sites[m.To] = here
	case f.Sites[m.To] == (board.Light{Colour: referee.ColourWhite, Pattern: board.Pulse}):
		out.Sites[m.To] = here
	default:
		return f
	}
	return &out
}

// ReadMove returns the move a frame drawn by Lights shows for the robot
// to move in pos: what a player at the table reads. False when the lights
// show none.
func ReadMove(f *board.Frame, pos *engine.Position) (engine.Move, bool) {
	here := board.Light{Colour: referee.PlayerColours[pos.Turn()], Pattern: board.Pulse}
	white := board.Light{Colour: referee.ColourWhite, Pattern: board.Steady}
	var from, to []engine.Site
	for i, l := range f.Sites {
		switch l {
		case white:
			from = append(from, engine.Site(i))
		case here:
			to = append(to, engine.Site(i))
		}
	}
	if len(from) != 1 || len(to) != 1 {
		return engine.Move{}, false
	}
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	moves := slices.DeleteFunc(slices.Clone(ml.Moves()), func(m engine.Move) bool { return m.From != from[0] || m.To != to[0] })
	if len(moves) == 0 {
		return engine.Move{}, false
	}
	// A partner's piece on the square is joined, never killed (Move).
	return moves[0], true
}
