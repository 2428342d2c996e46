// Package wiring draws a table's wiring diagrams from its layout
// (config.Layout) as SVG, so that the diagrams of docs/build.md always
// match config/layout.yaml: the sensors — each MCP23017 expander or sensor
// tile with the site on each of its pins — and the LED strip, LED by LED,
// from the Pi through the level shifter, with its power. It also works out
// the strip's power budget at the layout's brightness cap.
package wiring

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
)

// MilliampsPerLED is what one LED of the strip draws at full white (its
// three colours at 255), about 60 mA for APA102 and WS2812 alike.
const MilliampsPerLED = 60

// Budget is the strip's power budget.
type Budget struct {
	LEDs       int
	Brightness int     // the layout's cap, 0…255
	PerLEDmA   float64 // one LED at full white under the cap
	WorstA     float64 // every LED white under the cap, in amperes
	SupplyA    int     // the 5 V supply to buy: WorstA with a quarter spare, whole amperes
}

// PowerBudget works out the strip's worst case at the layout's
// brightness cap: every LED white, which the table never shows (its lights
// light a few sites at once), so the supply never runs hot.
func PowerBudget(lay *config.Layout) Budget {
	b := Budget{LEDs: lay.LEDs.Count, Brightness: lay.LEDs.Brightness}
	b.PerLEDmA = MilliampsPerLED * float64(b.Brightness) / 255
	b.WorstA = b.PerLEDmA * float64(b.LEDs) / 1000
	b.SupplyA = int(b.WorstA*1.25) + 1
	return b
}

// String is the budget in a sentence, as docs/build.md gives it.
func (b Budget) String() string {
	return fmt.Sprintf("%d LEDs × %d mA × %d/255 = %.2f A at most, every LED white at the cap: a 5 V %d A supply",
		b.LEDs, MilliampsPerLED, b.Brightness, b.WorstA, b.SupplyA)
}

// svg writes an SVG document with fixed styles.
type svg struct {
	w   io.Writer
	err error
}

func (s *svg) printf(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

func esc(t string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(t)
}

func (s *svg) start(width, height int, title string) {
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, sans-serif" font-size="11">
<title>%s</title>
<rect width="100%%" height="100%%" fill="#ffffff"/>
`, width, height, width, height, esc(title))
}

func (s *svg) text(x, y int, anchor, weight, t string) {
	s.printf(`<text x="%d" y="%d" text-anchor="%s" font-weight="%s">%s</text>
`, x, y, anchor, weight, esc(t))
}

func (s *svg) box(x, y, w, h int, fill string) {
	s.printf(`<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" stroke="#333333"/>
`, x, y, w, h, fill)
}

func (s *svg) line(x1, y1, x2, y2 int, colour string, width int) {
	s.printf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%d"/>
`, x1, y1, x2, y2, colour, width)
}

// Sensors draws the sensors' wiring: the Pi, the bus (I2C, or the tiles'
// RS-485 line), and each expander or tile with the site on each pin. Every
// site is a text element with id "site-NAME" (several for a goal or home
// with a sensor per slot: "site-NAME-2"…).
func Sensors(w io.Writer, lay *config.Layout) error {
	type pin struct {
		pin  uint8
		site engine.Site
		slot int
	}
	byDev := map[uint8][]pin{}
	for s, wr := range lay.Sites {
		for i, c := range wr.Sensors {
			byDev[c.Dev] = append(byDev[c.Dev], pin{c.Pin, engine.Site(s), i + 1})
		}
	}
	devs := lay.Devices()
	rows := 0
	for _, d := range devs {
		slices.SortFunc(byDev[d], func(a, b pin) int { return int(a.pin) - int(b.pin) })
		rows = max(rows, len(byDev[d]))
	}
	const colW, rowH, top = 150, 16, 150
	width := 190 + colW*len(devs)
	height := top + 40 + rowH*rows + 40
	s := &svg{w: w}
	tiles := lay.Sensors.Kind == config.SensorsTiles
	title := "Sensors: MCP23017 expanders on the Pi's I2C bus, one switch per site"
	if tiles {
		title = "Sensors: sensor tiles on one RS-485 line from the Pi's UART"
	}
	s.start(width, height, title)
	s.text(10, 20, "start", "bold", title)
	// The Pi and the bus.
	s.box(10, 40, 160, 96, "#e8f4e8")
	s.text(90, 58, "middle", "bold", "Raspberry Pi")
	busY := []int{70, 86, 102, 118}
	var busNames []string
	if tiles {
		// The Pi's UART reaches the line through a transceiver with
		// automatic direction (or a USB adapter), drawn in the Pi's box.
		busNames = []string{"UART TX GPIO14 (8)", "UART RX GPIO15 (10)", "→ RS-485 module", "GND (pin 6)"}
	} else {
		busNames = []string{"3.3 V (pin 1)", "SDA GPIO2 (pin 3)", "SCL GPIO3 (pin 5)", "INT GPIO17 (pin 11)"}
	}
	colours := []string{"#cc0000", "#0055cc", "#ccaa00", "#008800"}
	lineNames := []string{"", "", "", ""}
	if tiles {
		lineNames = []string{"RS-485 A", "RS-485 B", "GND", "5 V (tile supply)"}
	}
	for i, y := range busY {
		s.text(16, y+4, "start", "normal", busNames[i])
		s.line(170, y, width-10, y, colours[i], 2)
		if lineNames[i] != "" {
			s.text(width-12, y-3, "end", "normal", lineNames[i])
		}
	}
	for i, d := range devs {
		x := 190 + colW*i
		s.line(x+colW/2-20, busY[0], x+colW/2-20, top, "#666666", 1)
		s.box(x+5, top, colW-10, 40+rowH*len(byDev[d]), "#f4f4f4")
		var head, sub string
		if tiles {
			head, sub = fmt.Sprintf("tile %d", d), fmt.Sprintf("switches %04b", d-1)
		} else {
			a := 0x20 + int(d)
			head, sub = fmt.Sprintf("MCP23017 %#02x", a), fmt.Sprintf("A2 A1 A0 = %d %d %d", a>>2&1, a>>1&1, a&1)
		}
		s.text(x+colW/2, top+16, "middle", "bold", head)
		s.text(x+colW/2, top+30, "middle", "normal", sub)
		for j, p := range byDev[d] {
			y := top + 46 + rowH*j
			pinName := fmt.Sprintf("ch %d", p.pin)
			if !tiles {
				pinName = fmt.Sprintf("GP%c%d", "AB"[p.pin/8], p.pin%8)
			}
			id := "site-" + p.site.String()
			label := p.site.String()
			if len(lay.Sites[p.site].Sensors) > 1 {
				id += fmt.Sprintf("-%d", p.slot)
				label += fmt.Sprintf(" slot %d", p.slot)
			}
			s.text(x+14, y, "start", "normal", pinName)
			s.printf(`<text id="%s" x="%d" y="%d" text-anchor="end">%s</text>
`, esc(id), x+colW-14, y, esc(label))
		}
	}
	note := "Each pin: a reed or hall switch to GND (the expander's pull-ups hold the rest high); INT outputs tied together to GPIO17."
	if tiles {
		note = "A to A, B to B, daisy-chained, 120 Ω at both ends, common ground; a tile's address is 1 plus its switches; its sensors as firmware/README.md says."
	}
	s.text(10, height-14, "start", "normal", note)
	s.printf("</svg>\n")
	return s.err
}

// LEDs draws the LED strip: the Pi's SPI through a level shifter to the
// strip's input, its 5 V supply with the power budget, and every LED in
// strip order with the site or tray light it is under. Every LED is a
// group with id "led-N" whose text names its site ("T0"… for the tray,
// "spare" for an LED under nothing).
func LEDs(w io.Writer, lay *config.Layout) error {
	under := make([]string, lay.LEDs.Count)
	for i := range under {
		under[i] = "spare"
	}
	for s, wr := range lay.Sites {
		if wr.LED >= 0 && wr.LED < len(under) {
			under[wr.LED] = engine.Site(s).String()
		}
	}
	for i, l := range lay.Tray {
		if l >= 0 && l < len(under) {
			under[l] = fmt.Sprintf("T%d", i)
		}
	}
	const perRow, cellW, cellH, top = 20, 44, 34, 214
	rows := (len(under) + perRow - 1) / perRow
	width := 40 + perRow*cellW
	height := top + rows*(cellH+14) + 40
	b := PowerBudget(lay)
	s := &svg{w: w}
	title := fmt.Sprintf("LED strip: %d %s LEDs, %d under the sites and %d around the dice tray", lay.LEDs.Count, strings.ToUpper(lay.LEDs.Kind), engine.NumSites, board.TrayLights)
	s.start(width, height, title)
	s.text(10, 20, "start", "bold", title)
	s.box(10, 40, 170, 80, "#e8f4e8")
	s.text(95, 58, "middle", "bold", "Raspberry Pi")
	s.text(16, 78, "start", "normal", "MOSI GPIO10 (pin 19)")
	s.text(16, 94, "start", "normal", "SCLK GPIO11 (pin 23)")
	s.text(16, 110, "start", "normal", "GND (pin 25)")
	s.box(230, 40, 190, 80, "#fff4e0")
	s.text(325, 58, "middle", "bold", "level shifter 74AHCT125")
	s.text(325, 78, "middle", "normal", "3.3 V logic in → 5 V out")
	s.text(325, 94, "middle", "normal", "VCC 5 V, OE to GND")
	s.line(180, 74, 230, 74, "#0055cc", 2)
	s.line(180, 90, 230, 90, "#ccaa00", 2)
	data := "DI / CI"
	if lay.LEDs.Kind == config.LEDsWS2812 {
		data = "DIN"
	}
	s.line(420, 80, 470, 80, "#0055cc", 2)
	s.text(475, 84, "start", "normal", "to the strip's "+data+" (LED 0), through 33 Ω")
	s.box(230, 126, 190, 34, "#ffe8e8")
	s.text(325, 147, "middle", "bold", fmt.Sprintf("5 V %d A supply", b.SupplyA))
	s.line(420, 143, 470, 143, "#cc0000", 2)
	s.text(475, 147, "start", "normal", "5 V and GND into both ends of the strip")
	s.text(10, 180, "start", "normal", "Power budget: "+b.String()+".")
	s.text(10, 196, "start", "normal", "The strip's GND joined to the Pi's; 1000 µF across the supply at the strip's input; the Pi on its own 5 V supply.")
	for i, site := range under {
		r, c := i/perRow, i%perRow
		if r%2 == 1 {
			c = perRow - 1 - c // the strip snakes back on the next row
		}
		x, y := 20+c*cellW, top+r*(cellH+14)
		fill := "#fffbe6"
		if strings.HasPrefix(site, "T") {
			fill = "#e6f0ff"
		}
		s.printf(`<g id="led-%d"><rect x="%d" y="%d" width="%d" height="%d" rx="3" fill="%s" stroke="#999999"/><text x="%d" y="%d" text-anchor="middle" font-size="9">%d</text><text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s</text></g>
`, i, x, y, cellW-6, cellH, fill, x+(cellW-6)/2, y+12, i, x+(cellW-6)/2, y+27, esc(site))
	}
	s.text(10, height-14, "start", "normal", fmt.Sprintf("LED index above, the site (or tray light T0…T%d) below; brightness cap %d/255 (layout leds.brightness).", board.TrayLights-1, lay.LEDs.Brightness))
	s.printf("</svg>\n")
	return s.err
}
