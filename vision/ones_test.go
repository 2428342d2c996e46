package vision

import (
	"path/filepath"
	"testing"
)

// Seen from the side, a lone pip that is a corner of another face (the
// rest of which was found on another plane, or was found and grouped
// apart) is not shown to be a one, on any plane: these dice show a four,
// sixes and threes on top, and a photo where a one's blanks were judged
// only by their darkness was read as a one once that was loosened.
func TestOneShown_CornerPipsOfOtherFaces(t *testing.T) {
	dir := needData(t, "dice3_roboflow_v3")
	for _, name := range []string{
		"valid__dice_199_jpg.rf.11113f0bf52f1f25559ce58d98237c85_d00.png", // 4
		"train__dice_191_jpg.rf.d96d0cdc9581a40fe981de8f6768f253_d00.png", // 6
		"train__dice_113_jpg.rf.246cbc8343340a161826fa30cab89d0c_d00.png", // 6
		"train__dice_373_JPG.rf.015479139cc722a3ab02a34337c7436e_d01.png", // 3
		"train__dice_371_JPG.rf.5c8037e9dba1a75fb713080dde67519b_d00.png", // 3
		"train__dice_371_JPG.rf.5c8037e9dba1a75fb713080dde67519b_d01.png", // 3
	} {
		img := decodeImage(t, filepath.Join(dir, "crops", name))
		o := ObliqueOpts(DefaultOpts)
		rd := NewReader(&o)
		if res := rd.ReadImage(img); res.Answer == Value && res.Value == 1 {
			t.Errorf("%s: read as a one", name)
		}
		rd.img, rd.grey, rd.sightDone = img, Gray(img), false
		for _, kind := range [...]planeKind{planeGrey, planeBody, planeWeak, planeValue} {
			g := rd.grey
			if kind != planeGrey {
				var ok bool
				if g, ok = rd.colourPlane(img, kind); !ok {
					continue
				}
			}
			rd.read(g, kind)
			faces := rd.findFaces()
			for i := range faces {
				f := &faces[i]
				if f.n != 1 || f.partial || f.blank >= maxLoneBlank {
					continue
				}
				top := true
				for j := range faces {
					if o := &faces[j]; len(o.idx) >= 2 && o.c.y < f.c.y {
						top = false
					}
				}
				if top && rd.oneShown(f, faces) {
					t.Errorf("%s: plane %d: the lone pip at (%.0f,%.0f) is shown to be a one", name, kind, f.c.x, f.c.y)
				}
			}
		}
	}
}
