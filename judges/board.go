package judges

import (
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
)

// The board is drawn on a 19×19 grid of cells: four arms three cells wide
// and eight long around a 3×3 centre that holds the four goals, and the
// four homes in the corners. Yellow's arm is at the bottom, and the track
// runs anticlockwise on screen: 1…8 up Yellow's arm, 9…16 out along Blue's
// (right), 17 at its tip, and so on to 68 at the tip of Yellow's arm. Each
// colour's home column runs up the middle of its arm to its goal.
const (
	cell      = 24               // pixels per grid cell
	gridCells = 19               // cells across the board
	boardPx   = cell * gridCells // board width and height in pixels
	trayPx    = 22               // height of the strip with the tray lights
	centre    = gridCells * 0.5  // centre of the board in cells
	svgHeight = boardPx + trayPx // whole picture height
	trayLight = 12               // tray lights T0…T11
	pieceR    = cell*0.5 - 3.5   // radius of a piece on a square
	homeR     = cell*0.5 + 2     // radius of a piece at home or in a goal
	viewBox   = "0 0 456 478"    // boardPx × svgHeight
	safeFill  = "#d9d9d9"        // fill of a safe square
	trackFill = "#fffdf6"        // fill of a plain track square
	lineColor = "#5b4a3a"        // lines of the board
	bgColor   = "#f3e9d2"        // the board's wood
	textColor = "#5b4a3a"        // square numbers
	tray0     = "T0"             // the first tray light's name
)

// colourHex are the colours of the pieces, in engine colour order.
var colourHex = [engine.NumColours]string{"#f2c200", "#1f6fd6", "#d62828", "#239b3a"}

// colourLight are the light tints of the home columns and homes.
var colourLight = [engine.NumColours]string{"#fbe98f", "#a9c8f2", "#f2a7a7", "#a6dcb1"}

// pt is a point in cells.
type pt struct{ x, y float64 }

// rot turns a point about the centre by a quarter turn, a times, taking
// Yellow's arm (bottom) to Blue's (right), Red's (top) and Green's (left).
func rot(p pt, a int) pt {
	for ; a > 0; a-- {
		dx, dy := p.x-centre, p.y-centre
		p = pt{centre + dy, centre - dx}
	}
	return p
}

// trackCell returns the centre, in cells, of track square n (1…68).
func trackCell(n int) pt {
	a := ((n + 8) % engine.TrackLen) / 17
	m := (n-17*a-1+2*engine.TrackLen)%engine.TrackLen + 1
	var p pt
	switch {
	case m <= 8:
		p = pt{10.5, float64(19-m) + 0.5}
	case m == 68:
		p = pt{9.5, 18.5}
	default: // 60…67
		p = pt{8.5, float64(m-49) + 0.5}
	}
	return rot(p, a)
}

// columnCell returns the centre of square i (1…7) of colour c's column.
func columnCell(c engine.Colour, i int) pt {
	return rot(pt{9.5, float64(18-i) + 0.5}, int(c))
}

// goalCentre returns the centre of colour c's goal triangle.
func goalCentre(c engine.Colour) pt { return rot(pt{9.5, 10.4}, int(c)) }

// homeCentre returns the centre of colour c's home corner.
func homeCentre(c engine.Colour) pt { return rot(pt{15, 15}, int(c)) }

// siteCentre returns where a site is drawn, in cells.
func siteCentre(s engine.Site) pt {
	switch s.Kind() {
	case engine.Track:
		return trackCell(s.Square())
	case engine.Column:
		return columnCell(s.Owner(), s.Square())
	case engine.Goal:
		return goalCentre(s.Owner())
	}
	return homeCentre(s.Owner())
}

// cellRect returns the top-left corner and the size in pixels of the
// square around centre p (a unit cell).
func cellRect(p pt) (x, y float64) { return (p.x - 0.5) * cell, (p.y - 0.5) * cell }

// trayCentre returns the centre, in pixels, of tray light i.
func trayCentre(i int) (x, y float64) {
	step := float64(boardPx) / trayLight
	return step * (float64(i) + 0.5), boardPx + trayPx*0.5
}

// boardBackground is the static part of the board: arms, squares and their
// numbers, homes and goals. It is the same for every table, so pages hold
// it once and every board refers to it.
var boardBackground = func() string {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f(`<rect width="%d" height="%d" rx="10" fill="%s"/>`, boardPx, svgHeight, bgColor)
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		h := rot(pt{11, 11}, int(c))
		o := rot(pt{19, 19}, int(c))
		x, y := min(h.x, o.x)*cell, min(h.y, o.y)*cell
		f(`<rect x="%g" y="%g" width="%d" height="%d" fill="%s" stroke="%s" stroke-width="1.5"/>`, x, y, 8*cell, 8*cell, colourHex[c], lineColor)
		hc := homeCentre(c)
		f(`<circle cx="%g" cy="%g" r="%g" fill="%s" stroke="%s"/>`, hc.x*cell, hc.y*cell, 2.9*cell, colourLight[c], lineColor)
	}
	// Goals: four triangles meeting in the centre.
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		p1, p2, p3 := rot(pt{8, 11}, int(c)), rot(pt{11, 11}, int(c)), pt{centre, centre}
		f(`<polygon points="%g,%g %g,%g %g,%g" fill="%s" stroke="%s"/>`, p1.x*cell, p1.y*cell, p2.x*cell, p2.y*cell, p3.x*cell, p3.y*cell, colourHex[c], lineColor)
	}
	exits := map[int]engine.Colour{}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		exits[engine.ExitSquare(c).Square()] = c
	}
	for n := 1; n <= engine.TrackLen; n++ {
		p := trackCell(n)
		x, y := cellRect(p)
		fill := trackFill
		if engine.TrackSite(n).Safe() {
			fill = safeFill
		}
		if c, ok := exits[n]; ok {
			fill = colourLight[c]
		}
		f(`<rect x="%g" y="%g" width="%d" height="%d" fill="%s" stroke="%s"/>`, x, y, cell, cell, fill, lineColor)
		if engine.TrackSite(n).Safe() {
			f(`<circle cx="%g" cy="%g" r="%g" fill="none" stroke="%s" stroke-width="0.8" opacity="0.6"/>`, p.x*cell, p.y*cell, cell*0.36, lineColor)
		}
		f(`<text x="%g" y="%g">%d</text>`, p.x*cell, p.y*cell+3, n)
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for i := 1; i <= engine.ColumnLen; i++ {
			x, y := cellRect(columnCell(c, i))
			f(`<rect x="%g" y="%g" width="%d" height="%d" fill="%s" stroke="%s"/>`, x, y, cell, cell, colourLight[c], lineColor)
		}
	}
	f(`<rect x="0" y="%d" width="%d" height="%d" fill="#3b3027"/>`, boardPx, boardPx, trayPx)
	for i := 0; i < trayLight; i++ {
		x, y := trayCentre(i)
		f(`<circle cx="%g" cy="%g" r="4" fill="#6d5c4c"/>`, x, y)
	}
	return b.String()
}()

// BoardDefs returns the SVG defs that boards drawn with BoardOpts.Shared
// refer to: put them once in a page.
func BoardDefs() template.HTML {
	return template.HTML(`<svg class="board-defs" width="0" height="0" aria-hidden="true"><defs>` +
		`<g id="board-bg" font-family="sans-serif" font-size="8" text-anchor="middle" fill="` + textColor + `">` + boardBackground + `</g>` +
		glowFilter + `</defs></svg>`)
}

const glowFilter = `<filter id="glow" x="-60%" y="-60%" width="220%" height="220%"><feGaussianBlur stdDeviation="3"/></filter>`

// BoardOpts says how to draw a board.
type BoardOpts struct {
	// Shared draws the background as a reference to BoardDefs instead of
	// inline, for pages that show many boards.
	Shared bool
	// Title is the picture's accessible title.
	Title string
	// Lights and Mismatch come from the table's state.
	Lights   []broadcast.Light
	Mismatch []string
	// LastMove, a move in NOTATION.md form, is highlighted: a ring on the
	// square it went to, a dashed one where it came from.
	LastMove string
}

// WriteBoard draws position p as an SVG picture: the board, every piece
// out of its home as a circle of its colour on its site (side by side on a
// shared square, in arrival order), the pieces at home in their corner,
// the lit lights as glows and the sites in mismatch outlined. Pieces carry
// data-site and data-colour attributes.
func WriteBoard(w io.Writer, p *engine.Position, o BoardOpts) error {
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f(`<svg class="board" xmlns="http://www.w3.org/2000/svg" viewBox="%s" role="img">`, viewBox)
	if o.Title != "" {
		f(`<title>%s</title>`, template.HTMLEscapeString(o.Title))
	}
	if o.Shared {
		b.WriteString(`<use href="#board-bg"/>`)
	} else {
		f(`<defs>%s</defs><g font-family="sans-serif" font-size="8" text-anchor="middle" fill="%s">%s</g>`, glowFilter, textColor, boardBackground)
	}
	writeLights(&b, o.Lights)
	for _, name := range o.Mismatch {
		s, err := engine.ParseSite(name)
		if err != nil {
			continue
		}
		c := siteCentre(s)
		f(`<circle class="mismatch" cx="%g" cy="%g" r="%g" fill="none" stroke="#e00000" stroke-width="2.5" stroke-dasharray="4 2"/>`, c.x*cell, c.y*cell, cell*0.62)
	}
	if p != nil {
		writePieces(&b, p)
	}
	if m, err := engine.ParseMove(o.LastMove); err == nil {
		from, to := siteCentre(m.From), siteCentre(m.To)
		if m.From.Kind() != engine.Home {
			f(`<circle class="lastmove from" cx="%g" cy="%g" r="%g" fill="none" stroke="#00c853" stroke-width="2" stroke-dasharray="3 2"/>`, from.x*cell, from.y*cell, cell*0.55)
		}
		f(`<circle class="lastmove" cx="%g" cy="%g" r="%g" fill="none" stroke="#00c853" stroke-width="3"/>`, to.x*cell, to.y*cell, cell*0.55)
	}
	b.WriteString(`</svg>`)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeLights draws the lit lights as blurred glows under the pieces.
func writeLights(b *strings.Builder, lights []broadcast.Light) {
	for _, l := range lights {
		col := l.Colour
		if !validHex(col) {
			continue
		}
		var x, y float64
		if i, ok := strings.CutPrefix(l.Site, "T"); ok {
			n, err := strconv.Atoi(i)
			if err != nil || n < 0 || n >= trayLight {
				continue
			}
			x, y = trayCentre(n)
		} else {
			s, err := engine.ParseSite(l.Site)
			if err != nil {
				continue
			}
			c := siteCentre(s)
			x, y = c.x*cell, c.y*cell
		}
		pattern := l.Pattern
		if pattern != "blink" && pattern != "pulse" {
			pattern = "steady"
		}
		fmt.Fprintf(b, `<circle class="light %s" data-site="%s" cx="%g" cy="%g" r="%g" fill="%s" filter="url(#glow)" opacity="0.9"/>`,
			pattern, template.HTMLEscapeString(l.Site), x, y, cell*0.55, col)
	}
}

// validHex reports whether s is a colour written #rrggbb.
func validHex(s string) bool {
	if len(s) != 7 || s[0] != '#' {
		return false
	}
	for _, c := range s[1:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// writePieces draws every piece of p.
func writePieces(b *strings.Builder, p *engine.Position) {
	piece := func(s engine.Site, c engine.Colour, x, y, r float64) {
		fmt.Fprintf(b, `<circle class="piece" data-site="%s" data-colour="%s" cx="%g" cy="%g" r="%g" fill="%s" stroke="#222" stroke-width="1.5"/>`,
			s, c, x, y, r, colourHex[c])
	}
	for s := engine.Site(0); s < engine.NumSites; s++ {
		n, first, second := p.Occupants(s)
		if n == 0 {
			continue
		}
		c := siteCentre(s)
		cx, cy := c.x*cell, c.y*cell
		switch s.Kind() {
		case engine.Track, engine.Column:
			if n == 1 {
				piece(s, first, cx, cy, pieceR)
				continue
			}
			// Two pieces side by side, along the square's length.
			dx, dy := 0.0, cell*0.24
			if horizontalSquare(s) {
				dx, dy = cell*0.24, 0
			}
			piece(s, first, cx-dx, cy-dy, pieceR*0.8)
			piece(s, second, cx+dx, cy+dy, pieceR*0.8)
		case engine.Goal:
			for i := 0; i < n; i++ {
				o := rot(pt{9.5 + 0.55*(float64(i)-float64(n-1)/2), 10.55}, int(s.Owner()))
				piece(s, s.Owner(), o.x*cell, o.y*cell, pieceR*0.75)
			}
		case engine.Home:
			for i := 0; i < n; i++ {
				o := pt{cx + float64(i%2*2-1)*cell*0.8, cy + float64(i/2*2-1)*cell*0.8}
				piece(s, s.Owner(), o.x, o.y, homeR)
			}
		}
	}
}

// horizontalSquare reports whether square s lies on a horizontal arm (Blue's
// or Green's), where two pieces stand side by side left and right.
func horizontalSquare(s engine.Site) bool {
	c := siteCentre(s)
	return c.x < 8 || c.x > 11
}
