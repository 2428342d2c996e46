package tablescript

import (
	"fmt"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// Runner feeds script steps to a referee, keeping the simulated board that
// lift, place and board lines act on.
type Runner struct {
	Referee *referee.Referee
	opts    referee.Opts
	caps    board.Caps
	board   board.Snapshot
	names   [engine.NumColours]string
	// robots are the robot partners of the game in play, robotsSet
	// whether its start came after a robots line; nextRobots and
	// nextSet, those of the next start.
	robots, nextRobots [engine.NumColours]string
	robotsSet, nextSet bool
	at                 time.Duration
	// hand holds the colours of the pieces lifted and not put down yet,
	// in order; ahead, the steps after the current one (SetAhead).
	hand  []engine.Colour
	ahead []Step
}

// NewRunner returns a runner whose referee has opts (a "sensors" line
// changes the sensors' caps before the first start).
func NewRunner(opts referee.Opts) *Runner {
	return &Runner{Referee: referee.New(opts), opts: opts, caps: opts.Caps}
}

// Board returns the simulated board as the runner holds it.
func (r *Runner) Board() *board.Snapshot { return &r.board }

// Input turns a step into the referee input it stands for; ok is false for
// steps that only set the runner up (players, sensors).
func (r *Runner) Input(st Step) (in referee.Input, ok bool, err error) {
	if st.HasAt {
		r.at = st.At
	}
	in.At = Epoch.Add(r.at)
	switch st.Verb {
	case VerbPlayers:
		r.names = st.Names
		return in, false, nil
	case VerbRobots:
		r.nextRobots, r.nextSet = st.Robots, true
		return in, false, nil
	case VerbSeq:
		r.Referee.SetSeq(st.Seq)
		return in, false, nil
	case VerbSensors:
		if r.Referee.Game() != nil {
			return in, false, fmt.Errorf("sensors must be set before the game starts")
		}
		r.caps, r.opts.Caps = st.Caps, st.Caps
		r.Referee = referee.New(r.opts)
		return in, false, nil
	case VerbOpening:
		in.Kind, in.Opening, in.Players = referee.InputOpening, st.Opening, r.names
		r.setBoard(engine.NewPosition(engine.Yellow))
	case VerbStart:
		in.Kind, in.Starter, in.Players = referee.InputStart, st.Starter, r.names
		r.setBoard(engine.NewPosition(st.Starter))
	case VerbSetup:
		in.Kind, in.Position, in.Players = referee.InputSetup, st.Position, r.names
		r.setBoard(st.Position)
	case VerbThrow:
		in.Kind, in.Throw, in.Value = referee.InputThrow, st.Throw, st.Value
	case VerbTimer:
		in.Kind = referee.InputTimer
	case VerbLift, VerbPlace:
		if err := r.liftOrPlace(st); err != nil {
			return in, false, err
		}
		in.Kind, in.Board = referee.InputBoard, r.sensed()
	case VerbBoard:
		r.board = st.Board
		in.Kind, in.Board = referee.InputBoard, r.sensed()
	case VerbJudge:
		in.Judge = st.Judge
		if st.JudgeSet {
			in.Kind, in.Position = referee.InputJudgeSet, st.Position
		} else {
			in.Kind, in.Starter, in.Players = referee.InputStart, st.Starter, r.names
		}
	}
	switch in.Kind {
	case referee.InputStart, referee.InputOpening, referee.InputSetup:
		// A robots line seats its robots for this game alone.
		r.robots, r.robotsSet = r.nextRobots, r.nextSet
		r.nextRobots, r.nextSet = [engine.NumColours]string{}, false
	}
	return in, true, nil
}

// Robots returns the robot partners of the game in play, by colour (a bot
// level, "" for a person), as the robots line before its start gave them;
// ok is false when no robots line came before it (a script or journal
// that names none).
func (r *Runner) Robots() (levels [engine.NumColours]string, ok bool) {
	return r.robots, r.robotsSet
}

// setBoard puts the pieces as in pos: a game starts with the board right.
func (r *Runner) setBoard(pos engine.Position) {
	r.board = board.Expected(&pos)
	r.hand = r.hand[:0]
}

func (r *Runner) liftOrPlace(st Step) error {
	rd := &r.board.Sites[st.Site]
	c := st.Colour
	if !st.HasColour {
		c = r.colourOf(st)
	}
	if st.Verb == VerbLift {
		if rd.Count == 0 || rd.ByColour[c] == 0 {
			return fmt.Errorf("no %s piece on %s to lift", c.Name(), st.Site)
		}
		rd.Count--
		rd.ByColour[c]--
		r.hand = append(r.hand, c)
		return nil
	}
	max := uint8(2)
	if !st.Site.Holds2() {
		max = 4
	}
	if rd.Count >= max+1 {
		return fmt.Errorf("%s cannot take another piece", st.Site)
	}
	rd.Count++
	rd.ByColour[c]++
	rd.Coloured = true
	// The piece put down leaves the hand (the last one lifted of its
	// colour, if any).
	for i := len(r.hand) - 1; i >= 0; i-- {
		if r.hand[i] == c {
			r.hand = append(r.hand[:i], r.hand[i+1:]...)
			break
		}
	}
	return nil
}

// colourOf says which colour a lift or place without one means, as people
// mean it. A place on a home, column or goal puts that colour's piece;
// elsewhere, the piece in hand (the last lifted), else one of the side to
// move. A lift from a site of one colour takes that colour; from a site of
// several, the colour that the script next places elsewhere (a lift then a
// place is one piece carried), else the side to move's piece if there is
// one there.
func (r *Runner) colourOf(st Step) engine.Colour {
	pos := r.Referee.Position()
	if k := st.Site.Kind(); k == engine.Home || k == engine.Goal || k == engine.Column {
		return st.Site.Owner()
	}
	if st.Verb == VerbPlace {
		if n := len(r.hand); n > 0 {
			return r.hand[n-1]
		}
		return pos.Turn()
	}
	rd := &r.board.Sites[st.Site]
	var present []engine.Colour
	for k := engine.Colour(0); k < engine.NumColours; k++ {
		if rd.ByColour[k] > 0 {
			present = append(present, k)
		}
	}
	switch {
	case len(present) == 0:
		return pos.Turn()
	case len(present) == 1:
		return present[0]
	}
	if c, ok := r.nextPlaced(st.Site); ok && rd.ByColour[c] > 0 {
		return c
	}
	if rd.ByColour[pos.Turn()] > 0 {
		return pos.Turn()
	}
	return present[0]
}

// nextPlaced returns the colour of the next piece the script places on
// another site than from, among the lifts and places that follow (a throw
// or any other line ends the search): given, or the owner of a home,
// column or goal.
func (r *Runner) nextPlaced(from engine.Site) (engine.Colour, bool) {
	for _, st := range r.ahead {
		switch st.Verb {
		case VerbLift, VerbTimer:
			continue
		case VerbPlace:
		default:
			return 0, false
		}
		if st.Site == from {
			continue
		}
		if st.HasColour {
			return st.Colour, true
		}
		if k := st.Site.Kind(); k == engine.Home || k == engine.Goal || k == engine.Column {
			return st.Site.Owner(), true
		}
		return 0, false
	}
	return 0, false
}

// SetAhead tells the runner the steps that follow the next one, when the
// whole script is known: a lift without a colour from a site of several
// colours reads them (colourOf).
func (r *Runner) SetAhead(steps []Step) { r.ahead = steps }

// sensed is the board as the sensors report it.
func (r *Runner) sensed() board.Snapshot {
	s := r.board
	for i := range s.Sites {
		rd := &s.Sites[i]
		switch {
		case r.caps.Colours:
			rd.Coloured = rd.Count > 0 || rd.Coloured
		case r.caps.Counts:
			*rd = board.Reading{Count: rd.Count}
		case rd.Count > 0:
			*rd = board.Reading{Count: 1}
		}
	}
	return s
}
