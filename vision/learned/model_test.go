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
	if len(embeddedModel) > 2<<20 {
		t.Errorf("the model is %d bytes, over 2 MB", len(embeddedModel))
	}
}
