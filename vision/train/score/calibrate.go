package main

import (
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

// Calibration is what -calibrate prints: the threshold chosen on the
// validation split of the photo sources, as the Go reader reads them, and
// what it gives there.
type Calibration struct {
	Threshold float64 `json:"threshold"`
	// Validation is the threshold the validation split chose, which
	// holdBar may have raised
	Validation float64 `json:"validation_threshold"`
	// BarWrong is each source's wrong-rate on its crops of dice ≥40 px at
	// the threshold, as the table reads them
	BarWrong map[string]float64 `json:"bar_wrong"`
	Dice     int                `json:"dice"`
	Read     float64            `json:"read"`
	Wrong    float64            `json:"wrong"`
	Sources  map[string]Rates   `json:"sources"`
}

// reading is one validation die: its face and what the reader answered
// with every value accepted.
type reading struct {
	src  string
	face int
	got  vision.Result
}

// calibrate reads the crops of the sources whose frame is in the
// validation split that train.py keeps out of training (data.is_val: 15%
// of each source's frames, by a hash of the frame's path relative to the
// data's folder) and chooses the lowest confidence under which values
// become unsure that keeps wrong values at most maxWrong of the dice,
// raised if need be to hold every source to the bar (holdBar).
// The photos decide, not the renders: the table reads photos, and the
// renders' hardest views would set a threshold no venue needs.
func calibrate(data string, sources []string, opts learned.Opts, maxWrong float64) (Calibration, error) {
	table := opts
	opts.MinConfidence = 1e-9 // every value given, with its confidence
	opts.NetworkOnly = true   // the threshold is the network's
	rd := learned.NewReader(&opts)
	var rs []reading
	for _, src := range sources {
		dir := filepath.Join(data, src)
		labels, err := readLabels(dir)
		if err != nil {
			return Calibration{}, err
		}
		frames, err := vision.CropFrames(dir)
		if err != nil && !os.IsNotExist(err) {
			return Calibration{}, err
		}
		for _, l := range labels {
			if !vision.IsCrop(l.File) || l.Want.Answer != vision.Value {
				continue
			}
			frame, ok := frames[l.File]
			if !ok {
				frame = l.File // an image of one die is its own frame
			}
			if !isVal(src + "/" + frame) {
				continue
			}
			img, err := source.DecodeImage(filepath.Join(dir, l.File))
			if err != nil {
				return Calibration{}, err
			}
			rs = append(rs, reading{src: src, face: l.Want.Value, got: rd.ReadImage(img)})
		}
	}
	if len(rs) == 0 {
		return Calibration{}, fmt.Errorf("calibrate: no validation dice in %v", sources)
	}
	// the confidences of the values given, highest first: the threshold
	// is lowered past each while the wrong ones stay within the budget
	var confs []float64
	for _, r := range rs {
		if r.got.Answer == vision.Value {
			confs = append(confs, r.got.Confidence)
		}
	}
	slices.Sort(confs)
	slices.Reverse(confs)
	budget := int(maxWrong * float64(len(rs)))
	thr := 1.0
	for _, c := range confs {
		wrong := 0
		for _, r := range rs {
			if r.got.Answer == vision.Value && r.got.Confidence >= c && r.got.Value != r.face {
				wrong++
			}
		}
		if wrong > budget {
			break
		}
		thr = c
	}
	thr = max(thr, 0.2) // the model's metadata refuses less
	out := Calibration{Validation: thr, Dice: len(rs), Sources: map[string]Rates{}}
	var err error
	if thr, out.BarWrong, err = holdBar(data, sources, table, thr); err != nil {
		return Calibration{}, err
	}
	out.Threshold = thr
	tallies := map[string]*vision.Tally{}
	var all vision.Tally
	for _, r := range rs {
		got := r.got
		if got.Answer == vision.Value && got.Confidence < thr {
			got.Answer, got.Value = vision.Unsure, 0
		}
		want := vision.Result{Answer: vision.Value, Value: r.face}
		if tallies[r.src] == nil {
			tallies[r.src] = &vision.Tally{}
		}
		tallies[r.src].Add(want, got, 0)
		all.Add(want, got, 0)
	}
	for s, t := range tallies {
		out.Sources[s] = rates(t)
	}
	out.Read, out.Wrong = all.ReadRate(), all.WrongRate()
	return out, nil
}

// isVal is train.py's data.is_val: the first 32 bits of the SHA-1 of the
// frame's path relative to the data's folder, modulo 100, under 15.
func isVal(rel string) bool {
	h := sha1.Sum([]byte(rel))
	return binary.BigEndian.Uint32(h[:4])%100 < 15
}
