package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

// Every example layout (examples/layout-*.yaml) loads.
func TestExampleLayouts_Load(t *testing.T) {
	files, _ := filepath.Glob("examples/layout-*.yaml")
	if len(files) == 0 {
		t.Fatal("no example layouts")
	}
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		_, err = LoadLayout(r)
		r.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// The tiles example: four tiles of 32 channels, one per quarter of the track, with a
// sensor per slot of each goal and home.
func TestExampleLayout_Tiles(t *testing.T) {
	r, err := os.Open("examples/layout-tiles.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	l, err := LoadLayout(r)
	if err != nil {
		t.Fatal(err)
	}
	if l.Sensors.Kind != SensorsTiles {
		t.Errorf("sensors.kind %q", l.Sensors.Kind)
	}
	if got := l.Devices(); len(got) != 4 || got[0] != 1 || got[3] != 4 {
		t.Errorf("tiles %v, want 1…4", got)
	}
	perTile := map[uint8]int{}
	for s, w := range l.Sites {
		for _, c := range w.Sensors {
			perTile[c.Dev]++
			if c.Pin >= 32 {
				t.Errorf("site %v: channel %v beyond the 32 wired", engine.Site(s), c)
			}
		}
	}
	for d, n := range perTile {
		if n != 32 {
			t.Errorf("tile %d: %d channels, want 32", d, n)
		}
	}
	for c := range engine.Colour(engine.NumColours) {
		if n := len(l.Sites[engine.HomeSite(c)].Sensors); n != 4 {
			t.Errorf("%v home: %d sensors, want 4", c, n)
		}
	}
}
