package learned

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/parchis-table/parchis/vision/onnx"
)

// TestModel_MatchesTheTrainingFramework runs the embedded model on the
// inputs train.py saved with it and compares every output with the
// framework's.
func TestModel_MatchesTheTrainingFramework(t *testing.T) {
	b, err := os.ReadFile("model/testdata/model-io.json")
	if err != nil {
		t.Fatal(err)
	}
	var io map[string]struct {
		Shape []int     `json:"shape"`
		Data  []float32 `json:"data"`
	}
	if err := json.Unmarshal(b, &io); err != nil {
		t.Fatal(err)
	}
	m := DefaultModel()
	s := m.net.NewSession()
	for _, in := range []struct{ input, output string }{{"frame", "det"}, {"crop", "logits"}, {"crop", "embedding"}} {
		x := io[in.input]
		out, err := s.Run(map[string]*onnx.Tensor{in.input: {Shape: x.Shape, Data: x.Data}}, in.output)
		if err != nil {
			t.Fatal(err)
		}
		want := io[in.output]
		if len(out[0].Data) != len(want.Data) {
			t.Fatalf("%s: %d values, want %d", in.output, len(out[0].Data), len(want.Data))
		}
		worst := 0.0
		for i, w := range want.Data {
			worst = max(worst, math.Abs(float64(out[0].Data[i]-w))/(1+math.Abs(float64(w))))
		}
		if worst > 1e-3 {
			t.Errorf("%s differs from the framework's by %.2g", in.output, worst)
		}
	}
	// the crop the reader cut, made grey and standardised as the
	// training made it
	if m.greyCrop {
		rgb, want := io["rgb_crop"], io["standardised"]
		if len(rgb.Data) == 0 || len(rgb.Data) != len(want.Data) {
			t.Fatalf("testdata: rgb_crop of %d values, standardised of %d", len(rgb.Data), len(want.Data))
		}
		got := append([]float32(nil), rgb.Data...)
		standardise(got, len(got)/3)
		worst := 0.0
		for i, w := range want.Data {
			worst = max(worst, math.Abs(float64(got[i]-w)))
		}
		if worst > 1e-4 {
			t.Errorf("standardise differs from the training's by %.2g", worst)
		}
	}
	if len(embeddedModel) > 2<<20 {
		t.Errorf("the model is %d bytes, over 2 MB", len(embeddedModel))
	}
}
