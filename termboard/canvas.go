package termboard

import (
	"fmt"
	"strings"

	"github.com/parchis-table/parchis/board"
)

// style is how one character is shown.
type style struct {
	fg, bg       board.RGB
	hasFG, hasBG bool
	bold, blink  bool
}

type char struct {
	r rune
	s style
}

// canvas is a grid of styled characters, written out with ANSI escapes
// that change only where the style does.
type canvas struct {
	w, h int
	c    []char
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w, h: h, c: make([]char, w*h)}
	for i := range c.c {
		c.c[i].r = ' '
	}
	return c
}

func (c *canvas) set(x, y int, r rune, s style) {
	if x >= 0 && x < c.w && y >= 0 && y < c.h {
		c.c[y*c.w+x] = char{r, s}
	}
}

// text writes s from (x, y), one cell per rune.
func (c *canvas) text(x, y int, s string, st style) {
	for _, r := range s {
		c.set(x, y, r, st)
		x++
	}
}

// background changes the background of a span without touching its runes;
// a blinking light makes the span blink.
func (c *canvas) background(x, y, n int, bg board.RGB, blink bool) {
	for i := range n {
		if x+i >= 0 && x+i < c.w && y >= 0 && y < c.h {
			ch := &c.c[y*c.w+x+i]
			ch.s.bg, ch.s.hasBG = bg, true
			ch.s.blink = ch.s.blink || blink
		}
	}
}

// box draws a rounded box of Unicode line characters.
func (c *canvas) box(x0, y0, x1, y1 int, st style) {
	for x := x0 + 1; x < x1; x++ {
		c.set(x, y0, '─', st)
		c.set(x, y1, '─', st)
	}
	for y := y0 + 1; y < y1; y++ {
		c.set(x0, y, '│', st)
		c.set(x1, y, '│', st)
	}
	c.set(x0, y0, '╭', st)
	c.set(x1, y0, '╮', st)
	c.set(x0, y1, '╰', st)
	c.set(x1, y1, '╯', st)
}

// write appends the canvas to b, each line without trailing blanks.
func (c *canvas) write(b *strings.Builder) {
	for y := 0; y < c.h; y++ {
		row := c.c[y*c.w : (y+1)*c.w]
		end := len(row)
		for end > 0 && row[end-1].r == ' ' && row[end-1].s == (style{}) {
			end--
		}
		var cur style
		for _, ch := range row[:end] {
			if ch.s != cur {
				b.WriteString(sgr(ch.s))
				cur = ch.s
			}
			b.WriteRune(ch.r)
		}
		if cur != (style{}) {
			b.WriteString("\x1b[0m")
		}
		b.WriteByte('\n')
	}
}

// sgr returns the escape sequence that sets style s from scratch.
func sgr(s style) string {
	var b strings.Builder
	b.WriteString("\x1b[0")
	if s.bold {
		b.WriteString(";1")
	}
	if s.blink {
		b.WriteString(";5")
	}
	if s.hasFG {
		fmt.Fprintf(&b, ";38;2;%d;%d;%d", s.fg.R, s.fg.G, s.fg.B)
	}
	if s.hasBG {
		fmt.Fprintf(&b, ";48;2;%d;%d;%d", s.bg.R, s.bg.G, s.bg.B)
	}
	b.WriteString("m")
	return b.String()
}

// scale dims a colour to f of its brightness.
func scale(c board.RGB, f float64) board.RGB {
	return board.RGB{R: uint8(float64(c.R) * f), G: uint8(float64(c.G) * f), B: uint8(float64(c.B) * f)}
}

// bright reports whether dark text reads better than light text on c.
func bright(c board.RGB) bool { return int(c.R)*299+int(c.G)*587+int(c.B)*114 > 128000 }

// VisibleWidth returns how many terminal columns s takes: its runes
// without the ANSI escape sequences.
func VisibleWidth(s string) int {
	n := 0
	esc := false
	for _, r := range s {
		switch {
		case esc:
			if r >= '@' && r <= '~' && r != '[' {
				esc = false
			}
		case r == '\x1b':
			esc = true
		default:
			n++
		}
	}
	return n
}
