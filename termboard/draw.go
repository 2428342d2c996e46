// Package termboard draws the parchís board in a terminal as it looks on
// the table: the cross of the track with the home columns running to the
// goals in the centre, the homes in the corners, the pieces as coloured
// discs and the lights under the sites; below it a one-line legend of the
// lights in use, the infraction the table is showing and the last events,
// in Spanish or English. It does no I/O of its own: Render writes to the
// writer it is given.
package termboard

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// WideColumns is the terminal width from which the board is drawn with
// wide cells that show a square's number next to its pieces.
const WideColumns = 120

// View is what one screen shows.
type View struct {
	// Header lines go above the board (what runs, where, how to stop).
	Header []string
	// Pieces is where the pieces stand.
	Pieces *board.Snapshot
	// Lights is what the lights show.
	Lights *board.Frame
	// Showing is the infraction or mismatch the lights show now, if any.
	Showing *referee.Event
	// Events are the last events, oldest first.
	Events []referee.Event
	// Say are lines to stand out under the board (the tour's words).
	Say []string
}

// Opts sets how a view is drawn.
type Opts struct {
	// Columns is the terminal's width: from WideColumns the cells are
	// wide, else the board fits in 80 columns.
	Columns int
	// Lang is the language of the words.
	Lang Lang
	// Rows is the terminal's height, 0 when unknown. A screen taller than
	// Rows-1 lines (the last row stays free, or the terminal scrolls)
	// leaves out the oldest events first, then the header, then the line
	// of the fault shown; the board and the tour's words always stay.
	Rows int
}

// boardLines is the height of the board with its tray and legend lines.
const boardLines = gridSize + 2

// Render draws v as a whole screen of text with ANSI colours; every line
// fits in o.Columns (at least 80) and, when o.Rows is known, the screen in
// o.Rows-1 lines as far as the board and the tour's words allow.
func Render(w io.Writer, v *View, o Opts) error {
	cols := max(o.Columns, 80)
	cw := 4
	if cols >= WideColumns {
		cw = 6
	}
	header, events, showing := v.Header, v.Events, true
	if o.Rows > 0 {
		room := o.Rows - 1 - boardLines - len(v.Say)
		showing = room > 0
		room = max(room-1, 0)
		header = header[:min(len(header), room)]
		room -= len(header)
		events = events[len(events)-min(len(events), room):]
	}
	var b strings.Builder
	for _, h := range header {
		b.WriteString(clip(h, cols) + "\n")
	}
	cv := newCanvas(gridSize*cw, gridSize)
	drawHomes(cv, v, cw, o.Lang)
	for y := range gridSize {
		for x := range gridSize {
			switch g := grid[y][x]; g.kind {
			case cellSite:
				drawSite(cv, x*cw, y, cw, g.site, v)
			case cellCentre:
				cv.text(x*cw+(cw-1)/2, y, "★", style{fg: board.RGB{R: 200, G: 200, B: 200}, hasFG: true})
			}
		}
	}
	cv.write(&b)
	b.WriteString(trayLine(v.Lights, o.Lang) + "\n")
	b.WriteString(legend(v.Lights, o.Lang, cols) + "\n")
	switch {
	case !showing:
	case v.Showing != nil:
		b.WriteString(clip(o.Lang.Pick("The table shows: ", "La mesa señala: ")+o.Lang.EventLine(*v.Showing), cols) + "\n")
	default:
		b.WriteString(o.Lang.Pick("The table shows no fault.", "La mesa no señala ninguna falta.") + "\n")
	}
	for _, l := range v.Say {
		b.WriteString("\x1b[1m" + clip(l, cols) + "\x1b[0m\n")
	}
	for _, e := range events {
		b.WriteString(clip(fmt.Sprintf("%5d  %s", e.Seq, o.Lang.EventLine(e)), cols) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// clip cuts a line of plain text to n columns, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

var (
	grey     = board.RGB{R: 150, G: 150, B: 150}
	safeGrey = board.RGB{R: 230, G: 230, B: 230}
	neutral  = board.RGB{R: 235, G: 235, B: 235}
)

// mark is the character that tells a light's pattern without colour.
func mark(p board.Pattern) rune {
	switch p {
	case board.Pulse:
		return '~'
	case board.Blink:
		return '!'
	}
	return ' '
}

// discs returns the pieces on a site as coloured discs, by colour; a
// reading without colours gives white discs.
func discs(r *board.Reading) []char {
	var out []char
	if !r.Coloured {
		for range r.Count {
			out = append(out, char{'●', style{fg: neutral, hasFG: true}})
		}
		return out
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for range r.ByColour[c] {
			out = append(out, char{'●', style{fg: referee.PlayerColours[c], hasFG: true, bold: true}})
		}
	}
	return out
}

// drawSite draws one site's cell at (x, y): its name, or its pieces, with
// its light as the background and its pattern as the marks at its edges.
func drawSite(cv *canvas, x, y, cw int, s engine.Site, v *View) {
	label := s.String()
	lst := style{fg: grey, hasFG: true}
	switch {
	case s.Safe():
		lst = style{fg: safeGrey, hasFG: true, bold: true}
	case s >= engine.TrackLen:
		c, _ := engine.ParseColour(label[:1])
		lst = style{fg: scale(referee.PlayerColours[c], 0.7), hasFG: true}
	}
	pcs := discs(&v.Pieces.Sites[s])
	l := v.Lights.Sites[s]
	m := mark(l.Pattern)
	cv.set(x, y, m, style{})
	cv.set(x+cw-1, y, m, style{})
	inner := x + 1
	n := cw - 2
	switch {
	case len(pcs) > n:
		// A goal with more pieces than fit between the marks.
		inner, n = x, cw
	case len(pcs) > 2:
		// A goal in a wide cell: its pieces fill it.
	case cw > 4:
		cv.text(inner, y, fmt.Sprintf("%2s", label), lst)
		inner, n = inner+2, n-2
	}
	switch {
	case len(pcs) > 0:
		for i, p := range pcs[:min(len(pcs), n)] {
			cv.set(inner+i, y, p.r, p.s)
		}
	case cw == 4:
		cv.text(inner, y, fmt.Sprintf("%2s", label), lst)
	}
	if l.Pattern != board.Off {
		bg := scale(l.Colour, 0.6)
		cv.background(x, y, cw, bg, l.Pattern == board.Blink)
		for i := range cw {
			ch := &cv.c[y*cv.w+x+i]
			if ch.s.fg == grey || ch.s.fg == safeGrey || !ch.s.hasFG {
				ch.s.fg, ch.s.hasFG = board.RGB{}, true
				if !bright(bg) {
					ch.s.fg = board.RGB{R: 255, G: 255, B: 255}
				}
			}
		}
	}
}

// drawHomes draws each colour's home in its corner: a box in its colour
// (in its light's colour when lit), its name and the pieces in it.
func drawHomes(cv *canvas, v *View, cw int, lang Lang) {
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		hx, hy := homeCorner[c][0]*cw, homeCorner[c][1]
		x0, x1 := hx+1, hx+armLen*cw-2
		y0, y1 := hy+1, hy+armLen-2
		home := engine.HomeSite(c)
		l := v.Lights.Sites[home]
		bst := style{fg: scale(referee.PlayerColours[c], 0.8), hasFG: true}
		if l.Pattern != board.Off {
			bst = style{fg: l.Colour, hasFG: true, bold: true, blink: l.Pattern == board.Blink}
		}
		cv.box(x0, y0, x1, y1, bst)
		mid := (x0 + x1) / 2
		name := strings.ToUpper(lang.ColourName(c))
		cv.text(mid-utf8.RuneCountInString(name)/2, y0+2, name, style{fg: referee.PlayerColours[c], hasFG: true, bold: true})
		pcs := discs(&v.Pieces.Sites[home])
		px := mid - len(pcs)
		for i, p := range pcs {
			cv.set(px+2*i, y0+3, p.r, p.s)
		}
		if l.Pattern != board.Off {
			m := mark(l.Pattern)
			cv.set(x0+2, y0+2, m, bst)
			cv.set(x1-2, y0+2, m, bst)
			for y := y0 + 1; y < y1; y++ {
				cv.background(x0+1, y, x1-x0-1, scale(l.Colour, 0.35), false)
			}
		}
	}
}

// trayLine draws the lights around the dice tray.
func trayLine(f *board.Frame, lang Lang) string {
	var b strings.Builder
	b.WriteString(lang.Pick("dice tray ", "bandeja   "))
	for _, l := range f.Tray {
		if l.Pattern == board.Off {
			b.WriteString("\x1b[0;38;2;90;90;90m○\x1b[0m")
			continue
		}
		b.WriteString(sgr(style{fg: l.Colour, hasFG: true, blink: l.Pattern == board.Blink}) + "●\x1b[0m")
	}
	if len(f.Tray) > 0 {
		b.WriteString(" " + string(mark(f.Tray[0].Pattern)))
	}
	return strings.TrimRight(b.String(), " ")
}

// classify says what a light means, from its colour, its pattern and the
// site it is under (tray lights are classified with site < 0).
func classify(site int, l board.Light) (meaning, bool) {
	player := -1
	for c, rgb := range referee.PlayerColours {
		if rgb == l.Colour {
			player = c
		}
	}
	home := site >= int(engine.HomeSite(0))
	goal := false
	if site >= 0 && !home {
		s := engine.Site(site)
		for c := engine.Colour(0); c < engine.NumColours; c++ {
			goal = goal || s == engine.GoalSite(c)
		}
	}
	switch {
	case l.Pattern == board.Off:
		return 0, false
	case l.Colour == referee.ColourWhite && l.Pattern == board.Pulse:
		return meanMayGo, true
	case l.Colour == referee.ColourWhite:
		return meanMayMove, true
	case l.Colour == referee.ColourOrange:
		return meanOwed, true
	case l.Colour == referee.ColourViolet:
		return meanProvisional, true
	case l.Colour == referee.ColourMagenta && site < 0:
		return meanRethrow, true
	case l.Colour == referee.ColourMagenta:
		return meanWrong, true
	case player >= 0 && goal:
		return meanWinners, true
	case player >= 0 && (home || site < 0):
		return meanTurn, true
	case player >= 0 && l.Pattern == board.Pulse:
		// A robot partner's move: the square its piece goes to.
		return meanRobotTo, true
	case player >= 0:
		return meanMissing, true
	}
	return 0, false
}

// legend returns one line naming the lights in use, each after a swatch
// of its colour, cut to cols columns.
func legend(f *board.Frame, lang Lang, cols int) string {
	var seen [numMeanings]bool
	var swatch [numMeanings]board.RGB
	note := func(site int, l board.Light) {
		if m, ok := classify(site, l); ok && !seen[m] {
			seen[m], swatch[m] = true, l.Colour
		}
	}
	for s, l := range f.Sites {
		note(s, l)
	}
	for _, l := range f.Tray {
		note(-1, l)
	}
	var b strings.Builder
	width := 0
	add := func(s string, w int) bool {
		if width+w > cols {
			return false
		}
		b.WriteString(s)
		width += w
		return true
	}
	add(lang.Pick("lights: ", "luces: "), 8)
	shown := false
	for m := range numMeanings {
		if !seen[m] {
			continue
		}
		words := lang.Pick(meaningWords[m][0], meaningWords[m][1])
		sep := ""
		if shown {
			sep = "  "
		}
		if !add(sep+sgr(style{fg: swatch[m], hasFG: true})+"■\x1b[0m "+words, len(sep)+2+utf8.RuneCountInString(words)) {
			break
		}
		shown = true
	}
	if !shown {
		add(lang.Pick("none", "ninguna"), 7)
	}
	return b.String()
}
