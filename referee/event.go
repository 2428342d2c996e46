package referee

import "time"

// Event types: what a table reports, in order (DESIGN.md).
const (
	EventStart      = "start"      // a game begins (or a judge starts a new one)
	EventThrow      = "throw"      // a die came to rest with a value, accepted
	EventRethrow    = "rethrow"    // a die on its edge, out of the tray or unreadable: throw again
	EventMove       = "move"       // a move was accepted on the board
	EventLost       = "lost"       // a throw or bonus with no legal move was lost
	EventThirdSix   = "third-six"  // a third 6: the rules sent a piece home (or not)
	EventInfraction = "infraction" // a rule of RULES.md §10 was broken
	EventMismatch   = "mismatch"   // the board disagrees with the game
	EventResolved   = "resolved"   // the board agrees with the game again
	EventCorrection = "correction" // a judge set the position
	EventResult     = "result"     // the game is over
)

// Event is one thing that happened at a table. Events are numbered from 1
// without gaps, so a consumer sees at once when it missed one.
type Event struct {
	Seq  uint64    `json:"seq"`
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	// Colour is the player concerned, when there is one.
	Colour string `json:"colour,omitempty"`
	// Throw is the die value (1…6), or "edge", "none", "multi", "unsure",
	// "suspicious" for a throw that is repeated, or "+10", "+20" for a bonus.
	Throw string `json:"throw,omitempty"`
	// Move is the move in NOTATION.md form.
	Move string `json:"move,omitempty"`
	// Rule is the infraction's code (engine.Rule… and the codes of
	// DESIGN.md).
	Rule string `json:"rule,omitempty"`
	// Sites are the sites concerned: where a wrong piece stands, where a
	// piece is missing, the victim to remove.
	Sites []string `json:"sites,omitempty"`
	// Detail says what happened in a sentence, in English.
	Detail string `json:"detail,omitempty"`
	// Result is the winning pair, YR or BG, on a result event.
	Result string `json:"result,omitempty"`
	// Position is the game's position (PPN) after the event.
	Position string `json:"position"`
}
