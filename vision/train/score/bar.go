package main

import (
	"image"
	"math"
	"path/filepath"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"github.com/parchis-table/parchis/vision/learned"
)

// wrongBar is the share of a source's dice that may be given a wrong
// value: the bar the tests hold every source's crops of dice ≥40 px to.
const wrongBar = 0.002

// barDice are a source's crops of one die ≥40 px, as the bar counts them,
// with their faces and the network's reading of each, every value given.
type barDice struct {
	dir   string
	files []string
	faces []int
	net   []vision.Result
}

// holdBar raises thr, chosen on the validation split, until no source's
// crops of dice ≥40 px get over wrongBar wrong values as the table reads
// them, the second witness included; it returns the threshold and each
// source's wrong-rate at it. The validation split is about 700 dice of
// photos: one wrong value in it more or less moves the threshold by
// much, and none there says little of a rate of 0.2%. A network is never
// more often wrong on the photos it was trained on than at a new venue,
// so a threshold that lets more than the bar through on them is too low
// whatever the split says; the threshold only rises. When the wrong values
// over the bar are the second witness's, no threshold helps: they are
// left in the figures returned.
func holdBar(data string, sources []string, opts learned.Opts, thr float64) (float64, map[string]float64, error) {
	dice := map[string]*barDice{}
	net := opts
	net.MinConfidence, net.NetworkOnly = 1e-9, true
	for _, src := range sources {
		dir := filepath.Join(data, src)
		labels, err := readLabels(dir)
		if err != nil {
			return 0, nil, err
		}
		sizes, _ := vision.BoxSizes(dir) // a source without boxes has only crops
		d := &barDice{dir: dir}
		for _, l := range labels {
			s, boxed := sizes[l.File]
			if vision.IsCrop(l.File) && l.Want.Answer == vision.Value && (!boxed || s >= 40) {
				d.files = append(d.files, l.File)
				d.faces = append(d.faces, l.Want.Value)
			}
		}
		if d.net, err = readAll(d, net); err != nil {
			return 0, nil, err
		}
		dice[src] = d
	}
	for {
		opts.MinConfidence = thr
		rates := map[string]float64{}
		next := math.Inf(1)
		for src, d := range dice {
			got, err := readAll(d, opts)
			if err != nil {
				return 0, nil, err
			}
			wrong := 0
			for i, r := range got {
				if r.Answer == vision.Value && r.Value != d.faces[i] {
					wrong++
				}
			}
			rates[src] = float64(wrong) / float64(max(len(got), 1))
			if rates[src] <= wrongBar {
				continue
			}
			// the network's own wrong values over the threshold: the
			// least sure of them is the first the threshold can drop
			for i, r := range d.net {
				if r.Answer == vision.Value && r.Value != d.faces[i] && r.Confidence >= thr {
					next = min(next, r.Confidence)
				}
			}
		}
		if math.IsInf(next, 1) || next >= 1 {
			return thr, rates, nil
		}
		thr = math.Nextafter(next, 2)
	}
}

// readAll reads a source's dice with readers of opts, one per CPU.
func readAll(d *barDice, opts learned.Opts) ([]vision.Result, error) {
	got, _, err := dicedata.ReadFiles(d.dir, d.files, func() func(image.Image) vision.Result {
		o := opts
		return learned.NewReader(&o).ReadImage
	})
	return got, err
}
