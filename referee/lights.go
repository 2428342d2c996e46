package referee

import (
	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// The lights' vocabulary, which players learn in a minute (README,
// docs/players-guide):
//
//   - Whose turn: the player's home glows steady in their colour, and so
//     do the tray's lights while a throw is due; they pulse while a move is
//     due.
//   - Throw again: the tray blinks magenta.
//   - Pieces that may move: their sites glow steady white while a move is
//     due and no piece is in hand.
//   - Where the lifted (touched) piece may go: those sites pulse white.
//   - Owed action: a piece the rules sent home (a killed piece, the piece
//     of a third 6) blinks orange where it stands, and its home glows
//     orange.
//   - Provisional: a piece resting where no legal move puts it — counted
//     out square by square, or put down wrong a moment ago — pulses
//     violet while the table waits for the grace time (Opts.Grace); the
//     sites where the lifted piece may go still pulse white. If the board
//     stays so for the grace time, or the next throw comes, it turns to
//     wrong.
//   - Wrong: a site with a piece that should not be there blinks magenta;
//     a site missing a piece blinks in the colour of the missing piece.
//   - Game over: the winners' goals pulse in their colours.
var (
	ColourWhite   = board.RGB{R: 255, G: 255, B: 255}
	ColourMagenta = board.RGB{R: 255, G: 0, B: 255}
	ColourOrange  = board.RGB{R: 255, G: 100, B: 0}
	// ColourViolet marks a provisional placement: softer and bluer than
	// the magenta of a wrong one, and pulsing rather than blinking.
	ColourViolet = board.RGB{R: 110, G: 40, B: 255}
	// PlayerColours are the lights' colours of Yellow, Blue, Red, Green.
	PlayerColours = [engine.NumColours]board.RGB{
		{R: 255, G: 190, B: 0}, {R: 0, G: 70, B: 255}, {R: 255, G: 0, B: 0}, {R: 0, G: 200, B: 40},
	}
)

func (r *Referee) updateLights() {
	f := &r.frame
	*f = board.Frame{}
	if r.game == nil {
		return
	}
	pos := &r.game.Pos
	turn := pos.Turn()
	set := func(s engine.Site, c board.RGB, p board.Pattern) { f.Sites[s] = board.Light{Colour: c, Pattern: p} }
	tray := func(c board.RGB, p board.Pattern) {
		for i := range f.Tray {
			f.Tray[i] = board.Light{Colour: c, Pattern: p}
		}
	}
	if pos.Phase() == engine.PhaseEnd {
		if w, ok := pos.Winner(); ok {
			a, b := w.Colours()
			set(engine.GoalSite(a), PlayerColours[a], board.Pulse)
			set(engine.GoalSite(b), PlayerColours[b], board.Pulse)
			tray(PlayerColours[a], board.Pulse)
		}
		return
	}
	set(engine.HomeSite(turn), PlayerColours[turn], board.Steady)
	moveDue := pos.Phase().IsDie() || pos.Phase().IsBonus()
	switch {
	case r.rethrow:
		tray(ColourMagenta, board.Blink)
	case moveDue:
		tray(PlayerColours[turn], board.Pulse)
	default:
		tray(PlayerColours[turn], board.Steady)
	}
	// While a placement is provisional, the open mismatch (if any) is
	// shown again only if the board stays wrong.
	showMismatch := r.mismatch != nil && r.pend == nil
	if moveDue && !showMismatch {
		var ml engine.MoveList
		pos.LegalMoves(&ml)
		hand := r.touched
		if hand == engine.NoSite {
			hand = r.inHand
		}
		for _, m := range ml.Moves() {
			switch {
			case hand == engine.NoSite:
				set(m.From, ColourWhite, board.Steady)
			case m.From == hand:
				set(m.To, ColourWhite, board.Pulse)
			}
		}
	}
	for _, o := range r.owed {
		set(o.site, ColourOrange, board.Blink)
		set(engine.HomeSite(o.colour), ColourOrange, board.Steady)
	}
	if r.pend != nil {
		for _, d := range r.pdl {
			if d.diff > 0 && !r.owedAt(d.site) {
				set(d.site, ColourViolet, board.Pulse)
			}
		}
	}
	if showMismatch {
		for _, d := range r.mdl {
			switch {
			case d.diff > 0:
				set(d.site, ColourMagenta, board.Blink)
			case d.known:
				set(d.site, PlayerColours[d.colour], board.Blink)
			default:
				if c, ok := onlyColour(pos, d.site); ok {
					set(d.site, PlayerColours[c], board.Blink)
				} else {
					set(d.site, ColourWhite, board.Blink)
				}
			}
		}
	}
}
