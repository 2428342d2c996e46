package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/protocol"
)

// Sensor back-ends named by a layout's sensors.kind.
const (
	// SensorsDirect is reed or hall switches on MCP23017 expanders: a
	// channel "D.P" is pin P (0…15; GPA0…7 are 0…7, GPB0…7 are 8…15) of the
	// expander at I2C address 0x20+D (D is 0…7).
	SensorsDirect = "direct"
	// SensorsTiles is sensor tiles running firmware/: a channel "D.P" is
	// channel P (0…protocol.MaxChannels-1) of the tile at address D (1…247).
	SensorsTiles = "tiles"
	// SensorsSim is the in-memory board of hw/sim; channels are ignored
	// beyond the checks common to every back-end.
	SensorsSim = "sim"
)

// LED strip kinds named by a layout's leds.kind.
const (
	LEDsAPA102 = "apa102"
	LEDsWS2812 = "ws2812"
)

// MaxExpanders is the number of MCP23017 expanders one I2C bus holds
// (addresses 0x20…0x27).
const MaxExpanders = 8

// MaxChannelsPerSite is how many sensor channels may add up to one site's
// count (a home or goal may have one switch per slot).
const MaxChannelsPerSite = 4

// Channel names one sensor input: pin Pin of device Dev (an expander index
// for the direct back-end, a tile address for tiles).
type Channel struct {
	Dev, Pin uint8
}

// String returns the channel in layout form, "D.P".
func (c Channel) String() string {
	return strconv.Itoa(int(c.Dev)) + "." + strconv.Itoa(int(c.Pin))
}

// ParseChannel parses a channel written "D.P".
func ParseChannel(s string) (Channel, error) {
	d, p, ok := strings.Cut(s, ".")
	if ok {
		dn, err1 := strconv.ParseUint(d, 10, 8)
		pn, err2 := strconv.ParseUint(p, 10, 8)
		if err1 == nil && err2 == nil {
			return Channel{uint8(dn), uint8(pn)}, nil
		}
	}
	return Channel{}, fmt.Errorf("bad sensor channel %q: want DEVICE.PIN, such as 2.13", s)
}

// SiteWiring is how one site is wired.
type SiteWiring struct {
	// Sensors are the channels whose counts add up to the site's count: one
	// for a square, up to MaxChannelsPerSite for a goal or home.
	Sensors []Channel
	// LED is the index of the site's light on the strip.
	LED int
}

// SensorSpec tells which sensor back-end the table has.
type SensorSpec struct {
	// Kind is SensorsDirect, SensorsTiles or SensorsSim.
	Kind string `yaml:"kind"`
}

// LEDSpec describes the LED strip.
type LEDSpec struct {
	// Kind is LEDsAPA102 or LEDsWS2812.
	Kind string `yaml:"kind"`
	// Count is the number of LEDs on the strip (1…1024).
	Count int `yaml:"count"`
	// Brightness caps every colour channel (0…255): full-scale colours are
	// scaled by Brightness/255 before they are sent.
	Brightness int `yaml:"brightness"`
}

// Layout is the board wiring: which sensor channel and which LED each site
// uses, and where the tray lights are. A Layout returned by LoadLayout or
// DefaultLayout is valid: every site appears exactly once, no channel or LED
// is used twice, and every index is in range.
type Layout struct {
	Sensors SensorSpec
	LEDs    LEDSpec
	// Sites is indexed by engine.Site.
	Sites [engine.NumSites]SiteWiring
	// Tray holds the LED indices of the tray lights.
	Tray [board.TrayLights]int
}

// Devices returns the sensor devices the layout uses (expander indices or
// tile addresses), in increasing order.
func (l *Layout) Devices() []uint8 {
	var seen [256]bool
	var out []uint8
	for _, w := range l.Sites {
		for _, c := range w.Sensors {
			if !seen[c.Dev] {
				seen[c.Dev] = true
				out = append(out, c.Dev)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// LayoutError is one problem in a layout file.
type LayoutError struct {
	Line int    // 1-based line in the file, 0 when unknown
	Site string // the site concerned, "" when none
	Msg  string
}

func (e *LayoutError) Error() string {
	var b strings.Builder
	b.WriteString("layout")
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Site != "" {
		b.WriteString("site " + e.Site + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// LayoutErrors is every problem found in a layout file, in file order.
type LayoutErrors []*LayoutError

func (l LayoutErrors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

//go:embed layout.yaml
var defaultLayoutYAML []byte

// DefaultLayoutYAML returns the text of the standard board's layout file.
func DefaultLayoutYAML() []byte { return append([]byte(nil), defaultLayoutYAML...) }

// DefaultLayout returns the standard board's layout (config/layout.yaml,
// embedded in the program): seven MCP23017 expanders, one switch under each
// site, and a 116-LED APA102 strip.
func DefaultLayout() *Layout {
	l, err := LoadLayout(strings.NewReader(string(defaultLayoutYAML)))
	if err != nil {
		panic("config: embedded layout.yaml: " + err.Error())
	}
	return l
}

// file mirrors the YAML document.
type layoutFile struct {
	Sensors SensorSpec `yaml:"sensors"`
	LEDs    LEDSpec    `yaml:"leds"`
	Tray    []int      `yaml:"tray"`
	Sites   siteTable  `yaml:"sites"`
}

type siteEntry struct {
	name    string
	line    int
	sensors []string
	led     int
	hasLED  bool
}

type siteTable struct {
	entries []siteEntry
	errs    LayoutErrors
}

// UnmarshalYAML reads the sites mapping by hand to keep each entry's line
// and to reject unknown keys.
func (t *siteTable) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return &LayoutError{Line: n.Line, Msg: "sites: want a mapping of site name to {sensor, led}"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		e := siteEntry{name: k.Value, line: k.Line}
		if v.Kind != yaml.MappingNode {
			t.errs = append(t.errs, &LayoutError{Line: v.Line, Site: e.name, Msg: "want {sensor: D.P, led: N}"})
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			fk, fv := v.Content[j], v.Content[j+1]
			switch fk.Value {
			case "sensor":
				switch fv.Kind {
				case yaml.ScalarNode:
					e.sensors = append(e.sensors, fv.Value)
				case yaml.SequenceNode:
					for _, c := range fv.Content {
						if c.Kind != yaml.ScalarNode {
							t.errs = append(t.errs, &LayoutError{Line: c.Line, Site: e.name, Msg: "sensor: want D.P or a list of them"})
							continue
						}
						e.sensors = append(e.sensors, c.Value)
					}
				default:
					t.errs = append(t.errs, &LayoutError{Line: fv.Line, Site: e.name, Msg: "sensor: want D.P or a list of them"})
				}
			case "led":
				n, err := strconv.Atoi(fv.Value)
				if fv.Kind != yaml.ScalarNode || err != nil {
					t.errs = append(t.errs, &LayoutError{Line: fv.Line, Site: e.name, Msg: fmt.Sprintf("led: want an LED index, got %q", fv.Value)})
					continue
				}
				e.led, e.hasLED = n, true
			default:
				t.errs = append(t.errs, &LayoutError{Line: fk.Line, Site: e.name, Msg: fmt.Sprintf("unknown field %q (want sensor, led)", fk.Value)})
			}
		}
		t.entries = append(t.entries, e)
	}
	return nil
}

// LoadLayout reads and validates a layout file. Unknown fields are errors.
// A file with problems returns LayoutErrors listing every one of them, each
// naming its line and site.
func LoadLayout(r io.Reader) (*Layout, error) {
	dec := yaml.NewDecoder(r)
	dec.KnownFields(true)
	var f layoutFile
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &LayoutError{Msg: "empty file"}
		}
		var le *LayoutError
		if errors.As(err, &le) {
			return nil, LayoutErrors{le}
		}
		return nil, fmt.Errorf("layout: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &LayoutError{Line: extra.Line, Msg: "more than one YAML document"}
	}
	return f.build()
}

func (f *layoutFile) build() (*Layout, error) {
	errs := append(LayoutErrors(nil), f.Sites.errs...)
	bad := func(line int, site, format string, a ...any) {
		errs = append(errs, &LayoutError{Line: line, Site: site, Msg: fmt.Sprintf(format, a...)})
	}
	l := &Layout{Sensors: f.Sensors, LEDs: f.LEDs}

	switch l.Sensors.Kind {
	case SensorsDirect, SensorsTiles, SensorsSim:
	case "":
		bad(0, "", "sensors.kind missing: want %s, %s or %s", SensorsDirect, SensorsTiles, SensorsSim)
	default:
		bad(0, "", "sensors.kind %q: want %s, %s or %s", l.Sensors.Kind, SensorsDirect, SensorsTiles, SensorsSim)
	}
	switch l.LEDs.Kind {
	case LEDsAPA102, LEDsWS2812:
	default:
		bad(0, "", "leds.kind %q: want %s or %s", l.LEDs.Kind, LEDsAPA102, LEDsWS2812)
	}
	if l.LEDs.Count < 1 || l.LEDs.Count > 1024 {
		bad(0, "", "leds.count %d: want 1…1024", l.LEDs.Count)
	}
	if l.LEDs.Brightness < 0 || l.LEDs.Brightness > 255 {
		bad(0, "", "leds.brightness %d: want 0…255", l.LEDs.Brightness)
	}

	ledUser := map[int]string{}
	useLED := func(line int, site string, led int, who string) {
		if led < 0 || (l.LEDs.Count > 0 && led >= l.LEDs.Count) {
			bad(line, site, "led %d out of range 0…%d", led, l.LEDs.Count-1)
			return
		}
		if prev, ok := ledUser[led]; ok {
			bad(line, site, "led %d already used by %s", led, prev)
			return
		}
		ledUser[led] = who
	}

	if len(f.Tray) != board.TrayLights {
		bad(0, "", "tray: want %d LED indices, got %d", board.TrayLights, len(f.Tray))
	}
	for i, led := range f.Tray {
		if i < board.TrayLights {
			l.Tray[i] = led
			useLED(0, "", led, "tray light "+strconv.Itoa(i))
		}
	}

	var seen [engine.NumSites]int // line of the first entry, 0 when none
	chanUser := map[Channel]string{}
	for _, e := range f.Sites.entries {
		s, err := engine.ParseSite(e.name)
		if err != nil {
			bad(e.line, e.name, "not a site: want 1…68, Y1…Y7, YG or YH (likewise B, R, G)")
			continue
		}
		name := s.String()
		if seen[s] != 0 {
			bad(e.line, name, "listed twice (first on line %d)", seen[s])
			continue
		}
		seen[s] = e.line
		w := &l.Sites[s]
		max := 1
		if !s.Holds2() {
			max = MaxChannelsPerSite
		}
		switch {
		case len(e.sensors) == 0:
			bad(e.line, name, "no sensor channel")
		case len(e.sensors) > max:
			bad(e.line, name, "%d sensor channels: at most %d for a %s", len(e.sensors), max, kindName(s))
		}
		for _, cs := range e.sensors {
			c, err := ParseChannel(cs)
			if err != nil {
				bad(e.line, name, "%v", err)
				continue
			}
			if msg := l.checkChannel(c); msg != "" {
				bad(e.line, name, "sensor channel %s: %s", c, msg)
				continue
			}
			if prev, ok := chanUser[c]; ok {
				bad(e.line, name, "sensor channel %s already used by site %s", c, prev)
				continue
			}
			chanUser[c] = name
			w.Sensors = append(w.Sensors, c)
		}
		if !e.hasLED {
			bad(e.line, name, "no led")
		} else {
			w.LED = e.led
			useLED(e.line, name, e.led, "site "+name)
		}
	}
	for s := engine.Site(0); s < engine.NumSites; s++ {
		if seen[s] == 0 {
			bad(0, s.String(), "missing")
		}
	}
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool {
			a, b := errs[i].Line, errs[j].Line
			return a != 0 && (b == 0 || a < b)
		})
		return nil, errs
	}
	return l, nil
}

func (l *Layout) checkChannel(c Channel) string {
	switch l.Sensors.Kind {
	case SensorsDirect:
		if c.Dev >= MaxExpanders {
			return fmt.Sprintf("expander %d out of range 0…%d", c.Dev, MaxExpanders-1)
		}
		if c.Pin >= 16 {
			return fmt.Sprintf("pin %d out of range 0…15", c.Pin)
		}
	case SensorsTiles:
		if c.Dev < protocol.MinAddr || c.Dev > protocol.MaxAddr {
			return fmt.Sprintf("tile address %d out of range %d…%d", c.Dev, protocol.MinAddr, protocol.MaxAddr)
		}
		if c.Pin >= protocol.MaxChannels {
			return fmt.Sprintf("tile channel %d out of range 0…%d", c.Pin, protocol.MaxChannels-1)
		}
	}
	return ""
}

func kindName(s engine.Site) string {
	return [...]string{"track square", "column square", "goal", "home"}[s.Kind()]
}
