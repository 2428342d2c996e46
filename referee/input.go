package referee

import (
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// InputKind tells what an Input carries.
type InputKind uint8

// The kinds of input.
const (
	// InputBoard is a stable snapshot of the site sensors.
	InputBoard InputKind = iota + 1
	// InputThrow is a throw read by the dice camera.
	InputThrow
	// InputStart starts a new game from the initial position with Starter
	// (a judge's new game, or "start C" in a table script).
	InputStart
	// InputOpening starts a new game whose starter the Opening throws
	// decide (RULES.md §2).
	InputOpening
	// InputSetup starts a game from Position (pieces placed as in it).
	InputSetup
	// InputJudgeSet is a judge's correction: the game goes on from
	// Position.
	InputJudgeSet
	// InputTimer tells only that time has passed: the daemon gives it when
	// the referee's Deadline comes with no other input, so that a board
	// that held still for the grace time is flagged. It is journaled like
	// every input, so a replay flags at the same moment.
	InputTimer
)

// ThrowKind is what the dice camera made of a throw.
type ThrowKind uint8

// The kinds of throw. Only ThrowValue counts; every other kind means the
// die must be thrown again.
const (
	ThrowValue      ThrowKind = iota // a die at rest, flat, showing Value
	ThrowEdge                        // on its edge or leaning on the wall
	ThrowNone                        // no die: it left the tray
	ThrowMulti                       // more than one die
	ThrowUnsure                      // the camera could not read it safely
	ThrowSuspicious                  // appeared or turned without tumbling
)

var throwKindNames = [...]string{"value", "edge", "none", "multi", "unsure", "suspicious"}

// String names the kind as events write it.
func (k ThrowKind) String() string {
	if int(k) < len(throwKindNames) {
		return throwKindNames[k]
	}
	return "unknown"
}

// ParseThrowKind parses a kind's name (not "value").
func ParseThrowKind(s string) (ThrowKind, bool) {
	for i, n := range throwKindNames {
		if n == s && i != int(ThrowValue) {
			return ThrowKind(i), true
		}
	}
	return 0, false
}

// Input is one thing the referee is told, with the time it happened. The
// referee reads no clock: time arrives here.
type Input struct {
	At   time.Time
	Kind InputKind
	// Board is the snapshot of an InputBoard.
	Board board.Snapshot
	// Throw and Value describe an InputThrow.
	Throw ThrowKind
	Value int
	// Starter starts an InputStart.
	Starter engine.Colour
	// Opening holds an InputOpening's throws, in order.
	Opening []engine.OpeningThrow
	// Position is an InputSetup's or InputJudgeSet's position.
	Position engine.Position
	// Players names the players by colour (InputStart, InputOpening,
	// InputSetup); empty names keep the current ones.
	Players [engine.NumColours]string
	// Judge names the judge behind an input, if any.
	Judge string
}
