package engine

import (
	"fmt"
	"strings"
)

// Move is a move of the side to move: one of its pieces from From to To,
// killing the piece on To when Kill is set (NOTATION.md).
type Move struct {
	From, To Site
	Kill     bool
}

// String returns the move as FROM-TO or FROMxTO.
func (m Move) String() string {
	return string(m.AppendText(nil))
}

// AppendText appends the move's notation to b.
func (m Move) AppendText(b []byte) []byte {
	b = append(b, m.From.String()...)
	if m.Kill {
		b = append(b, 'x')
	} else {
		b = append(b, '-')
	}
	return append(b, m.To.String()...)
}

// ParseMove parses a move written FROM-TO or FROMxTO.
func ParseMove(s string) (Move, error) {
	i := strings.IndexAny(s, "-x")
	if i <= 0 {
		return Move{}, fmt.Errorf("bad move %q: want FROM-TO or FROMxTO, e.g. 12-17 or YHx5", s)
	}
	from, okf := parseSite(s[:i])
	to, okt := parseSite(s[i+1:])
	if !okf {
		return Move{}, fmt.Errorf("bad move %q: bad site %q before %q", s, s[:i], s[i])
	}
	if !okt {
		return Move{}, fmt.Errorf("bad move %q: bad site %q after %q", s, s[i+1:], s[i])
	}
	return Move{From: from, To: to, Kill: s[i] == 'x'}, nil
}

// MaxMoves bounds the number of legal moves in any position: four pieces,
// each with at most a kill and a barrier landing.
const MaxMoves = 8

// MoveList holds legal moves without allocating.
type MoveList struct {
	n     int
	moves [MaxMoves]Move
}

// Len returns the number of moves in the list.
func (ml *MoveList) Len() int { return ml.n }

// At returns the i-th move.
func (ml *MoveList) At(i int) Move { return ml.moves[i] }

// Moves returns the moves as a slice aliasing the list.
func (ml *MoveList) Moves() []Move { return ml.moves[:ml.n] }

// Contains reports whether m is in the list.
func (ml *MoveList) Contains(m Move) bool {
	for _, x := range ml.moves[:ml.n] {
		if x == m {
			return true
		}
	}
	return false
}

func (ml *MoveList) add(m Move) { ml.moves[ml.n] = m; ml.n++ }

// String lists the moves in canonical order separated by single spaces.
func (ml *MoveList) String() string {
	var b []byte
	for i, m := range ml.moves[:ml.n] {
		if i > 0 {
			b = append(b, ' ')
		}
		b = m.AppendText(b)
	}
	return string(b)
}

// exitMove returns the move that brings a piece of colour c out of its
// home onto its exit square, with the kill RULES.md §4 prescribes, and
// false when the exit is held by two of c's own pieces.
func (p *Position) exitMove(c Colour) (Move, bool) {
	ex := ExitSquare(c)
	cl := &p.cells[ex]
	m := Move{From: HomeSite(c), To: ex}
	if cl.n < 2 {
		return m, true
	}
	if cl.c[0] == c && cl.c[1] == c {
		return m, false
	}
	m.Kill = true
	return m, true
}

// exitVictim returns which of the two pieces on colour c's exit square a
// piece coming out kills (RULES.md §4's table): an opponent's if exactly
// one is an opponent's; else the one that is not c's own if one is c's own;
// else the one that arrived last.
func exitVictim(c Colour, cl *cell) Colour {
	a, b := cl.c[0], cl.c[1]
	oa, ob := a.Pair() != c.Pair(), b.Pair() != c.Pair()
	switch {
	case oa && !ob:
		return a
	case ob && !oa:
		return b
	case a == c:
		return b
	case b == c:
		return a
	}
	return b
}

// Victim returns the colour of the piece that the side to move's move m
// kills, and false when m kills nothing.
func (p *Position) Victim(m Move) (Colour, bool) {
	if !m.Kill || !m.To.Valid() {
		return 0, false
	}
	switch cl := &p.cells[m.To]; cl.n {
	case 1:
		return cl.c[0], true
	case 2:
		return exitVictim(p.turn, cl), true
	}
	return 0, false
}

// pieceMoves adds to ml the moves of colour c's piece on from with count n,
// following RULES.md §5.
func (p *Position) pieceMoves(c Colour, from Site, n int, ml *MoveList) {
	pos := int(routePos[c][from])
	if pos == routeHome || pos == routeGoal {
		return
	}
	dest := pos + n
	if dest > routeGoal {
		return
	}
	route := &routeSite[c]
	for k := pos + 1; k < dest; k++ {
		if p.cells[route[k]].isBarrier() {
			return
		}
	}
	to := route[dest]
	m := Move{From: from, To: to}
	if dest == routeGoal {
		ml.add(m)
		return
	}
	cl := &p.cells[to]
	switch {
	case cl.n == 0:
		ml.add(m)
	case cl.n == 2:
	case cl.c[0] == c, to.Safe():
		ml.add(m)
	case cl.c[0] == c.Partner():
		ml.add(m)
		m.Kill = true
		ml.add(m)
	default:
		m.Kill = true
		ml.add(m)
	}
}

// LegalMoves fills ml with the legal moves of the side to move, in
// canonical order, applying the obligations of RULES.md §8. It leaves ml
// empty outside die and bonus phases.
func (p *Position) LegalMoves(ml *MoveList) {
	ml.n = 0
	c := p.turn
	n := p.Count()
	if n == 0 {
		return
	}
	if p.phase == 5 && p.cells[HomeSite(c)].n > 0 {
		if m, ok := p.exitMove(c); ok {
			ml.add(m)
			return
		}
	}
	ps := &p.pieces[c]
	if p.phase == 6 {
		for i, s := range ps {
			if (i == 0 || ps[i-1] != s) && s.Holds2() && p.cells[s].isBarrier() {
				p.pieceMoves(c, s, n, ml)
			}
		}
		if ml.n > 0 {
			return
		}
	}
	for i, s := range ps {
		if i == 0 || ps[i-1] != s {
			p.pieceMoves(c, s, n, ml)
		}
	}
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	var ml MoveList
	p.LegalMoves(&ml)
	return ml.n > 0
}

// Rule codes name the rule a move or action breaks. They are shared with
// the referee's infraction events (DESIGN.md).
const (
	RuleIllegalMove     = "illegal-move"
	RuleWrongColour     = "wrong-colour"
	RuleBackwards       = "backwards"
	RuleWrongCount      = "wrong-count"
	RuleBarrier         = "barrier"
	RuleKillNotDone     = "kill-not-done"
	RuleMustExit        = "must-exit"
	RuleMustOpenBarrier = "must-open-barrier"
	RuleOutOfTurn       = "out-of-turn"
)

// RuleError explains why a move or action is illegal.
type RuleError struct {
	Move   Move   // the move refused; zero for a refused throw
	Rule   string // a rule code such as RuleBarrier
	Ref    string // the section of RULES.md, e.g. "§6"
	Reason string // a sentence for people
}

func (e *RuleError) Error() string {
	if e.Move == (Move{}) {
		return fmt.Sprintf("%s (%s, RULES.md %s)", e.Reason, e.Rule, e.Ref)
	}
	return fmt.Sprintf("illegal move %s: %s (%s, RULES.md %s)", e.Move, e.Reason, e.Rule, e.Ref)
}

// Check returns nil when m is legal for the side to move, and otherwise a
// *RuleError saying which rule it breaks.
func (p *Position) Check(m Move) error {
	var ml MoveList
	p.LegalMoves(&ml)
	if ml.Contains(m) {
		return nil
	}
	return p.explain(m, &ml)
}

// explain finds the reason why m is not among the legal moves ml.
func (p *Position) explain(m Move, ml *MoveList) *RuleError {
	c := p.turn
	bad := func(rule, ref, format string, args ...any) *RuleError {
		return &RuleError{Move: m, Rule: rule, Ref: ref, Reason: fmt.Sprintf(format, args...)}
	}
	if !p.phase.IsDie() && !p.phase.IsBonus() {
		return bad(RuleIllegalMove, "§3", "no move is due: the phase is %s", p.phase)
	}
	if !m.From.Valid() || !m.To.Valid() {
		return bad(RuleIllegalMove, "§1", "no such site")
	}
	// Whose piece is it?
	own := false
	for _, s := range p.pieces[c] {
		own = own || s == m.From
	}
	if !own {
		if n, a, b := p.Occupants(m.From); n > 0 {
			other := a
			if n == 2 && a == c {
				other = b
			}
			return bad(RuleWrongColour, "§1", "the piece on %s is %s's, and %s is to move", m.From, other.Name(), c.Name())
		}
		return bad(RuleIllegalMove, "§5", "there is no piece on %s", m.From)
	}
	n := p.Count()
	switch m.From.Kind() {
	case Goal:
		return bad(RuleIllegalMove, "§5", "a piece in the goal never moves")
	case Home:
		if !p.phase.IsDie() {
			return bad(RuleWrongCount, "§7", "a bonus never brings a piece out of home")
		}
		if p.phase != 5 {
			return bad(RuleWrongCount, "§4", "a piece leaves home only with a 5, and the throw is %d", p.phase)
		}
		if m.To != ExitSquare(c) {
			return bad(RuleWrongCount, "§4", "a piece comes out onto its exit square %s", ExitSquare(c))
		}
		if em, ok := p.exitMove(c); !ok {
			return bad(RuleBarrier, "§4", "the exit square %s holds two of %s's own pieces", m.To, c.Name())
		} else if em.Kill != m.Kill {
			return p.killMismatch(m)
		}
		return bad(RuleIllegalMove, "§4", "no legal exit")
	}
	if !OnRoute(c, m.To) {
		return bad(RuleIllegalMove, "§1", "%s is not on %s's route", m.To, c.Name())
	}
	steps := Steps(c, m.From, m.To)
	if steps < 0 {
		return bad(RuleBackwards, "§5", "pieces never move backwards")
	}
	if steps != n {
		return bad(RuleWrongCount, "§5", "%s to %s is %d steps and the count is %d", m.From, m.To, steps, n)
	}
	route := &routeSite[c]
	from := int(routePos[c][m.From])
	for k := from + 1; k < from+n; k++ {
		if p.cells[route[k]].isBarrier() {
			return bad(RuleBarrier, "§6", "it passes the barrier on %s", route[k])
		}
	}
	if m.To.Holds2() {
		if cl := &p.cells[m.To]; cl.n == 2 {
			if cl.isBarrier() {
				return bad(RuleBarrier, "§6", "it lands on the barrier on %s", m.To)
			}
			return bad(RuleIllegalMove, "§5", "%s already holds two pieces", m.To)
		}
	}
	// The move itself is possible; either an obligation forbids it or the
	// kill is written wrong.
	var alt MoveList
	p.pieceMoves(c, m.From, n, &alt)
	if alt.n > 0 && !alt.Contains(m) {
		return p.killMismatch(m)
	}
	if p.phase == 5 && p.cells[HomeSite(c)].n > 0 {
		return bad(RuleMustExit, "§4", "with a 5 and a piece at home, a piece must come out")
	}
	if p.phase == 6 {
		return bad(RuleMustOpenBarrier, "§6", "with a 6, a piece must leave a barrier (%s)", ml.String())
	}
	return bad(RuleIllegalMove, "§5", "not a legal move (legal: %s)", ml.String())
}

// killMismatch explains a move written with - where it kills or with x
// where it does not.
func (p *Position) killMismatch(m Move) *RuleError {
	if m.Kill {
		return &RuleError{Move: m, Rule: RuleIllegalMove, Ref: "§5", Reason: fmt.Sprintf("it kills nothing on %s: write %s", m.To, Move{m.From, m.To, false})}
	}
	return &RuleError{Move: m, Rule: RuleKillNotDone, Ref: "§5", Reason: fmt.Sprintf("landing there kills: write %s", Move{m.From, m.To, true})}
}
