package wiring

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
)

var update = flag.Bool("update", false, "rewrite docs/wiring-*.svg from the layouts")

// diagrams are the committed diagrams and what they are drawn from.
func diagrams(t *testing.T) []struct {
	file string
	lay  *config.Layout
	draw func(io.Writer, *config.Layout) error
} {
	f, err := os.Open("../../config/examples/layout-tiles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tiles, err := config.LoadLayout(f)
	if err != nil {
		t.Fatal(err)
	}
	std := config.DefaultLayout()
	return []struct {
		file string
		lay  *config.Layout
		draw func(io.Writer, *config.Layout) error
	}{
		{"../../docs/wiring-sensors.svg", std, Sensors},
		{"../../docs/wiring-tiles.svg", tiles, Sensors},
		{"../../docs/wiring-leds.svg", std, LEDs},
	}
}

// texts maps each element id of an SVG to the text inside it.
func texts(t *testing.T, doc []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	d := xml.NewDecoder(bytes.NewReader(doc))
	var stack []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			id := ""
			for _, a := range e.Attr {
				if a.Name.Local == "id" {
					id = a.Value
					out[id] = ""
				}
			}
			stack = append(stack, id)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, id := range stack {
				if id != "" {
					out[id] += strings.TrimSpace(string(e)) + " "
				}
			}
		}
	}
}

// TestDiagrams_MatchTheLayouts: each committed diagram is the one the
// layout draws (go test ./hw/wiring -update rewrites them), and names
// every site — every slot of a goal or home with several sensors — and
// every LED of the strip, each with the site it lights.
func TestDiagrams_MatchTheLayouts(t *testing.T) {
	for _, d := range diagrams(t) {
		t.Run(d.file, func(t *testing.T) {
			var b bytes.Buffer
			if err := d.draw(&b, d.lay); err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(d.file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			committed, err := os.ReadFile(d.file)
			if err != nil {
				t.Fatalf("%v (go test ./hw/wiring -update draws it)", err)
			}
			if !bytes.Equal(committed, b.Bytes()) {
				t.Errorf("%s is not what the layout draws: go test ./hw/wiring -update", d.file)
			}
			for _, m := range missing(t, d.lay, committed, strings.Contains(d.file, "leds")) {
				t.Error(m)
			}
		})
	}
}

// missing lists each site or LED of lay missing from doc.
func missing(t *testing.T, lay *config.Layout, doc []byte, leds bool) []string {
	t.Helper()
	var out []string
	ids := texts(t, doc)
	if leds {
		for i := range lay.LEDs.Count {
			if _, ok := ids[fmt.Sprintf("led-%d", i)]; !ok {
				out = append(out, fmt.Sprintf("LED %d missing", i))
			}
		}
		for s, w := range lay.Sites {
			site := engine.Site(s).String()
			if got := ids[fmt.Sprintf("led-%d", w.LED)]; !strings.Contains(" "+got, " "+site+" ") {
				out = append(out, fmt.Sprintf("site %s: its LED %d reads %q", site, w.LED, got))
			}
		}
		for i, l := range lay.Tray {
			if got := ids[fmt.Sprintf("led-%d", l)]; !strings.Contains(got, fmt.Sprintf("T%d ", i)) {
				out = append(out, fmt.Sprintf("tray light %d: its LED %d reads %q", i, l, got))
			}
		}
		return out
	}
	for s, w := range lay.Sites {
		site := engine.Site(s).String()
		if len(w.Sensors) == 1 {
			if _, ok := ids["site-"+site]; !ok {
				out = append(out, fmt.Sprintf("site %s missing", site))
			}
			continue
		}
		for slot := range w.Sensors {
			if _, ok := ids[fmt.Sprintf("site-%s-%d", site, slot+1)]; !ok {
				out = append(out, fmt.Sprintf("site %s slot %d missing", site, slot+1))
			}
		}
	}
	return out
}

// TestMissing_FindsWhatIsCutOut: a diagram with a site or an LED
// taken out fails the check.
func TestMissing_FindsWhatIsCutOut(t *testing.T) {
	lay := config.DefaultLayout()
	for _, tc := range []struct {
		name string
		draw func(io.Writer, *config.Layout) error
		cut  string
		leds bool
	}{
		{"site 12", Sensors, `id="site-12"`, false},
		{"LED 50", LEDs, `id="led-50"`, true},
	} {
		var b bytes.Buffer
		if err := tc.draw(&b, lay); err != nil {
			t.Fatal(err)
		}
		doc := strings.Replace(b.String(), tc.cut, `id="gone"`, 1)
		if m := missing(t, lay, []byte(doc), tc.leds); len(m) == 0 {
			t.Errorf("%s cut out: nothing found missing", tc.name)
		}
		if m := missing(t, lay, b.Bytes(), tc.leds); len(m) != 0 {
			t.Errorf("the whole diagram: %v missing", m)
		}
	}
}

// TestPowerBudget_InBuildGuide: the standard strip at its cap, as
// docs/build.md gives it.
func TestPowerBudget_InBuildGuide(t *testing.T) {
	b := PowerBudget(config.DefaultLayout())
	if b.LEDs != 116 || b.WorstA < 2.5 || b.WorstA > 2.7 || b.SupplyA != 4 {
		t.Errorf("budget %+v, want 116 LEDs, about 2.6 A, a 4 A supply", b)
	}
	guide, err := os.ReadFile("../../docs/build.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), b.String()) {
		t.Errorf("docs/build.md lacks the budget %q", b.String())
	}
}
