package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/termboard"
)

// recentEvents is how many events the screen lists under the board.
const recentEvents = 6

// screen draws the simulated board and its lights on standard output, at
// most a few times a second: in a terminal, the board as it looks on the
// table (termboard); down a pipe, the plain text form, one block a draw.
type screen struct {
	w io.Writer
	// board is true in a terminal: the board's drawing, else text.
	board bool
	// term is the terminal, asked for its size at each drawing (it may
	// have been resized); cols and rows are set instead when it is nil.
	term   *os.File
	cols   int
	rows   int
	lang   termboard.Lang
	header []string

	last    time.Time
	recent  []referee.Event
	showing *referee.Event
	said    []string
	// What was drawn last, to draw again with new words.
	pieces   board.Snapshot
	lights   board.Frame
	position string
}

// newScreen returns the screen for w: the board's drawing when w is a
// terminal, else the text form.
func newScreen(w io.Writer, lang termboard.Lang, header []string) *screen {
	f, ok := w.(*os.File)
	s := &screen{w: w, board: ok && isTerminal(f), lang: lang, header: header}
	if s.board {
		s.term = f
	}
	return s
}

// note keeps the last events and the infraction or mismatch the table is
// showing: it stays until the board is right again (resolved), a move or
// a throw is accepted after it, or the game is set or restarted.
func (s *screen) note(events []referee.Event) {
	for _, e := range events {
		s.recent = append(s.recent, e)
		switch e.Type {
		case referee.EventInfraction, referee.EventMismatch:
			// A mismatch that follows an infraction is the same fault on
			// the board: the infraction says more.
			if e.Type == referee.EventInfraction || s.showing == nil {
				e := e
				s.showing = &e
			}
		case referee.EventResolved, referee.EventMove, referee.EventThrow, referee.EventStart, referee.EventCorrection, referee.EventResult:
			s.showing = nil
		}
	}
	if n := len(s.recent); n > recentEvents {
		s.recent = append(s.recent[:0], s.recent[n-recentEvents:]...)
	}
}

// draw shows the pieces and lights with the events of one update.
func (s *screen) draw(pieces *board.Snapshot, lights *board.Frame, position string, events []referee.Event) error {
	s.note(events)
	s.pieces, s.lights, s.position = *pieces, *lights, position
	if time.Since(s.last) < 150*time.Millisecond && len(events) == 0 {
		return nil
	}
	return s.redraw(events)
}

// say shows lines under the board (in a terminal) or writes them (down a
// pipe) until the next say.
func (s *screen) say(lines []string) error {
	s.said = lines
	if !s.board {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString("» " + l + "\n")
		}
		_, err := io.WriteString(s.w, b.String())
		return err
	}
	return s.redraw(nil)
}

// redraw draws the last pieces and lights again, with the events new
// since the last draw.
func (s *screen) redraw(events []referee.Event) error {
	s.last = time.Now()
	pieces, lights, position := &s.pieces, &s.lights, s.position
	var b strings.Builder
	if s.board {
		if s.term != nil {
			s.cols, s.rows = terminalSize(s.term)
		}
		var frame strings.Builder
		v := termboard.View{Header: s.header, Pieces: pieces, Lights: lights, Showing: s.showing, Events: s.recent, Say: s.said}
		if err := termboard.Render(&frame, &v, termboard.Opts{Columns: s.cols, Rows: s.rows, Lang: s.lang}); err != nil {
			return err
		}
		// Drawn over the last frame from the top, each line cleared to its
		// end and the screen below the frame cleared: clearing the whole
		// screen first would flicker.
		b.WriteString("\x1b[H")
		b.WriteString(strings.ReplaceAll(frame.String(), "\n", "\x1b[K\n"))
		b.WriteString("\x1b[J")
	} else {
		if err := sim.Render(&b, pieces, lights, sim.RenderOpts{}); err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s: %s\n", s.lang.Pick("position", "posición"), position)
		for _, e := range events {
			b.WriteString(eventText(spanish.Lang(s.lang), e) + "\n")
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}

// eventText is an event's line in the text form: its fields as the feed
// has them, its detail in lang.
func eventText(lang spanish.Lang, e referee.Event) string {
	rule := ""
	if e.Rule != "" {
		rule = " [" + e.Rule + "]"
	}
	return strings.TrimSpace(fmt.Sprintf("%5d %-10s %s %s%s%s %s", e.Seq, e.Type, e.Colour, e.Throw, e.Move, rule, lang.Say(e.Detail)))
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// terminalSize returns the terminal's width and height: $COLUMNS and
// $LINES when set, else what the terminal says, else 80 columns and an
// unknown height (0).
func terminalSize(f *os.File) (cols, rows int) {
	cols, rows = windowSize(f)
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		cols = n
	}
	if n, err := strconv.Atoi(os.Getenv("LINES")); err == nil && n > 0 {
		rows = n
	}
	if cols <= 0 {
		cols = 80
	}
	return cols, rows
}

// langFromEnv is the language of the locale (termboard.LocaleLang).
func langFromEnv() termboard.Lang { return termboard.LocaleLang() }
