package vision

import (
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/parchis-table/parchis/vision/synth"
)

// synthTally reads n random synthetic scenes of a kind and tallies them.
func synthTally(t *testing.T, kind synth.Kind, n, w, h int, seed0 uint64) *Tally {
	t.Helper()
	rd := NewReader(nil)
	var tl Tally
	dump := os.Getenv("VISION_DUMP")
	for i := 0; i < n; i++ {
		s := synth.RandomScene(seed0+uint64(i), w, h, kind, 45, 90)
		img := synth.Render(s)
		want := Result{Answer: Value, Value: s.Dice[0].Face}
		if kind != synth.Flat {
			want = Result{Answer: Edge}
		}
		g := Gray(img)
		t0 := time.Now()
		got := rd.Read(g)
		tl.Add(want, got, time.Since(t0))
		if got.Label() != want.Label() {
			t.Logf("seed %d: want %s got %s (%.2f, tilt %.0f; die tilt %.0f size %.0f)", seed0+uint64(i), want, got, got.Confidence, got.Tilt, s.Dice[0].Tilt, s.Dice[0].Size)
			if dump != "" {
				f, _ := os.Create(filepath.Join(dump, strconv.FormatUint(seed0+uint64(i), 10)+".png"))
				png.Encode(f, img)
				f.Close()
			}
		}
	}
	return &tl
}

func TestSynth_FlatDice_Read(t *testing.T) {
	tl := synthTally(t, synth.Flat, 300, 160, 160, 1000)
	t.Logf("synthetic flat dice: %s", tl.Summary())
	if tl.WrongRate() > 0.002 {
		t.Errorf("wrong-rate %.2f%% > 0.2%%", 100*tl.WrongRate())
	}
	if tl.ReadRate() < 0.97 {
		t.Errorf("read-rate %.2f%% < 97%%", 100*tl.ReadRate())
	}
}

func TestSynth_FlatDice_InFrame(t *testing.T) {
	tl := synthTally(t, synth.Flat, 60, 640, 480, 5000)
	t.Logf("synthetic flat dice in 640×480 frames: %s", tl.Summary())
	if tl.WrongRate() > 0.002 {
		t.Errorf("wrong-rate %.2f%% > 0.2%%", 100*tl.WrongRate())
	}
	if tl.ReadRate() < 0.95 {
		t.Errorf("read-rate %.2f%% < 95%%", 100*tl.ReadRate())
	}
}

func TestSynth_EdgeDice_AreEdge(t *testing.T) {
	for _, k := range []struct {
		name string
		kind synth.Kind
		seed uint64
	}{{"on edge", synth.OnEdge, 2000}, {"leaning", synth.Leaning, 3000}} {
		tl := synthTally(t, k.kind, 200, 160, 160, k.seed)
		t.Logf("synthetic dice %s: %s", k.name, tl.Summary())
		if tl.ValueGiven("edge") > 0 {
			t.Errorf("%s: %d dice given a value", k.name, tl.ValueGiven("edge"))
		}
		if tl.Rate("edge") < 0.95 {
			t.Errorf("%s: edge recognised on %.2f%% < 95%%", k.name, 100*tl.Rate("edge"))
		}
	}
}
