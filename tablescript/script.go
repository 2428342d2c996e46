// Package tablescript reads and writes table scripts: plain text, one
// observation of the table a line (DESIGN.md), that feed the referee
// instead of hardware — for tests, the simulated table, disputes, and the
// daemon's journal, which records every referee input as a script line.
//
//	opening Y3 B5 R5 G2 B6 R1   opening throws (or: start Y)
//	setup <PPN>                 pieces placed as in that position, game starts there
//	players Ana Bea Carla Dani  names of Yellow, Blue, Red, Green for the next start
//	robots - - - greedy         robot partners of the next start's game: a bot level a colour, - a person
//	sensors colours             what the sensors tell: presence, counts or colours
//	at 0.0 throw 5              the die came to rest showing 5
//	at 0.4 throw edge           a die on its edge (also none, multi, unsure, suspicious)
//	at 1.2 lift YH              one piece lifted from a site (colour optional)
//	at 1.9 place 5 Y            one piece put on a site (colour if the sensors know it)
//	at 2.0 board 5:Y,YH:YYY,…   a whole stable snapshot (colours, or counts 5:1)
//	at 2.5 timer                the grace time ran out with the board still (journals write it)
//	at 9.0 judge set <PPN>      a judge's correction (optionally: by NAME)
//	at 9.5 judge start Y        a judge starts a new game (optionally: by NAME)
//	seq 120                     events go on from number 121 (journals write it)
//
// "at T" (seconds, decimal) may precede any line; lines without it keep the
// last time. Blank lines and lines starting with # are ignored.
//
// A lift or place without a colour means what people mean (Runner): a
// place on a home, column or goal puts that colour's piece, elsewhere the
// piece in hand; a lift from a site of several colours takes the colour
// that the script next places elsewhere, else the side to move's piece.
package tablescript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// Epoch is the time "at 0" stands for. The daemon's journal writes wall
// times as seconds since it (the Unix epoch).
var Epoch = time.Unix(0, 0).UTC()

// Verb is what a script line does.
type Verb string

// The verbs.
const (
	VerbOpening Verb = "opening"
	VerbStart   Verb = "start"
	VerbSetup   Verb = "setup"
	VerbPlayers Verb = "players"
	VerbRobots  Verb = "robots"
	VerbSensors Verb = "sensors"
	VerbThrow   Verb = "throw"
	VerbLift    Verb = "lift"
	VerbPlace   Verb = "place"
	VerbBoard   Verb = "board"
	VerbJudge   Verb = "judge"
	VerbSeq     Verb = "seq"
	VerbTimer   Verb = "timer"
)

// Step is one parsed script line.
type Step struct {
	HasAt bool
	At    time.Duration
	Verb  Verb
	// Site and Colour for lift and place (HasColour when one is given).
	Site      engine.Site
	Colour    engine.Colour
	HasColour bool
	// Throw and Value for throw.
	Throw referee.ThrowKind
	Value int
	// Opening throws; Starter for start and judge start.
	Opening []engine.OpeningThrow
	Starter engine.Colour
	// Position for setup and judge set.
	Position engine.Position
	// Names for players.
	Names [engine.NumColours]string
	// Robots for robots: each colour's bot level (bots.New), "" for a
	// person.
	Robots [engine.NumColours]string
	// Caps for sensors.
	Caps board.Caps
	// Seq for seq.
	Seq uint64
	// Board for board.
	Board board.Snapshot
	// JudgeSet is true for "judge set", false for "judge start"; Judge
	// names the judge.
	JudgeSet bool
	Judge    string
}

// Error is a script line that could not be read: its line number and why.
type Error struct {
	Line int
	Text string
	Err  error
}

func (e *Error) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("line %d: %q: %v", e.Line, e.Text, e.Err)
}
func (e *Error) Unwrap() error { return e.Err }

// MaxSeq is the largest event number a script's seq line may give:
// numbers above 2^53 would lose precision in JSON readers such as
// JavaScript's, and the referee's count could overflow.
const MaxSeq uint64 = 1<<53 - 1<<20

// Clock checks that a script's times never go backwards.
type Clock struct {
	last time.Duration
}

// Check returns an error when st's time is before the last one seen.
func (c *Clock) Check(st Step) error {
	if !st.HasAt {
		return nil
	}
	if st.At < c.last {
		return fmt.Errorf("time goes backwards: at %s after at %s", formatSeconds(st.At), formatSeconds(c.last))
	}
	c.last = st.At
	return nil
}

// ErrLineTooLong is the error of a line longer than MaxLine.
var ErrLineTooLong = fmt.Errorf("line longer than %d bytes", MaxLine)

// MaxLine bounds a script line.
const MaxLine = 1 << 20

// ParseLine parses one script line. It returns ok false for a blank or
// comment line.
func ParseLine(text string) (st Step, ok bool, err error) {
	f := strings.Fields(text)
	if len(f) == 0 || strings.HasPrefix(f[0], "#") {
		return st, false, nil
	}
	if f[0] == "at" {
		if len(f) < 3 {
			return st, false, errors.New("want: at SECONDS VERB …")
		}
		at, err := parseSeconds(f[1])
		if err != nil {
			return st, false, err
		}
		st.HasAt, st.At = true, at
		f = f[2:]
	}
	st.Verb = Verb(f[0])
	args := f[1:]
	want := func(n int, form string) error {
		if len(args) != n {
			return fmt.Errorf("want: %s", form)
		}
		return nil
	}
	switch st.Verb {
	case VerbOpening:
		if len(args) == 0 {
			return st, false, errors.New("want: opening Y3 B5 …")
		}
		for _, a := range args {
			if len(a) != 2 || a[1] < '1' || a[1] > '6' {
				return st, false, fmt.Errorf("bad opening throw %q: want a colour and a value, e.g. Y3", a)
			}
			c, err := engine.ParseColour(a[:1])
			if err != nil {
				return st, false, fmt.Errorf("bad opening throw %q: %w", a, err)
			}
			st.Opening = append(st.Opening, engine.OpeningThrow{Colour: c, Value: int(a[1] - '0')})
		}
	case VerbStart:
		if err := want(1, "start COLOUR"); err != nil {
			return st, false, err
		}
		if st.Starter, err = engine.ParseColour(args[0]); err != nil {
			return st, false, err
		}
	case VerbSetup:
		if err := want(6, "setup PPN (six fields)"); err != nil {
			return st, false, err
		}
		if st.Position, err = engine.ParsePPN(strings.Join(args, " ")); err != nil {
			return st, false, err
		}
	case VerbPlayers:
		if err := want(4, "players YELLOW BLUE RED GREEN (one word each)"); err != nil {
			return st, false, err
		}
		for i, a := range args {
			if a != "-" {
				st.Names[i] = strings.ReplaceAll(a, "_", " ")
			}
		}
	case VerbRobots:
		if err := want(4, "robots YELLOW BLUE RED GREEN (a bot level each: random, greedy, mc or mc:N; - for a person)"); err != nil {
			return st, false, err
		}
		robots := 0
		for i, a := range args {
			if a == "-" {
				continue
			}
			if _, err := bots.New(a, 0); err != nil {
				return st, false, fmt.Errorf("robot %s: %w", engine.Colour(i).Name(), err)
			}
			st.Robots[i] = a
			robots++
		}
		if robots == engine.NumColours {
			return st, false, errors.New("robots: every colour is a robot; a player must make the robots' moves")
		}
	case VerbSensors:
		if err := want(1, "sensors presence|counts|colours"); err != nil {
			return st, false, err
		}
		switch args[0] {
		case "presence":
		case "counts":
			st.Caps = board.Caps{Counts: true}
		case "colours":
			st.Caps = board.Caps{Counts: true, Colours: true}
		default:
			return st, false, fmt.Errorf("bad sensors %q: want presence, counts or colours", args[0])
		}
	case VerbThrow:
		if err := want(1, "throw 1…6|edge|none|multi|unsure|suspicious"); err != nil {
			return st, false, err
		}
		if k, ok := referee.ParseThrowKind(args[0]); ok {
			st.Throw = k
		} else if len(args[0]) == 1 && args[0][0] >= '1' && args[0][0] <= '6' {
			st.Value = int(args[0][0] - '0')
		} else {
			return st, false, fmt.Errorf("bad throw %q: want 1…6, edge, none, multi, unsure or suspicious", args[0])
		}
	case VerbLift, VerbPlace:
		if len(args) < 1 || len(args) > 2 {
			return st, false, fmt.Errorf("want: %s SITE [COLOUR]", st.Verb)
		}
		if st.Site, err = engine.ParseSite(args[0]); err != nil {
			return st, false, err
		}
		if len(args) == 2 {
			if st.Colour, err = engine.ParseColour(args[1]); err != nil {
				return st, false, err
			}
			st.HasColour = true
		}
	case VerbTimer:
		if err := want(0, "timer"); err != nil {
			return st, false, err
		}
	case VerbSeq:
		if err := want(1, "seq NUMBER"); err != nil {
			return st, false, err
		}
		if st.Seq, err = strconv.ParseUint(args[0], 10, 64); err != nil {
			return st, false, fmt.Errorf("bad seq %q", args[0])
		}
		if st.Seq > MaxSeq {
			return st, false, fmt.Errorf("seq %d: want at most %d, so that the next events' numbers neither overflow nor lose precision in a JSON reader", st.Seq, MaxSeq)
		}
	case VerbBoard:
		if err := want(1, "board SITE:PIECES,… (or -)"); err != nil {
			return st, false, err
		}
		if st.Board, err = ParseBoard(args[0]); err != nil {
			return st, false, err
		}
	case VerbJudge:
		if len(args) >= 2 && args[len(args)-2] == "by" {
			st.Judge = args[len(args)-1]
			args = args[:len(args)-2]
		}
		switch {
		case len(args) == 7 && args[0] == "set":
			st.JudgeSet = true
			if st.Position, err = engine.ParsePPN(strings.Join(args[1:], " ")); err != nil {
				return st, false, err
			}
		case len(args) == 2 && args[0] == "start":
			if st.Starter, err = engine.ParseColour(args[1]); err != nil {
				return st, false, err
			}
		default:
			return st, false, errors.New("want: judge set PPN [by NAME], or judge start COLOUR [by NAME]")
		}
	default:
		return st, false, fmt.Errorf("unknown verb %q", st.Verb)
	}
	return st, true, nil
}

// Line is one line of a script, as read by ReadAll.
type Line struct {
	N    int    // its number, from 1
	Text string // as written, without the line ending
	Step Step
	OK   bool  // a step (not blank, not a comment)
	Err  error // why it does not parse, or nil
}

// Script is a whole script, read before it runs, so that each step can
// look at those that follow (Runner.SetAhead).
type Script struct {
	Lines []Line
	steps []Step // the steps of the lines, up to the first bad one (Line.Err)
	next  []int  // next[i]: the index in steps of the first step after Lines[i]
}

// ReadAll reads every line of a script. A line that does not parse keeps
// its error, for the caller to report when it comes to it; so does a line
// whose time is before the last one (Clock). A line longer than MaxLine
// ends the script with a last Line, at its real number, whose error is
// ErrLineTooLong (without its text); another read error ends it the same
// way. The error returned is always nil: the lines before the bad one
// run first, as they would have had the script been read a line at a
// time.
func ReadAll(r io.Reader) (*Script, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	s := &Script{}
	var clock Clock
	broken := false
	add := func(l Line) {
		broken = broken || l.Err != nil
		if l.OK && !broken {
			s.steps = append(s.steps, l.Step)
		}
		s.Lines = append(s.Lines, l)
		s.next = append(s.next, len(s.steps))
	}
	n := 1
	for ; sc.Scan(); n++ {
		l := Line{N: n, Text: strings.TrimRight(sc.Text(), "\r")}
		l.Step, l.OK, l.Err = ParseLine(l.Text)
		if l.Err == nil && l.OK {
			l.Err = clock.Check(l.Step)
		}
		add(l)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = ErrLineTooLong
		} else {
			err = fmt.Errorf("reading the script: %w", err)
		}
		add(Line{N: n, Err: err})
	}
	return s, nil
}

// Ahead returns the steps after line i (an index into Lines).
func (s *Script) Ahead(i int) []Step { return s.steps[s.next[i]:] }

// parseSeconds reads a decimal number of seconds exactly, to the
// nanosecond, so that journal times replay to the same instants.
func parseSeconds(s string) (time.Duration, error) {
	bad := fmt.Errorf("bad time %q: want seconds, e.g. 1.5", s)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 9 || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" || len(whole) > 11 {
		return 0, bad
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 9e9 {
		return 0, bad
	}
	ns := int64(0)
	if frac != "" {
		ns, _ = strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	}
	return time.Duration(w)*time.Second + time.Duration(ns), nil
}

// formatSeconds writes d as parseSeconds reads it, without trailing zeros.
func formatSeconds(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := strconv.FormatInt(int64(d/time.Second), 10)
	if ns := int64(d % time.Second); ns != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", ns), "0")
	}
	return s
}

// ParseBoard parses a snapshot written as FormatBoard writes it: "-" for
// an empty board, else SITE:PIECES entries in canonical site order, PIECES
// being colour letters (colour-aware sensors) or a count.
func ParseBoard(s string) (board.Snapshot, error) {
	var snap board.Snapshot
	if s == "-" {
		return snap, nil
	}
	prev := -1
	for _, e := range strings.Split(s, ",") {
		name, pieces, ok := strings.Cut(e, ":")
		site, err := engine.ParseSite(name)
		if !ok || err != nil || pieces == "" {
			return snap, fmt.Errorf("bad board entry %q: want SITE:COLOURS or SITE:COUNT", e)
		}
		if int(site) <= prev {
			return snap, fmt.Errorf("bad board entry %q: sites must be in canonical order, each once", e)
		}
		prev = int(site)
		r := &snap.Sites[site]
		if n, err := strconv.Atoi(pieces); err == nil {
			if n < 1 || n > 4 {
				return snap, fmt.Errorf("bad board entry %q: count %d out of 1…4", e, n)
			}
			r.Count = uint8(n)
			continue
		}
		if len(pieces) > 4 {
			return snap, fmt.Errorf("bad board entry %q: more than 4 pieces", e)
		}
		r.Coloured = true
		for i := 0; i < len(pieces); i++ {
			c, err := engine.ParseColour(pieces[i : i+1])
			if err != nil {
				return snap, fmt.Errorf("bad board entry %q: %w", e, err)
			}
			r.ByColour[c]++
			r.Count++
		}
	}
	return snap, nil
}

// FormatBoard writes a snapshot in the form ParseBoard reads.
func FormatBoard(snap *board.Snapshot) string {
	var b strings.Builder
	for i := range snap.Sites {
		r := &snap.Sites[i]
		if r.Count == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(engine.Site(i).String())
		b.WriteByte(':')
		if !r.Coloured {
			b.WriteString(strconv.Itoa(int(r.Count)))
			continue
		}
		for c := engine.Colour(0); c < engine.NumColours; c++ {
			for k := uint8(0); k < r.ByColour[c]; k++ {
				b.WriteByte(c.Letter())
			}
		}
	}
	if b.Len() == 0 {
		return "-"
	}
	return b.String()
}

// FormatSetup writes a set-up step (players, robots, sensors, seq) as a
// line.
func FormatSetup(st Step) string {
	switch st.Verb {
	case VerbPlayers:
		return playersLine(st.Names)
	case VerbRobots:
		line := "robots"
		for _, l := range st.Robots {
			if l == "" {
				l = "-"
			}
			line += " " + l
		}
		return line
	case VerbSensors:
		switch {
		case st.Caps.Colours:
			return "sensors colours"
		case st.Caps.Counts:
			return "sensors counts"
		}
		return "sensors presence"
	case VerbSeq:
		return "seq " + strconv.FormatUint(st.Seq, 10)
	}
	return "# not a set-up step: " + string(st.Verb)
}

func playersLine(names [engine.NumColours]string) string {
	line := "players"
	for _, n := range names {
		if n = strings.Join(strings.Fields(n), "_"); n == "" {
			n = "-"
		}
		line += " " + n
	}
	return line
}

// FormatInput writes a referee input as a script line that parses back to
// the same input (with "players" and "sensors" lines set separately).
func FormatInput(in referee.Input) string {
	at := "at " + formatSeconds(in.At.Sub(Epoch)) + " "
	players := ""
	if in.Players != ([engine.NumColours]string{}) {
		players = playersLine(in.Players) + "\n"
	}
	by := ""
	if in.Judge != "" {
		by = " by " + in.Judge
	}
	switch in.Kind {
	case referee.InputBoard:
		return at + "board " + FormatBoard(&in.Board)
	case referee.InputThrow:
		if in.Throw == referee.ThrowValue {
			return at + "throw " + strconv.Itoa(in.Value)
		}
		return at + "throw " + in.Throw.String()
	case referee.InputStart:
		if in.Judge != "" {
			return players + at + "judge start " + in.Starter.String() + by
		}
		return players + at + "start " + in.Starter.String()
	case referee.InputOpening:
		var b strings.Builder
		b.WriteString(players + at + "opening")
		for _, t := range in.Opening {
			fmt.Fprintf(&b, " %s%d", t.Colour, t.Value)
		}
		return b.String()
	case referee.InputSetup:
		return players + at + "setup " + in.Position.String()
	case referee.InputJudgeSet:
		return at + "judge set " + in.Position.String() + by
	case referee.InputTimer:
		return at + "timer"
	}
	return "# unknown input"
}
