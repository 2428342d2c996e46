package learned

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/parchis-table/parchis/vision/onnx"
)

// The die recogniser's networks, trained by vision/train/train.py.
//
//go:embed model/dice.onnx
var embeddedModel []byte

// Model is the recogniser's two networks, as one ONNX file: a detector
// that marks each die's centre and size on a grid of DetStride pixels of
// a scaled frame, and a face classifier that reads one die cut as a
// square of FaceScale times its box's longer side, resized to FacePx,
// into the classes 1…6, edge and none, with its pooled features as an
// embedding. The metadata carries the geometry the training used, the
// temperature that calibrates its confidences and the confidence under
// which a value is unsure.
type Model struct {
	net       *onnx.Model
	facePx    int
	faceScale float64
	stride    int
	detMin    float64 // die sizes the detector was trained on, at its input
	detMax    float64
	temp      float64
	threshold float64
	classEdge int
	classNone int
	// greyCrop: the classifier reads crops grey and standardised
	// (metadata crop_input grey-standardised), not as RGB
	greyCrop bool
	sum      string // SHA-256 of the file, which a profile names
	Source   string // where the model came from: "embedded" or a file
}

var (
	defaultModel     *Model
	defaultModelErr  error
	defaultModelOnce sync.Once
)

// DefaultModel returns the model embedded in the program.
func DefaultModel() *Model {
	defaultModelOnce.Do(func() {
		defaultModel, defaultModelErr = ParseModel(embeddedModel)
		if defaultModel != nil {
			defaultModel.Source = "embedded"
		}
	})
	if defaultModelErr != nil {
		// the embedded model is tested: this is a broken build
		panic(fmt.Sprintf("vision: the embedded model: %v", defaultModelErr))
	}
	return defaultModel
}

// LoadModel reads a model file (the config's camera.model).
func LoadModel(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("die model: %w", err)
	}
	m, err := ParseModel(b)
	if err != nil {
		return nil, fmt.Errorf("die model %s: %w", path, err)
	}
	m.Source = path
	return m, nil
}

// wantClasses is the classifier's output, in order.
const wantClasses = "1,2,3,4,5,6,edge,none"

// ParseModel reads a model from the bytes of its ONNX file, checking that
// it is a die recogniser: the inputs, outputs, classes and metadata.
func ParseModel(b []byte) (*Model, error) {
	net, err := onnx.Parse(b)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"frame", "crop"} {
		if !slices.Contains(net.Inputs, name) {
			return nil, fmt.Errorf("die model: no input %q (has %s)", name, strings.Join(net.Inputs, ", "))
		}
	}
	for _, name := range []string{"det", "logits", "embedding"} {
		if !slices.Contains(net.Outputs, name) {
			return nil, fmt.Errorf("die model: no output %q (has %s)", name, strings.Join(net.Outputs, ", "))
		}
	}
	if c := net.Meta["classes"]; c != wantClasses {
		return nil, fmt.Errorf("die model: classes %q, want %q", c, wantClasses)
	}
	h := sha256.Sum256(b)
	m := &Model{net: net, classEdge: 6, classNone: 7, sum: hex.EncodeToString(h[:])}
	for _, f := range []struct {
		key    string
		lo, hi float64
		dst    *float64
	}{
		{"face_scale", 1, 3, &m.faceScale},
		{"det_min", 1, 64, &m.detMin},
		{"det_max", 2, 128, &m.detMax},
		{"temperature", 0.05, 20, &m.temp},
		{"threshold", 0.2, 1, &m.threshold},
	} {
		v, err := net.MetaFloat(f.key)
		if err != nil {
			return nil, fmt.Errorf("die model: %w", err)
		}
		if v < f.lo || v > f.hi {
			return nil, fmt.Errorf("die model: metadata %s %g is outside %g…%g", f.key, v, f.lo, f.hi)
		}
		*f.dst = v
	}
	for _, f := range []struct {
		key    string
		lo, hi int
		dst    *int
	}{{"face_px", 8, 256, &m.facePx}, {"det_stride", 1, 64, &m.stride}} {
		v, err := net.MetaFloat(f.key)
		if err != nil {
			return nil, fmt.Errorf("die model: %w", err)
		}
		if v != math.Trunc(v) || int(v) < f.lo || int(v) > f.hi {
			return nil, fmt.Errorf("die model: metadata %s %g is not a whole number in %d…%d", f.key, v, f.lo, f.hi)
		}
		*f.dst = int(v)
	}
	switch in := net.Meta["crop_input"]; in {
	case "", "rgb":
	case "grey-standardised":
		m.greyCrop = true
	default:
		return nil, fmt.Errorf("die model: metadata crop_input %q, want rgb or grey-standardised", in)
	}
	if m.detMin >= m.detMax {
		return nil, fmt.Errorf("die model: det_min %g is not below det_max %g", m.detMin, m.detMax)
	}
	return m, nil
}

// Threshold is the calibrated confidence under which a value is unsure,
// chosen on validation for at most 0.2% wrong values.
func (m *Model) Threshold() float64 { return m.threshold }
