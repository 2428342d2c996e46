package engine

import "strconv"

// Phase is what the side to move must do next.
type Phase uint8

// The phases. The die phases are the values 1…6 themselves.
const (
	PhaseThrow   Phase = 0   // waiting for a throw
	PhaseBonus10 Phase = 10  // a bonus of 10 is to be played
	PhaseBonus20 Phase = 20  // a bonus of 20 is to be played
	PhaseEnd     Phase = 255 // the game is over
)

// DiePhase returns the phase in which die value d (1…6) is to be played.
func DiePhase(d int) Phase { return Phase(d) }

// IsDie reports whether ph is a die value to be played.
func (ph Phase) IsDie() bool { return ph >= 1 && ph <= 6 }

// IsBonus reports whether ph is a bonus to be played.
func (ph Phase) IsBonus() bool { return ph == PhaseBonus10 || ph == PhaseBonus20 }

// String returns the phase as written in PPN: throw, 1…6, +20, +10, end.
func (ph Phase) String() string {
	switch {
	case ph == PhaseThrow:
		return "throw"
	case ph.IsDie():
		return strconv.Itoa(int(ph))
	case ph == PhaseBonus10:
		return "+10"
	case ph == PhaseBonus20:
		return "+20"
	case ph == PhaseEnd:
		return "end"
	}
	return "Phase(" + strconv.Itoa(int(ph)) + ")"
}

// cell is the content of one site. On a square, c lists the colours of its n
// pieces in the order they arrived; in a goal or home only n matters (the
// colour is the site's owner).
type cell struct {
	n uint8
	c [2]Colour
}

// Position is a complete game state (NOTATION.md, PPN). Its zero value is
// not a game; start from NewPosition, ParsePPN or a JSON form. Positions are
// plain values: copying one copies the game, and == compares two games.
type Position struct {
	cells [NumSites]cell
	// pieces[c] holds the sites of colour c's four pieces in ascending
	// order, so that equal games compare equal and move lists come out in
	// canonical order.
	pieces  [NumColours][4]Site
	turn    Colour
	phase   Phase
	sixes   uint8
	last    Site
	starter Colour
}

// NewPosition returns the initial position: every piece at home, starter to
// throw.
func NewPosition(starter Colour) Position {
	var p Position
	for c := Colour(0); c < NumColours; c++ {
		p.cells[HomeSite(c)].n = 4
		for i := range p.pieces[c] {
			p.pieces[c][i] = HomeSite(c)
		}
	}
	p.turn, p.starter, p.last = starter, starter, NoSite
	return p
}

// Turn returns the side to move (in phase end, the colour that played last).
func (p *Position) Turn() Colour { return p.turn }

// Phase returns what the side to move must do next.
func (p *Position) Phase() Phase { return p.phase }

// Sixes returns how many 6s in a row the side to move has just thrown.
func (p *Position) Sixes() int { return int(p.sixes) }

// Last returns the site of the piece the side to move last moved in this
// turn, or NoSite.
func (p *Position) Last() Site { return p.last }

// Starter returns the colour that started the game.
func (p *Position) Starter() Colour { return p.starter }

// Occupants returns how many pieces stand on s and, on a square, their
// colours in order of arrival.
func (p *Position) Occupants(s Site) (n int, first, second Colour) {
	cl := &p.cells[s]
	if !s.Holds2() {
		return int(cl.n), s.Owner(), s.Owner()
	}
	return int(cl.n), cl.c[0], cl.c[1]
}

// Pieces returns the sites of colour c's four pieces, in canonical order.
func (p *Position) Pieces(c Colour) [4]Site { return p.pieces[c] }

// AtHome returns how many of colour c's pieces are in its home.
func (p *Position) AtHome(c Colour) int { return int(p.cells[HomeSite(c)].n) }

// InGoal returns how many of colour c's pieces are in its goal.
func (p *Position) InGoal(c Colour) int { return int(p.cells[GoalSite(c)].n) }

// Finished reports whether colour c has all four pieces in its goal.
func (p *Position) Finished(c Colour) bool { return p.cells[GoalSite(c)].n == 4 }

// FinishedInPair returns how many players of pair pr have finished.
func (p *Position) FinishedInPair(pr Pair) int {
	a, b := pr.Colours()
	n := 0
	if p.Finished(a) {
		n++
	}
	if p.Finished(b) {
		n++
	}
	return n
}

// Winner returns the winning pair once the game is over: the pair with more
// finished players (RULES.md §9).
func (p *Position) Winner() (Pair, bool) {
	if p.phase != PhaseEnd {
		return 0, false
	}
	yr, bg := p.FinishedInPair(PairYR), p.FinishedInPair(PairBG)
	switch {
	case yr > bg:
		return PairYR, true
	case bg > yr:
		return PairBG, true
	}
	return 0, false
}

// Count returns the number of steps to play in the current phase: the die
// value (a 6 counting 7 when the side to move has no piece at home,
// RULES.md §3), or the bonus; 0 in phases throw and end.
func (p *Position) Count() int {
	switch {
	case p.phase == 6 && p.cells[HomeSite(p.turn)].n == 0:
		return 7
	case p.phase.IsDie(), p.phase.IsBonus():
		return int(p.phase)
	}
	return 0
}

// isBarrier reports whether a square's content is a barrier (RULES.md §6):
// two pieces of one colour or of partner colours.
func (cl *cell) isBarrier() bool {
	return cl.n == 2 && (cl.c[0] == cl.c[1] || cl.c[0] == cl.c[1].Partner())
}

// removeColour takes one piece of colour c off a square, keeping the
// others in order.
func (cl *cell) removeColour(c Colour) {
	if cl.n == 2 && cl.c[0] == c {
		cl.c[0] = cl.c[1]
	}
	cl.n--
	// Clear the freed slot so that equal games compare equal.
	cl.c[cl.n] = 0
}

// movePiece updates colour c's piece list for a piece going from one site
// to another, keeping the list sorted.
func (p *Position) movePiece(c Colour, from, to Site) {
	ps := &p.pieces[c]
	i := 0
	for ps[i] != from {
		i++
	}
	ps[i] = to
	for i > 0 && ps[i-1] > ps[i] {
		ps[i-1], ps[i] = ps[i], ps[i-1]
		i--
	}
	for i < 3 && ps[i+1] < ps[i] {
		ps[i+1], ps[i] = ps[i], ps[i+1]
		i++
	}
}

// sendHome puts the piece of colour c standing on square s back home.
func (p *Position) sendHome(c Colour, s Site) {
	p.cells[s].removeColour(c)
	h := HomeSite(c)
	p.cells[h].n++
	p.movePiece(c, s, h)
}
