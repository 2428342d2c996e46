package config

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

func TestDefaultLayout_EverySiteWired(t *testing.T) {
	l := DefaultLayout()
	if l.Sensors.Kind != SensorsDirect || l.LEDs.Kind != LEDsAPA102 || l.LEDs.Count != 116 {
		t.Fatalf("default layout: sensors %q, leds %+v", l.Sensors.Kind, l.LEDs)
	}
	if got := l.Devices(); len(got) != 7 {
		t.Errorf("Devices() = %v, want 7 expanders", got)
	}
	if w := l.Sites[engine.HomeSite(engine.Green)]; w.LED != 103 || w.Sensors[0] != (Channel{6, 7}) {
		t.Errorf("GH wired %+v, want 6.7 and LED 103", w)
	}
}

// edit returns the default layout file with old replaced by new once.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	s := string(DefaultLayoutYAML())
	if !strings.Contains(s, old) {
		t.Fatalf("default layout has no %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

func TestLoadLayout_Errors(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           []string // substrings of the error
	}{
		{"MissingSite", `  "Y3": {sensor: 4.6, led: 70}` + "\n", "", []string{"site Y3: missing"}},
		{"SiteTwice", `"Y3": {sensor: 4.6`, `"Y2": {sensor: 4.6`, []string{"site Y2: listed twice (first on line", "site Y3: missing"}},
		{"ChannelTwice", `"12": {sensor: 0.11,`, `"12": {sensor: 0.10,`, []string{"site 12: sensor channel 0.10 already used by site 11"}},
		{"LEDTwice", `"12": {sensor: 0.11, led: 11}`, `"12": {sensor: 0.11, led: 10}`, []string{"site 12: led 10 already used by site 11"}},
		{"LEDOutOfRange", `led: 11}`, `led: 500}`, []string{"site 12: led 500 out of range 0…115"}},
		{"PinOutOfRange", `"12": {sensor: 0.11,`, `"12": {sensor: 0.16,`, []string{"site 12: sensor channel 0.16: pin 16 out of range 0…15"}},
		{"ExpanderOutOfRange", `"12": {sensor: 0.11,`, `"12": {sensor: 9.11,`, []string{"site 12: sensor channel 9.11: expander 9 out of range 0…7"}},
		{"BadChannel", `"12": {sensor: 0.11,`, `"12": {sensor: zero,`, []string{`site 12: bad sensor channel "zero"`}},
		{"TypoInSiteField", `"12": {sensor: 0.11, led: 11}`, `"12": {sensor: 0.11, lde: 11}`, []string{`site 12: unknown field "lde"`, "site 12: no led"}},
		{"TypoTopLevel", "\ntray:", "\ntray_lights:", []string{"field tray_lights not found"}},
		{"NotASite", `"12":`, `"69":`, []string{`site 69: not a site`, "site 12: missing"}},
		{"TwoChannelsOnSquare", `"12": {sensor: 0.11,`, `"12": {sensor: [0.11, 7.0],`, []string{"site 12: 2 sensor channels: at most 1 for a track square"}},
		{"ShortTray", "115]", "]", []string{"tray: want 12 LED indices, got 11"}},
		{"BadKind", "  kind: direct", "  kind: drect", []string{`sensors.kind "drect"`}},
		{"Brightness", "brightness: 96", "brightness: 300", []string{"leds.brightness 300"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadLayout(strings.NewReader(edit(t, tc.old, tc.new)))
			if err == nil {
				t.Fatal("LoadLayout accepted a bad layout")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nlacks %q", err, w)
				}
			}
		})
	}
}

func TestLoadLayout_ErrorsCarryLines(t *testing.T) {
	_, err := LoadLayout(strings.NewReader(edit(t, `"12": {sensor: 0.11,`, `"12": {sensor: 0.10,`)))
	var list LayoutErrors
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("err = %v, want one LayoutError", err)
	}
	if e := list[0]; e.Site != "12" || e.Line != 41 {
		t.Errorf("error at line %d site %q, want line 41 site 12", e.Line, e.Site)
	}
}

func TestLoadLayout_HomeWithSlots(t *testing.T) {
	l, err := LoadLayout(strings.NewReader(edit(t, `"YH": {sensor: 6.4,`, `"YH": {sensor: [6.4, 6.12, 6.13, 6.14],`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(l.Sites[engine.HomeSite(engine.Yellow)].Sensors); got != 4 {
		t.Errorf("YH has %d channels, want 4", got)
	}
}

func TestLoadLayout_Empty(t *testing.T) {
	if _, err := LoadLayout(strings.NewReader("")); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("err = %v, want empty file", err)
	}
}

func FuzzLoadLayout(f *testing.F) {
	f.Add(DefaultLayoutYAML())
	f.Add([]byte("sensors: {kind: tiles}\nsites: {\"1\": {sensor: 1.0, led: 0}}\n"))
	f.Add([]byte("sites: [1, 2]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := LoadLayout(bytes.NewReader(b))
		if err != nil {
			if l != nil {
				t.Fatal("layout and error both returned")
			}
			return
		}
		var leds = map[int]bool{}
		for s, w := range l.Sites {
			if len(w.Sensors) == 0 {
				t.Fatalf("site %v has no sensor", engine.Site(s))
			}
			if leds[w.LED] {
				t.Fatalf("LED %d twice", w.LED)
			}
			leds[w.LED] = true
		}
	})
}
