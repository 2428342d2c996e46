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
	// Grace is how long the board must hold still in a position that no
	// legal outcome explains (a piece counted out square by square, a
	// wrong placement) before the mismatch and the infraction are
	// reported; the next throw ends it at once. Zero means DefaultGrace;
	// a negative grace reports at once.
	Grace time.Duration
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
	// pend is the board no legal outcome explains, waiting for the
	// grace time; pendObs is that board, and held the wait of a board
	// reported again unchanged.
	pend    *pendingFlag
	pendObs board.Snapshot
	held    *pendingFlag
	pdl     []delta // the waiting board's differences, for the lights
	// played is the last move accepted, until the next throw is taken:
	// its piece taken on further is a wrong count, not a move out of
	// turn.
	played playedMove
	// flagged tells that flaggedObs, the board last flagged, is the one
	// the open mismatch reports.
	flagged    bool
	flaggedObs board.Snapshot
	lastThrow  string

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
	// A board that held still for the grace time is flagged before what
	// comes next, whether or not the daemon's timer came first.
	r.expireAt(in.At)
	switch in.Kind {
	case InputBoard:
		// The same board again (a re-check) keeps waiting from when it
		// settled; any other starts afresh.
		r.held = nil
		if r.pend != nil && r.pendObs == in.Board {
			r.held = r.pend
		}
		r.pend = nil
		r.obs, r.haveObs = in.Board, true
		r.onBoard()
	case InputThrow:
		// The next throw ends any grace: what the board shows is final.
		r.expire()
		r.onThrow(in.Throw, in.Value)
	case InputTimer:
		// Only the time passing: expireAt above did the work.
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
		r.note(e)
	} else {
		e.Position = engine.NewPosition(engine.Yellow).String()
	}
	r.events = append(r.events, e)
}

// note writes in the game record what a club keeps beside the moves
// (NOTATION.md): the time of each throw and bonus line, between braces,
// and each infraction as a comment line with its time.
func (r *Referee) note(e Event) {
	at := ""
	if !e.Time.IsZero() {
		at = e.Time.UTC().Format("15:04:05")
	}
	switch e.Type {
	case EventThrow, EventLost, EventThirdSix, EventMove:
		if n := len(r.game.Actions); at != "" && n > 0 && r.game.Actions[n-1].Note == "" && r.game.Actions[n-1].Kind != engine.ActComment {
			r.game.Annotate(at)
		}
	case EventInfraction:
		var b strings.Builder
		if at != "" {
			b.WriteString(at + " ")
		}
		b.WriteString("infraction " + e.Rule)
		if e.Colour != "" {
			b.WriteString(" " + e.Colour)
		}
		if e.Move != "" {
			b.WriteString(" " + e.Move)
		}
		if e.Detail != "" {
			b.WriteString(": " + e.Detail)
		}
		r.game.Comment(b.String())
	}
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
	r.pend, r.played = nil, playedMove{}
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
	note := "by " + judge
	if !r.now.IsZero() {
		note += " at " + r.now.UTC().Format("15:04:05")
	}
	r.game.SetPosition(pos, note)
	r.resetTurnState()
	r.pend, r.played = nil, playedMove{}
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
	r.flagged = false
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
