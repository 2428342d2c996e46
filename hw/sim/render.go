package sim

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

// RenderOpts configures Render.
type RenderOpts struct {
	// Colour uses ANSI colours: each site's background is its light, and
	// blinking lights blink (SGR 5). Without it, lights are written as
	// letters after the site: * steady, ! blink, ~ pulse.
	Colour bool
}

// Render draws the board in a terminal: each site's name, its pieces
// (colour letters, or a count when colours are unknown), and its light;
// then the tray lights.
func Render(w io.Writer, snap *board.Snapshot, f *board.Frame, o RenderOpts) error {
	bw := bufio.NewWriter(w)
	row := func(label string, sites []engine.Site) {
		fmt.Fprintf(bw, "%-6s", label)
		for _, s := range sites {
			cell(bw, s.String(), pieces(&snap.Sites[s]), f.Sites[s], o)
		}
		bw.WriteString("\n")
	}
	for r := 0; r < 4; r++ {
		var sites []engine.Site
		for n := 1 + 17*r; n <= 17*(r+1); n++ {
			sites = append(sites, engine.TrackSite(n))
		}
		row(fmt.Sprintf("%d-%d", 1+17*r, 17*(r+1)), sites)
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		var sites []engine.Site
		for i := 1; i <= engine.ColumnLen; i++ {
			sites = append(sites, engine.ColumnSite(c, i))
		}
		sites = append(sites, engine.GoalSite(c), engine.HomeSite(c))
		row(c.Name(), sites)
	}
	fmt.Fprintf(bw, "%-6s", "tray")
	for i, l := range f.Tray {
		cell(bw, fmt.Sprint(i), "", l, o)
	}
	bw.WriteString("\n")
	return bw.Flush()
}

func pieces(r *board.Reading) string {
	if r.Count == 0 {
		return ""
	}
	if !r.Coloured {
		return fmt.Sprint(r.Count)
	}
	var b strings.Builder
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for range r.ByColour[c] {
			b.WriteByte(c.Letter())
		}
	}
	return b.String()
}

func cell(w *bufio.Writer, name, pcs string, l board.Light, o RenderOpts) {
	text := fmt.Sprintf("%3s %-4s", name, pcs)
	if !o.Colour {
		mark := [...]string{" ", "*", "!", "~"}[l.Pattern&3]
		w.WriteString(text + mark)
		return
	}
	if l.Pattern == board.Off {
		w.WriteString(text + " ")
		return
	}
	c := l.Colour
	sgr := fmt.Sprintf("\x1b[48;2;%d;%d;%dm", c.R, c.G, c.B)
	if int(c.R)*299+int(c.G)*587+int(c.B)*114 > 128000 {
		sgr += "\x1b[30m"
	} else {
		sgr += "\x1b[97m"
	}
	switch l.Pattern {
	case board.Blink:
		sgr += "\x1b[5m"
	case board.Pulse:
		sgr += "\x1b[1m"
	}
	w.WriteString(sgr + text + "\x1b[0m ")
}
