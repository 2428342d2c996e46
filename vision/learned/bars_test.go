package learned

import (
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/synth"
)

// TestRead_EdgeDice_NeverAValue reads synthetic dice standing on an edge
// or leaning (no photo source has any) as the table does, with the die's
// size from the calibration: none may be given a value, and at least 95%
// are answered edge.
func TestRead_EdgeDice_NeverAValue(t *testing.T) {
	for _, k := range []struct {
		name string
		kind synth.Kind
		seed uint64
	}{{"on edge", synth.OnEdge, 2000}, {"leaning", synth.Leaning, 3000}} {
		var tl vision.Tally
		for i := uint64(0); i < 100; i++ {
			s := synth.RandomScene(k.seed+i, 160, 160, k.kind, 45, 90)
			rd := NewReader(&Opts{DieSize: s.Dice[0].Size})
			tl.Add(vision.Result{Answer: vision.Edge}, rd.ReadImage(synth.Render(s)), 0)
		}
		t.Logf("synthetic dice %s: %s", k.name, tl.Summary())
		if n := tl.ValueGiven("edge"); n > 0 {
			t.Errorf("%s: %d of 100 dice given a value", k.name, n)
		}
		atLeast(t, k.name, "edge recognised on", tl.Rate("edge"), 0.95)
	}
}

// TestRead_MultiFrames counts the dice of the photo sources' frames of
// several dice at least 40 px wide: at least 95% are answered multi (a
// cup or a pile of dice is no one big die: group).
func TestRead_MultiFrames(t *testing.T) {
	for _, source := range []string{"matteop65_wood", "dice3_roboflow_v3", "awsvegas_dice", "skovy_catan_webcam", "banachowicz_rpgsets"} {
		dir := needData(t, source)
		sizes := boxSizes(t, dir)
		tl := evalLabels(t, dir, loadLabels(t, dir), DefaultOpts, func(l vision.Label) bool {
			return !isCrop(l) && l.Want.Answer == vision.Multi && sizes[l.File] >= 40
		})
		t.Logf("%s multi frames, dice ≥40 px: %s", source, tl.Summary())
		if tl.Total("multi") > 0 {
			atLeast(t, source+" multi", "multi recognised on", tl.Rate("multi"), 0.95)
		}
	}
}
