package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RequiredTags are the header keys every game record has (NOTATION.md).
var RequiredTags = []string{"Event", "Date", "Table", "Yellow", "Blue", "Red", "Green", "Start", "Result"}

// Tag is one header line of a game record: [Key "Value"].
type Tag struct{ Key, Value string }

// ActionKind tells what one line of a game record holds.
type ActionKind uint8

// The kinds of record line.
const (
	ActMove     ActionKind = iota // a throw or bonus played with a move
	ActNone                       // a throw or bonus with no legal move: "-"
	ActThirdSix                   // a third 6, resolved by the rules: "!"
	ActComment                    // a ";" line: infractions, judges' actions
)

// Action is one line of a game record.
type Action struct {
	Kind   ActionKind
	Colour Colour
	// Throw is the die value (1…6), or 0 for a bonus line.
	Throw int
	// Bonus is 10 or 20 on a bonus line.
	Bonus int
	Move  Move
	// Note is the text between braces after the action, or a comment's
	// text.
	Note string
}

// AppendText appends the action's record line (without newline) to b.
func (a Action) AppendText(b []byte) []byte {
	if a.Kind == ActComment {
		return append(append(b, "; "...), a.Note...)
	}
	b = append(b, a.Colour.Letter(), ' ')
	if a.Throw > 0 {
		b = strconv.AppendInt(b, int64(a.Throw), 10)
	} else {
		b = append(b, '+')
		b = strconv.AppendInt(b, int64(a.Bonus), 10)
	}
	b = append(b, ' ')
	switch a.Kind {
	case ActMove:
		b = a.Move.AppendText(b)
	case ActNone:
		b = append(b, '-')
	case ActThirdSix:
		b = append(b, '!')
	}
	if a.Note != "" {
		b = append(append(append(b, " {"...), a.Note...), '}')
	}
	return b
}

// Game is a game in progress or replayed: its start, its current position
// and the record of every action. Its methods keep all three consistent.
type Game struct {
	Tags    []Tag
	Start   Position
	Pos     Position
	Actions []Action
	// pending is the index of the throw action awaiting its move, or -1.
	pending int
}

// NewGame starts a game from a position (NewPosition for a new game).
func NewGame(start Position, tags ...Tag) *Game {
	return &Game{Tags: tags, Start: start, Pos: start, pending: -1}
}

// Tag returns the value of a header tag, or "".
func (g *Game) Tag(key string) string {
	for _, t := range g.Tags {
		if t.Key == key {
			return t.Value
		}
	}
	return ""
}

// SetTag sets a header tag, adding it if absent.
func (g *Game) SetTag(key, value string) {
	for i := range g.Tags {
		if g.Tags[i].Key == key {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{key, value})
}

// Throw applies a throw and records it.
func (g *Game) Throw(d int) (Outcome, error) {
	c := g.Pos.Turn()
	out, err := g.Pos.Throw(d)
	if err != nil {
		return out, err
	}
	a := Action{Colour: c, Throw: d}
	switch {
	case out.ThirdSix:
		a.Kind = ActThirdSix
	case out.Lost:
		a.Kind = ActNone
	default:
		g.pending = len(g.Actions)
	}
	g.Actions = append(g.Actions, a)
	g.afterAction(c, out)
	return out, nil
}

// Play applies a move (the throw's or a bonus's) and records it.
func (g *Game) Play(m Move) (Outcome, error) {
	c, ph := g.Pos.Turn(), g.Pos.Phase()
	out, err := g.Pos.Play(m)
	if err != nil {
		return out, err
	}
	switch {
	case ph.IsDie() && g.pending >= 0:
		g.Actions[g.pending].Move = m
		g.pending = -1
	case ph.IsDie():
		// The game started in this die phase (a set-up position).
		g.Actions = append(g.Actions, Action{Colour: c, Throw: int(ph), Move: m})
	default:
		g.Actions = append(g.Actions, Action{Colour: c, Bonus: int(ph), Move: m})
	}
	g.afterAction(c, out)
	return out, nil
}

func (g *Game) afterAction(c Colour, out Outcome) {
	if out.BonusLost > 0 {
		g.Actions = append(g.Actions, Action{Kind: ActNone, Colour: c, Bonus: out.BonusLost})
	}
	if out.GameOver {
		if w, ok := g.Pos.Winner(); ok {
			g.SetTag("Result", w.String())
		}
	}
}

// Annotate sets the note of the last action, written between braces.
func (g *Game) Annotate(note string) {
	if n := len(g.Actions); n > 0 && g.Actions[n-1].Kind != ActComment {
		g.Actions[n-1].Note = note
	}
}

// Comment adds a ";" comment line (an infraction, a judge's action).
func (g *Game) Comment(text string) {
	g.Actions = append(g.Actions, Action{Kind: ActComment, Note: strings.ReplaceAll(text, "\n", " ")})
}

// judgeSet starts the comment that records a judge's correction; replay
// sets the position it names.
const judgeSet = "judge set "

// SetPosition replaces the position, as a judge's correction does, and
// records it as a comment that replay understands: "; judge set PPN NOTE".
func (g *Game) SetPosition(pos Position, note string) {
	g.Pos, g.pending = pos, -1
	g.Comment(strings.TrimSpace(judgeSet + pos.String() + " " + note))
}

// WriteTo writes the game record: the required tags first, then any
// others, a blank line, and one line per action.
func (g *Game) WriteTo(w io.Writer) (int64, error) {
	var b []byte
	tag := func(k, v string) {
		b = append(b, '[')
		b = append(b, k...)
		b = append(b, ' ')
		b = strconv.AppendQuote(b, v)
		b = append(b, "]\n"...)
	}
	for _, k := range RequiredTags {
		v := g.Tag(k)
		switch {
		case k == "Start" && v == "":
			v = g.Start.Starter().String()
		case k == "Result" && v == "":
			v = "*"
		}
		tag(k, v)
	}
	for _, t := range g.Tags {
		if !isRequired(t.Key) {
			tag(t.Key, t.Value)
		}
	}
	b = append(b, '\n')
	for _, a := range g.Actions {
		b = append(a.AppendText(b), '\n')
	}
	n, err := w.Write(b)
	return int64(n), err
}

func isRequired(k string) bool {
	for _, r := range RequiredTags {
		if r == k {
			return true
		}
	}
	return false
}

// RecordError reports the first problem in a game record, with its line.
type RecordError struct {
	Line int
	Text string // the line as read
	Err  error
}

func (e *RecordError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("line %d: %q: %v", e.Line, e.Text, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// MaxRecordLine bounds a game record's line.
const MaxRecordLine = 1 << 20

// scanError names a line too long as such.
func scanError(err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("line longer than %d bytes: %w", MaxRecordLine, err)
	}
	return err
}

// ReadRecord reads a game record and replays it with the rules. The error
// of a record with a problem is a *RecordError naming the first bad line;
// for an illegal action it wraps a *RuleError saying which rule is broken.
// A "Setup" tag, when present, holds the PPN the game started from.
func ReadRecord(r io.Reader) (*Game, error) { return ReadRecordFunc(r, nil) }

// ReadRecordFunc is ReadRecord calling after, when not nil, with each
// action or comment line of the record (its number and text) and the
// position after it, as the line is replayed.
func ReadRecordFunc(r io.Reader, after func(line int, text string, pos Position)) (*Game, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxRecordLine)
	line := 0
	g := &Game{pending: -1}
	seen := map[string]int{}
	// Header.
	for sc.Scan() {
		line++
		t := strings.TrimRight(sc.Text(), "\r")
		if t == "" {
			break
		}
		if line == 1 {
			t = strings.TrimPrefix(t, "\ufeff")
		}
		k, v, err := parseTag(t)
		if err != nil {
			return nil, &RecordError{Line: line, Text: t, Err: err}
		}
		if _, dup := seen[k]; dup {
			return nil, &RecordError{Line: line, Text: t, Err: fmt.Errorf("tag %s given twice", k)}
		}
		seen[k] = line
		g.Tags = append(g.Tags, Tag{k, v})
	}
	if err := sc.Err(); err != nil {
		return nil, &RecordError{Line: line + 1, Err: scanError(err)}
	}
	for _, k := range RequiredTags {
		if _, ok := seen[k]; !ok {
			return nil, &RecordError{Line: line, Err: fmt.Errorf("header lacks the tag %s", k)}
		}
	}
	starter, err := ParseColour(g.Tag("Start"))
	if err != nil {
		return nil, &RecordError{Line: seen["Start"], Err: fmt.Errorf("tag Start: %w", err)}
	}
	g.Start = NewPosition(starter)
	if setup := g.Tag("Setup"); setup != "" {
		if g.Start, err = ParsePPN(setup); err != nil {
			return nil, &RecordError{Line: seen["Setup"], Err: fmt.Errorf("tag Setup: %w", err)}
		}
		if g.Start.Starter() != starter {
			return nil, &RecordError{Line: seen["Setup"], Err: fmt.Errorf("tag Setup has starter %s but Start is %s", g.Start.Starter(), starter)}
		}
	}
	g.Pos = g.Start
	// A throw or bonus that cannot be played is resolved, as in play.
	g.Pos.Settle()
	result := g.Tag("Result")
	if result != "*" {
		if _, err := ParsePair(result); err != nil {
			return nil, &RecordError{Line: seen["Result"], Err: fmt.Errorf("tag Result: %q: want YR, BG or *", result)}
		}
	}
	// Actions.
	var forfeit lostBonus // a bonus just lost, which the record may state
	for sc.Scan() {
		line++
		t := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(t) == "" {
			continue
		}
		if strings.HasPrefix(t, ";") {
			note := strings.TrimSpace(t[1:])
			if rest, ok := strings.CutPrefix(note, judgeSet); ok {
				f := strings.Fields(rest)
				if len(f) < 6 {
					return nil, &RecordError{Line: line, Text: t, Err: errors.New("a judge's correction needs a whole PPN")}
				}
				pos, err := ParsePPN(strings.Join(f[:6], " "))
				if err != nil {
					return nil, &RecordError{Line: line, Text: t, Err: fmt.Errorf("judge's correction: %w", err)}
				}
				g.Pos, g.pending, forfeit = pos, -1, lostBonus{}
				g.Pos.Settle()
			}
			g.Actions = append(g.Actions, Action{Kind: ActComment, Note: note})
			if after != nil {
				after(line, t, g.Pos)
			}
			continue
		}
		a, err := parseAction(t)
		if err != nil {
			return nil, &RecordError{Line: line, Text: t, Err: err}
		}
		if err := g.replay(a, &forfeit); err != nil {
			return nil, &RecordError{Line: line, Text: t, Err: err}
		}
		if after != nil {
			after(line, t, g.Pos)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &RecordError{Line: line + 1, Err: scanError(err)}
	}
	if g.pending >= 0 {
		return nil, &RecordError{Line: line, Err: errors.New("the record ends before the last throw is played")}
	}
	w, over := g.Pos.Winner()
	switch {
	case over && result != w.String():
		return nil, &RecordError{Line: seen["Result"], Err: fmt.Errorf("tag Result is %s but the game ends with %s winning", result, w)}
	case !over && result != "*":
		return nil, &RecordError{Line: seen["Result"], Err: fmt.Errorf("tag Result is %s but the game is not over", result)}
	}
	return g, nil
}

// lostBonus is a bonus that a player has just lost.
type lostBonus struct {
	colour Colour
	bonus  int
}

// replay applies one parsed action line.
func (g *Game) replay(a Action, forfeit *lostBonus) error {
	lost := *forfeit
	*forfeit = lostBonus{}
	if a.Throw == 0 && a.Kind == ActNone {
		if lost.bonus != a.Bonus || lost.colour != a.Colour {
			return fmt.Errorf("%s lost no bonus of %d just now", a.Colour.Name(), a.Bonus)
		}
		g.Actions = append(g.Actions, a)
		return nil
	}
	if a.Colour != g.Pos.Turn() || g.Pos.Phase() == PhaseEnd {
		return &RuleError{Rule: RuleOutOfTurn, Ref: "§3", Reason: g.turnReason()}
	}
	var out Outcome
	var err error
	if a.Throw > 0 && g.Pos.Phase().IsDie() && g.Pos.Phase() == Phase(a.Throw) {
		// A game set up (or corrected by a judge) in a die phase: the
		// line states the throw already made.
		if a.Kind != ActMove {
			return fmt.Errorf("the throw must be played")
		}
	} else if a.Throw > 0 {
		if out, err = g.Pos.Throw(a.Throw); err != nil {
			return err
		}
		switch {
		case out.ThirdSix && a.Kind != ActThirdSix:
			return errors.New("a third 6 is resolved by the rules: write !")
		case out.Lost && a.Kind != ActNone:
			return fmt.Errorf("the throw has no legal move: write -")
		case !out.ThirdSix && !out.Lost && a.Kind != ActMove:
			var ml MoveList
			g.Pos.LegalMoves(&ml)
			return fmt.Errorf("the throw must be played (legal: %s)", &ml)
		}
	} else {
		if g.Pos.Phase() != Phase(a.Bonus) {
			return &RuleError{Rule: RuleIllegalMove, Ref: "§7", Reason: fmt.Sprintf("no bonus of %d is due: the phase is %s", a.Bonus, g.Pos.Phase())}
		}
		if a.Kind != ActMove {
			return fmt.Errorf("the bonus can be played, so it must be (§7)")
		}
	}
	if a.Kind == ActMove {
		if out, err = g.Pos.Play(a.Move); err != nil {
			return err
		}
		*forfeit = lostBonus{a.Colour, out.BonusLost}
	}
	g.Actions = append(g.Actions, a)
	return nil
}

func (g *Game) turnReason() string {
	if g.Pos.Phase() == PhaseEnd {
		return "the game is over"
	}
	return fmt.Sprintf("it is %s's turn", g.Pos.Turn().Name())
}

func parseTag(t string) (key, value string, err error) {
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return "", "", errors.New(`want a header line [Key "value"] or a blank line before the actions`)
	}
	key, q, ok := strings.Cut(t[1:len(t)-1], " ")
	if !ok || key == "" {
		return "", "", errors.New(`want [Key "value"]`)
	}
	if value, err = strconv.Unquote(q); err != nil || !strings.HasPrefix(q, `"`) {
		return "", "", fmt.Errorf("tag %s: the value must be in double quotes", key)
	}
	return key, value, nil
}

// parseAction parses COLOUR THROW-OR-BONUS MOVE-OR-DASH [{note}].
func parseAction(t string) (Action, error) {
	var a Action
	body, note, hasNote := strings.Cut(t, "{")
	if hasNote {
		if !strings.HasSuffix(note, "}") {
			return a, errors.New("a note opened with { must end the line with }")
		}
		a.Note = note[:len(note)-1]
	}
	f := strings.Fields(body)
	if len(f) != 3 {
		return a, errors.New("want COLOUR THROW-OR-BONUS MOVE-OR-DASH, e.g. Y 5 YH-5")
	}
	c, err := ParseColour(f[0])
	if err != nil {
		return a, err
	}
	a.Colour = c
	switch v := f[1]; {
	case v == "+10" || v == "+20":
		a.Bonus = int(v[1]-'0') * 10
	case len(v) == 1 && v[0] >= '1' && v[0] <= '6':
		a.Throw = int(v[0] - '0')
	default:
		return a, fmt.Errorf("bad throw or bonus %q: want 1…6, +10 or +20", v)
	}
	switch f[2] {
	case "-":
		a.Kind = ActNone
	case "!":
		if a.Throw != 6 {
			return a, errors.New("! marks only a third 6")
		}
		a.Kind = ActThirdSix
	default:
		if a.Move, err = ParseMove(f[2]); err != nil {
			return a, err
		}
	}
	return a, nil
}
