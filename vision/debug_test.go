package vision

import (
	"os"
	"strings"
	"testing"
)

// TestDebugFile prints the pips and faces found in the files named by
// VISION_DEBUG (comma-separated paths); with VISION_STEEP set, the thinner
// pips of a steep face are looked for too (see readSteep).
func TestDebugFile(t *testing.T) {
	files := os.Getenv("VISION_DEBUG")
	if files == "" {
		t.Skip("set VISION_DEBUG to a comma-separated list of images")
	}
	for _, p := range strings.Split(files, ",") {
		g := decodeFile(t, p)
		o := DefaultOpts
		if os.Getenv("VISION_OBLIQUE") != "" {
			o = ObliqueOpts(o)
		}
		debugPips = os.Getenv("VISION_PIPS") != ""
		rd := NewReader(&o)
		rd.s.steep = os.Getenv("VISION_STEEP") != ""
		res := rd.Read(g)
		t.Logf("%s: %v conf %.2f box %v tilt %.0f", p, res, res.Confidence, res.Box, res.Tilt)
		for i, q := range rd.s.pips {
			t.Logf("  pip %d: (%.1f,%.1f) a %.1f b %.1f dark %v in %.0f ring %.0f lvl %d", i, q.x, q.y, q.a, q.b, q.dark, q.in, q.ring, q.level)
		}
		for _, f := range rd.findFaces() {
			t.Logf("  face %v n %d ok %v val %d c (%.0f,%.0f) q %.1f r %.1f d %.1f tilt %.0f ratio %.2f shape %.2f partial %v blank %.2f resid %.2f",
				f.idx, f.n, f.ok, f.value, f.c.x, f.c.y, f.q, f.r, f.d, f.tilt, f.ratio, f.shape, f.partial, f.blank, f.resid)
		}
	}
}
