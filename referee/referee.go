package referee

import (
	"fmt"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// Infraction codes beyond the engine's rule codes (DESIGN.md).
const (
	RuleTouchedPiece    = "touched-piece"
	RuleThirdSixHome    = "third-six-home"
	RuleBonusNotPlayed  = "bonus-not-played"
	RuleEarlyThrow      = "early-throw"
	RuleOutOfTurn       = engine.RuleOutOfTurn
	RuleWrongColour     = engine.RuleWrongColour
	RuleBackwards       = engine.RuleBackwards
	RuleWrongCount      = engine.RuleWrongCount
	RuleBarrier         = engine.RuleBarrier
	RuleKillNotDone     = engine.RuleKillNotDone
	RuleMustExit        = engine.RuleMustExit
	RuleMustOpenBarrier = engine.RuleMustOpenBarrier
	RuleIllegalMove     = engine.RuleIllegalMove
)

// Opts configures a referee.
type Opts struct {
	// Caps tells what the site sensors can know: presence, counts,
	// colours. Recognition compares only what they can tell.
	Caps board.Caps
}

// owedPiece is a piece the rules sent home that still stands on the
// board: the victim of a kill, the piece of a third 6.
type owedPiece struct {
	colour engine.Colour
	site   engine.Site
	rule   string // the infraction if the next throw comes first
}

// amendable remembers a landing on the partner's piece that formed a
// barrier, which becomes the kill when the partner's piece is sent home
// before the next throw (RULES.md §5: the action on the board says which).
type amendable struct {
	before *engine.Game
	kill   engine.Move
}

// Referee watches one table. Its zero value is not usable; call New.
type Referee struct {
	opts    Opts
	game    *engine.Game
	players [engine.NumColours]string
	seq     uint64

	obs     board.Snapshot // the last stable snapshot
	haveObs bool           // a snapshot has come; until then the board is taken as right
	exp     board.Snapshot // what the position says the board holds
	scratch board.Snapshot
	// owedScratch is scratch with owed pieces added (withOwed).
	owedScratch board.Snapshot
	dl          []delta

	touched     engine.Site // the first own piece lifted with a legal move
	inHand      engine.Site // the site a piece was just lifted from
	owed        []owedPiece
	amend       *amendable
	mismatch    []engine.Site  // open mismatch: the sites reported
	mdl         []delta        // the open mismatch's differences, for the lights
	reported    string         // the infraction last reported (rule and move)
	reportedObs board.Snapshot // and the board it was reported on
	rethrow     bool           // the last throw is to be repeated
	lastThrow   string

	events []Event
	frame  board.Frame
	now    time.Time
}

// New returns a referee with no game yet: it waits for a start, an
// opening or a setup.
func New(opts Opts) *Referee {
	r := &Referee{opts: opts, touched: engine.NoSite, inHand: engine.NoSite}
	r.updateLights()
	return r
}

// Game returns the game being refereed (nil before the first start). It
// must not be changed.
func (r *Referee) Game() *engine.Game { return r.game }

// Position returns the current position (the initial one before a game).
func (r *Referee) Position() engine.Position {
	if r.game == nil {
		return engine.NewPosition(engine.Yellow)
	}
	return r.game.Pos
}

// Players returns the players' names by colour.
func (r *Referee) Players() [engine.NumColours]string { return r.players }

// Seq returns the number of the last event.
func (r *Referee) Seq() uint64 { return r.seq }

// SetSeq makes the next event number n+1, to go on from an earlier
// referee's events.
func (r *Referee) SetSeq(n uint64) { r.seq = n }

// Lights returns the frame the board's lights should show now.
func (r *Referee) Lights() *board.Frame { return &r.frame }

// Mismatch returns the sites where the board disagrees with the game, while
// a mismatch is open.
func (r *Referee) Mismatch() []engine.Site { return r.mismatch }

// Touched returns the site of the touched piece that must be the one
// played, or engine.NoSite.
func (r *Referee) Touched() engine.Site { return r.touched }

// Owed returns how many pieces the rules sent home still stand on the
// board.
func (r *Referee) Owed() int { return len(r.owed) }

// LastThrow returns the last accepted throw ("1"…"6"), or "".
func (r *Referee) LastThrow() string { return r.lastThrow }

// Handle takes one input and returns the events it caused, in order. The
// returned slice is reused by the next call.
func (r *Referee) Handle(in Input) []Event {
	r.events = r.events[:0]
	r.now = in.At
	switch in.Kind {
	case InputBoard:
		r.obs, r.haveObs = in.Board, true
		r.onBoard()
	case InputThrow:
		r.onThrow(in.Throw, in.Value)
	case InputStart:
		r.start(engine.NewPosition(in.Starter), in.Players, in.Judge, "")
	case InputOpening:
		starter, err := engine.Starter(in.Opening)
		if err != nil {
			r.emit(Event{Type: EventInfraction, Rule: RuleIllegalMove, Detail: "opening: " + err.Error()})
			break
		}
		var b strings.Builder
		for i, t := range in.Opening {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s%d", t.Colour, t.Value)
		}
		r.start(engine.NewPosition(starter), in.Players, in.Judge, "opening "+b.String())
	case InputSetup:
		r.start(in.Position, in.Players, in.Judge, "setup")
	case InputJudgeSet:
		r.judgeSet(in.Position, in.Judge)
	}
	r.updateLights()
	return r.events
}

func (r *Referee) emit(e Event) {
	r.seq++
	e.Seq = r.seq
	e.Time = r.now
	if r.game != nil {
		e.Position = r.game.Pos.String()
	} else {
		e.Position = engine.NewPosition(engine.Yellow).String()
	}
	r.events = append(r.events, e)
}

func (r *Referee) start(pos engine.Position, players [engine.NumColours]string, judge, how string) {
	for c, n := range players {
		if n != "" {
			r.players[c] = n
		}
	}
	tags := []engine.Tag{{Key: "Start", Value: pos.Starter().String()}, {Key: "Result", Value: "*"}}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		tags = append(tags, engine.Tag{Key: c.Name(), Value: r.players[c]})
	}
	if pos != engine.NewPosition(pos.Starter()) {
		tags = append(tags, engine.Tag{Key: "Setup", Value: pos.String()})
	}
	r.game = engine.NewGame(pos, tags...)
	r.resetTurnState()
	r.owed, r.lastThrow, r.rethrow = nil, "", false
	detail := fmt.Sprintf("%s starts", pos.Starter().Name())
	switch {
	case how == "setup":
		detail = fmt.Sprintf("game set up, %s to move", pos.Turn().Name())
	case how != "":
		detail += " (" + how + ")"
	}
	if judge != "" {
		detail += ", by judge " + judge
	}
	r.emit(Event{Type: EventStart, Colour: pos.Starter().String(), Detail: detail})
	r.settle()
	r.checkBoard()
}

// settle resolves a set-up or corrected position whose throw or bonus has
// no legal move, as play does, so that the game can go on.
func (r *Referee) settle() {
	c, ph := r.game.Pos.Turn(), r.game.Pos.Phase()
	out := r.game.Pos.Settle()
	switch {
	case out.Lost:
		r.emit(Event{Type: EventLost, Colour: c.String(), Throw: ph.String(), Detail: "no legal move: the throw is lost"})
	case out.BonusLost > 0:
		r.emit(Event{Type: EventLost, Colour: c.String(), Throw: ph.String(), Detail: fmt.Sprintf("no piece can play the bonus %d: it is lost", out.BonusLost)})
	}
	if out.GameOver {
		r.emitResult()
	}
}

func (r *Referee) judgeSet(pos engine.Position, judge string) {
	if r.game == nil {
		r.start(pos, [engine.NumColours]string{}, judge, "set by a judge")
		return
	}
	r.game.SetPosition(pos, "by "+judge)
	r.resetTurnState()
	r.owed, r.rethrow = nil, false
	r.emit(Event{Type: EventCorrection, Detail: "position set by judge " + judge})
	if pos.Phase() == engine.PhaseEnd {
		r.emitResult()
	}
	r.settle()
	r.checkBoard()
}

func (r *Referee) resetTurnState() {
	r.touched, r.inHand, r.amend, r.reported = engine.NoSite, engine.NoSite, nil, ""
}

// onBoard handles a new stable snapshot.
func (r *Referee) onBoard() {
	if r.game == nil {
		return
	}
	pos := &r.game.Pos
	if r.amend != nil && r.tryAmend() {
		return
	}
	r.exp = board.Expected(pos)
	if agree(&r.obs, &r.exp, r.opts.Caps) {
		r.owed = r.owed[:0]
		r.inHand, r.reported = engine.NoSite, ""
		r.resolve()
		return
	}
	if r.owedOnly() {
		r.inHand = engine.NoSite
		r.resolve()
		return
	}
	if pos.Phase().IsDie() || pos.Phase().IsBonus() {
		if r.tryMoves() || r.killUnderway() {
			return
		}
	}
	// A piece in hand is no fault in any phase: a piece on its way home,
	// a partner's piece being taken home, a piece lifted and put back.
	if r.lifted() {
		return
	}
	r.illegal()
}

// maxOwed bounds the pieces owed at once. A turn owes a few at most (a
// kill, and its bonus's kills); past that the oldest is no longer told
// apart from any other wrong piece, which keeps owedOnly's search small.
const maxOwed = 6

// owe records a piece the rules sent home that still stands on the board.
func (r *Referee) owe(o owedPiece) {
	if len(r.owed) == maxOwed {
		r.owed = append(r.owed[:0], r.owed[1:]...)
	}
	r.owed = append(r.owed, o)
}

// owedOnly reports whether the board differs from the game only by pieces
// the rules sent home that are still to be taken there, and forgets those
// already taken home.
func (r *Referee) owedOnly() bool {
	return len(r.owed) > 0 && r.withOwed(&r.exp, func(b *board.Snapshot) bool { return agree(&r.obs, b, r.opts.Caps) })
}

// withOwed tries base with each subset of the owed pieces still standing
// where they were, largest first, until ok accepts one; then it forgets
// the owed pieces that are no longer there (taken home) and reports true.
func (r *Referee) withOwed(base *board.Snapshot, ok func(*board.Snapshot) bool) bool {
	n := len(r.owed)
	for mask := 1<<n - 1; mask >= 0; mask-- {
		r.owedScratch = *base
		for i, o := range r.owed {
			if mask&(1<<i) != 0 {
				addOwed(&r.owedScratch, o)
			}
		}
		if !ok(&r.owedScratch) {
			continue
		}
		kept := r.owed[:0]
		for i, o := range r.owed {
			if mask&(1<<i) != 0 {
				kept = append(kept, o)
			}
		}
		r.owed = kept
		return true
	}
	return false
}

// addOwed moves an owed piece in an expected snapshot from its home back
// to the site where it still stands.
func addOwed(s *board.Snapshot, o owedPiece) {
	h := engine.HomeSite(o.colour)
	if s.Sites[h].Count == 0 {
		return
	}
	s.Sites[h].Count--
	s.Sites[h].ByColour[o.colour]--
	s.Sites[o.site].Count++
	s.Sites[o.site].ByColour[o.colour]++
}

// tryMoves accepts a legal move whose outcome the board shows, or the
// outcome of a kill with the victim not yet taken home.
func (r *Referee) tryMoves() bool {
	pos := &r.game.Pos
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	for pass := 0; pass < 2; pass++ {
		for _, m := range ml.Moves() {
			after := *pos
			out := after.PlayLegal(m)
			r.scratch = board.Expected(&after)
			if pass == 1 {
				if !m.Kill {
					continue
				}
				// The victim still stands where it was killed.
				addOwed(&r.scratch, owedPiece{colour: out.Victim, site: m.To})
			}
			// Earlier victims may still stand, or have gone home meanwhile.
			if !r.withOwed(&r.scratch, func(b *board.Snapshot) bool { return agree(&r.obs, b, r.opts.Caps) }) {
				continue
			}
			if r.touched != engine.NoSite && m.From != r.touched {
				r.openMismatch()
				r.reportIllegal(Event{Type: EventInfraction, Colour: pos.Turn().String(), Rule: RuleTouchedPiece, Move: m.String(),
					Sites:  []string{r.touched.String(), m.From.String()},
					Detail: fmt.Sprintf("the piece lifted from %s must be the one played (ficha tocada es ficha jugada)", r.touched)})
				return true
			}
			r.accept(m, pass == 1)
			return true
		}
	}
	return false
}

// accept plays a move seen on the board.
func (r *Referee) accept(m engine.Move, victimOnBoard bool) {
	pos := &r.game.Pos
	c := pos.Turn()
	var before *engine.Game
	if !m.Kill && r.partnerLanding(m) {
		cp := *r.game
		cp.Actions = append([]engine.Action(nil), r.game.Actions...)
		cp.Tags = append([]engine.Tag(nil), r.game.Tags...)
		before = &cp
	}
	out, err := r.game.Play(m)
	if err != nil { // cannot happen: m came from LegalMoves
		r.emit(Event{Type: EventInfraction, Rule: RuleIllegalMove, Move: m.String(), Detail: err.Error()})
		return
	}
	r.resetTurnState()
	if before != nil {
		r.amend = &amendable{before: before, kill: engine.Move{From: m.From, To: m.To, Kill: true}}
	}
	detail := ""
	if m.Kill {
		detail = fmt.Sprintf("kills %s's piece on %s; bonus 20", out.Victim.Name(), m.To)
		if victimOnBoard {
			r.owe(owedPiece{colour: out.Victim, site: m.To, rule: RuleKillNotDone})
			detail += fmt.Sprintf("; take it to %s", engine.HomeSite(out.Victim))
		}
	} else if out.Goal {
		detail = "reaches the goal; bonus 10"
	}
	r.emit(Event{Type: EventMove, Colour: c.String(), Move: m.String(), Detail: detail})
	r.afterAction(c, out)
	r.checkBoard()
}

// partnerLanding reports whether m lands on the partner's single piece off
// a safe square, where the player may kill instead.
func (r *Referee) partnerLanding(m engine.Move) bool {
	pos := &r.game.Pos
	n, a, _ := pos.Occupants(m.To)
	return n == 1 && m.To.Kind() == engine.Track && !m.To.Safe() && a == pos.Turn().Partner()
}

// tryAmend turns the last barrier on the partner into the kill when the
// board shows the partner's piece sent home.
func (r *Referee) tryAmend() bool {
	a := r.amend
	after := a.before.Pos
	after.PlayLegal(a.kill)
	r.scratch = board.Expected(&after)
	if !agree(&r.obs, &r.scratch, r.opts.Caps) {
		return false
	}
	old := r.game.Actions[len(r.game.Actions)-1].Move
	r.game = a.before
	c := r.game.Pos.Turn()
	out, err := r.game.Play(a.kill)
	if err != nil {
		return false
	}
	r.resetTurnState()
	r.emit(Event{Type: EventMove, Colour: c.String(), Move: a.kill.String(),
		Detail: fmt.Sprintf("the partner's piece was sent home: %s replaces %s; bonus 20", a.kill, old)})
	r.afterAction(c, out)
	r.checkBoard()
	return true
}

// killUnderway recognises a kill made in the other order: the victim
// already taken home, the killing piece still in its place or in hand.
func (r *Referee) killUnderway() bool {
	pos := &r.game.Pos
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	for _, m := range ml.Moves() {
		victim, ok := pos.Victim(m)
		if !ok {
			continue
		}
		// The victim at home, where the game has it only after the move.
		r.scratch = r.exp
		v, h := &r.scratch.Sites[m.To], &r.scratch.Sites[engine.HomeSite(victim)]
		v.Count--
		v.ByColour[victim]--
		h.Count++
		h.ByColour[victim]++
		if agree(&r.obs, &r.scratch, r.opts.Caps) {
			r.inHand = engine.NoSite
			r.resolve()
			return true
		}
		f := &r.scratch.Sites[m.From]
		f.Count--
		f.ByColour[pos.Turn()]--
		if agree(&r.obs, &r.scratch, r.opts.Caps) {
			r.inHand = m.From
			if r.touched == engine.NoSite {
				r.touched = m.From
			}
			r.resolve()
			return true
		}
	}
	return false
}

// lifted recognises a piece in the player's hand: one piece missing from a
// site, nothing else changed. The first own piece lifted that has a legal
// move becomes the touched piece.
func (r *Referee) lifted() bool {
	// One piece missing, against the board with the owed pieces that
	// still stand (some may have gone home meanwhile).
	inHand := func(b *board.Snapshot) bool {
		r.dl = deltas(&r.obs, b, r.opts.Caps, r.dl)
		return len(r.dl) == 1 && r.dl[0].diff == -1
	}
	if !r.withOwed(&r.exp, inHand) {
		return false
	}
	d := r.dl[0]
	pos := &r.game.Pos
	c := pos.Turn()
	own := hasColour(pos, d.site, c) && (!d.known || d.colour == c)
	r.inHand = d.site
	if own && r.touched == engine.NoSite && r.hasMoveFrom(d.site) {
		r.touched = d.site
	}
	r.resolve()
	return true
}

func (r *Referee) hasMoveFrom(s engine.Site) bool {
	var ml engine.MoveList
	r.game.Pos.LegalMoves(&ml)
	for _, m := range ml.Moves() {
		if m.From == s {
			return true
		}
	}
	return false
}

// illegal reports a board that matches no legal outcome: the infraction
// when one piece was moved, and the mismatch.
func (r *Referee) illegal() {
	pos := &r.game.Pos
	r.dl = deltas(&r.obs, &r.exp, r.opts.Caps, r.dl)
	var from, to engine.Site = engine.NoSite, engine.NoSite
	var col engine.Colour
	known := false
	if len(r.dl) == 2 && r.dl[0].diff*r.dl[1].diff == -1 {
		a, b := r.dl[0], r.dl[1]
		if a.diff > 0 {
			a, b = b, a
		}
		if !a.known || !b.known || a.colour == b.colour {
			from, to = a.site, b.site
			col, known = a.colour, a.known
		}
	}
	if from != engine.NoSite && !known {
		if hasColour(pos, from, pos.Turn()) {
			col, known = pos.Turn(), true
		} else {
			col, known = onlyColour(pos, from)
		}
	}
	r.openMismatch()
	if from == engine.NoSite || !known {
		return
	}
	turn := pos.Turn()
	m := engine.Move{From: from, To: to}
	switch {
	case pos.Phase() == engine.PhaseEnd:
		r.reportIllegal(Event{Type: EventInfraction, Colour: col.String(), Rule: RuleIllegalMove, Move: m.String(), Detail: "the game is over"})
	case col == turn.Partner():
		r.reportIllegal(Event{Type: EventInfraction, Colour: col.String(), Rule: RuleWrongColour, Move: m.String(),
			Detail: fmt.Sprintf("%s's piece moved: a player never moves the partner's pieces", col.Name())})
	case col != turn:
		r.reportIllegal(Event{Type: EventInfraction, Colour: col.String(), Rule: RuleOutOfTurn, Move: m.String(),
			Detail: fmt.Sprintf("%s's piece moved during %s's turn", col.Name(), turn.Name())})
	case pos.Phase() == engine.PhaseThrow:
		r.reportIllegal(Event{Type: EventInfraction, Colour: col.String(), Rule: RuleIllegalMove, Move: m.String(),
			Detail: "a piece moved before the throw"})
	default:
		if rule, detail := r.why(m); rule != "" {
			r.reportIllegal(Event{Type: EventInfraction, Colour: col.String(), Rule: rule, Move: m.String(), Detail: detail})
		}
	}
}

// why asks the rules why a single move of the side to move is illegal,
// trying it as written with - and with x.
func (r *Referee) why(m engine.Move) (rule, detail string) {
	pos := &r.game.Pos
	var first *engine.RuleError
	for _, kill := range []bool{false, true} {
		m.Kill = kill
		err := pos.Check(m)
		if err == nil {
			// The move is legal: the board differs from its outcome in
			// something else, which the mismatch shows.
			return "", ""
		}
		re, ok := err.(*engine.RuleError)
		if !ok {
			continue
		}
		if re.Rule == RuleKillNotDone || strings.Contains(re.Reason, "kills nothing") {
			if first == nil {
				first = re
			}
			continue
		}
		return re.Rule, re.Reason
	}
	if r.touched != engine.NoSite && m.From != r.touched {
		return RuleTouchedPiece, fmt.Sprintf("the piece lifted from %s must be the one played", r.touched)
	}
	if first != nil {
		return first.Rule, first.Reason
	}
	return RuleIllegalMove, "not a legal move"
}

// reportIllegal emits an infraction once for a given board state.
func (r *Referee) reportIllegal(e Event) {
	key := e.Rule + " " + e.Move
	if r.reported == key && r.reportedObs == r.obs {
		return
	}
	r.reported, r.reportedObs = key, r.obs
	r.emit(e)
}

// openMismatch reports the sites where the board disagrees, when they
// change.
func (r *Referee) openMismatch() {
	r.dl = deltas(&r.obs, &r.exp, r.opts.Caps, r.dl)
	r.mdl = append(r.mdl[:0], r.dl...)
	var sites []engine.Site
	for _, d := range r.dl {
		if len(sites) == 0 || sites[len(sites)-1] != d.site {
			sites = append(sites, d.site)
		}
	}
	if equalSites(sites, r.mismatch) {
		return
	}
	r.mismatch = sites
	names := make([]string, len(sites))
	for i, s := range sites {
		names[i] = s.String()
	}
	r.emit(Event{Type: EventMismatch, Sites: names, Detail: r.describeMismatch()})
}

func (r *Referee) describeMismatch() string {
	var parts []string
	for _, d := range r.dl {
		what := "a piece"
		if d.known {
			what = "a " + d.colour.Name() + " piece"
		}
		if d.diff > 0 {
			parts = append(parts, fmt.Sprintf("%s too many on %s", what, d.site))
		} else {
			parts = append(parts, fmt.Sprintf("%s missing on %s", what, d.site))
		}
	}
	return strings.Join(parts, "; ")
}

// resolve closes an open mismatch.
func (r *Referee) resolve() {
	if r.mismatch == nil {
		return
	}
	r.mismatch, r.mdl = nil, r.mdl[:0]
	r.emit(Event{Type: EventResolved, Detail: "the board agrees with the game again"})
}

func equalSites(a, b []engine.Site) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkBoard compares the last snapshot with the game after a change of
// position, opening or closing a mismatch.
func (r *Referee) checkBoard() {
	r.exp = board.Expected(&r.game.Pos)
	if !r.haveObs {
		r.obs = r.exp
	}
	if agree(&r.obs, &r.exp, r.opts.Caps) {
		r.owed = r.owed[:0]
		r.resolve()
		return
	}
	if r.owedOnly() {
		r.resolve()
		return
	}
	if r.pendingMoveShown() {
		return
	}
	r.openMismatch()
}

// pendingMoveShown reports whether, in a die or bonus phase, the board
// differs only by a piece in hand.
func (r *Referee) pendingMoveShown() bool {
	ph := r.game.Pos.Phase()
	if !ph.IsDie() && !ph.IsBonus() {
		return false
	}
	r.dl = deltas(&r.obs, &r.exp, r.opts.Caps, r.dl)
	return len(r.dl) == 1 && r.dl[0].diff == -1
}

// onThrow handles a throw read by the camera.
func (r *Referee) onThrow(kind ThrowKind, value int) {
	if r.game == nil {
		return
	}
	pos := &r.game.Pos
	c := pos.Turn()
	if pos.Phase() == engine.PhaseEnd {
		return
	}
	if kind != ThrowValue || value < 1 || value > 6 {
		r.rethrow = true
		detail := map[ThrowKind]string{
			ThrowEdge:       "the die is not flat: throw again",
			ThrowNone:       "the die left the tray: throw again",
			ThrowMulti:      "more than one die: throw one die again",
			ThrowUnsure:     "the die could not be read: throw again",
			ThrowSuspicious: "the die appeared or turned without tumbling: throw again",
		}[kind]
		if kind == ThrowValue {
			detail = fmt.Sprintf("bad die value %d: throw again", value)
		}
		r.emit(Event{Type: EventRethrow, Colour: c.String(), Throw: kind.String(), Detail: detail})
		return
	}
	val := fmt.Sprint(value)
	// Presence-only sensors cannot see every move (one of two pieces
	// leaving a square for an occupied one): when exactly one legal move
	// is invisible and the board still reads as before, the next throw
	// says it was made.
	for (pos.Phase().IsDie() || pos.Phase().IsBonus()) && r.unseenMove() {
		c = pos.Turn()
	}
	switch {
	case pos.Phase().IsDie():
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleEarlyThrow, Throw: val,
			Detail: fmt.Sprintf("the %s is still to be played: this throw does not count", pos.Phase())})
		return
	case pos.Phase().IsBonus():
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleBonusNotPlayed, Throw: val,
			Detail: fmt.Sprintf("the bonus %s is still to be played: this throw does not count", pos.Phase())})
		return
	}
	r.exp = board.Expected(pos)
	if !agree(&r.obs, &r.exp, r.opts.Caps) {
		if r.owedOnly() {
			o := r.owed[0]
			r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: o.rule, Throw: val, Sites: []string{o.site.String()},
				Detail: fmt.Sprintf("the %s piece on %s must go home before the next throw: this throw does not count", o.colour.Name(), o.site)})
			return
		}
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleEarlyThrow, Throw: val,
			Detail: "the board does not agree with the game yet: this throw does not count"})
		return
	}
	r.rethrow = false
	r.amend = nil
	r.owed = r.owed[:0]
	out, err := r.game.Throw(value)
	if err != nil {
		r.emit(Event{Type: EventInfraction, Colour: c.String(), Rule: RuleEarlyThrow, Throw: val, Detail: err.Error()})
		return
	}
	r.lastThrow = val
	r.resetTurnState()
	detail := ""
	if value == 6 && pos.Phase() == 6 && pos.Count() == 7 {
		detail = "counts 7"
	}
	r.emit(Event{Type: EventThrow, Colour: c.String(), Throw: val, Detail: detail})
	switch {
	case out.ThirdSix:
		e := Event{Type: EventThirdSix, Colour: c.String(), Throw: val,
			Detail: "third 6: no piece goes home (none moved, or it is in its column or goal); the turn passes"}
		if out.SentHome != engine.NoSite {
			r.owe(owedPiece{colour: c, site: out.SentHome, rule: RuleThirdSixHome})
			e.Sites = []string{out.SentHome.String()}
			e.Detail = fmt.Sprintf("third 6: the piece on %s goes home; the turn passes", out.SentHome)
		}
		r.emit(e)
	case out.Lost:
		r.emit(Event{Type: EventLost, Colour: c.String(), Throw: val, Detail: "no legal move: the throw is lost"})
	}
	r.afterAction(c, out)
	r.checkBoard()
}

// unseenMove plays the one legal move the sensors cannot tell from no move
// at all, when the board reads as the position has it and exactly one such
// move exists; it reports whether it did.
func (r *Referee) unseenMove() bool {
	pos := &r.game.Pos
	c := pos.Turn()
	r.exp = board.Expected(pos)
	if !agree(&r.obs, &r.exp, r.opts.Caps) {
		return false
	}
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	var unseen []engine.Move
	for _, m := range ml.Moves() {
		after := *pos
		after.PlayLegal(m)
		r.scratch = board.Expected(&after)
		if agree(&r.obs, &r.scratch, r.opts.Caps) {
			unseen = append(unseen, m)
		}
	}
	if len(unseen) != 1 {
		return false
	}
	m := unseen[0]
	out, err := r.game.Play(m)
	if err != nil {
		return false
	}
	r.resetTurnState()
	r.emit(Event{Type: EventMove, Colour: c.String(), Move: m.String(),
		Detail: "a move the sensors cannot see, taken as played when the next throw came"})
	r.afterAction(c, out)
	return true
}

// afterAction reports what an action's outcome adds: a lost bonus, the
// end of the game.
func (r *Referee) afterAction(c engine.Colour, out engine.Outcome) {
	if out.BonusLost > 0 {
		r.emit(Event{Type: EventLost, Colour: c.String(), Throw: fmt.Sprintf("+%d", out.BonusLost),
			Detail: fmt.Sprintf("no piece can play the bonus %d: it is lost", out.BonusLost)})
	}
	if out.GameOver {
		r.emitResult()
	}
}

func (r *Referee) emitResult() {
	w, ok := r.game.Pos.Winner()
	if !ok {
		return
	}
	r.game.SetTag("Result", w.String())
	a, b := w.Colours()
	r.emit(Event{Type: EventResult, Result: w.String(),
		Detail: fmt.Sprintf("%s and %s win; waiting for a judge to certify", a.Name(), b.Name())})
}
