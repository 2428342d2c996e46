// Command score reads labelled sources of ../shared/data/dice with a die
// model and prints, per source, the figures the accuracy bars are stated
// in: crops of dice at least 40 px wide, all crops, whole frames and
// frames of several dice, against the labels as corrected where a photo
// proves its label wrong (vision/internal/dicedata/corrections.csv).
// vision/train/loso.py runs it on each source
// with the model trained without that source.
//
// With -teach K, the venue's teach step is played first: K crops of each
// face (dice at least 40 px wide, drawn by a fixed hash of their names) are
// taught as a profile, and every figure is then over the other images
// only. With a model trained without the source, that is a venue whose
// dice the network never saw, after its organiser showed them.
//
// With -calibrate, nothing is scored: the crops of the sources whose frames
// are in train.py's validation split are read with every value accepted,
// and the lowest confidence keeping wrong values at most -max-wrong of
// those dice is chosen; it is raised, if need be, until no source's crops
// of dice ≥40 px get over 0.2% wrong values as the table reads them (see
// holdBar), and printed for train.py to set as the model's threshold.
//
// With -network-only, the reader reads with the networks alone: a die the
// classifier is unsure of gets no second witness (the pip rules) nor third
// (the box witness).
//
// With -dump FILE, a JSON line per crop is appended to FILE as well: the
// network's top face and confidence with every value accepted, its
// probabilities and embedding, and the pip rules' answer, for studying
// how thresholds, a venue's profile or the two readers together would do
// (the measurements quoted in vision/learned were made so).
//
//	go run ./vision/train/score [-model FILE] [-data DIR] [-network-only] [-teach K | -calibrate] [-dump FILE] SOURCE...
package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/internal/dicedata"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

// Rates are one category's figures.
type Rates struct {
	Dice      int     `json:"dice"`       // images labelled 1…6
	Read      float64 `json:"read"`       // share read correctly
	Wrong     float64 `json:"wrong"`      // share given a wrong value
	Multi     int     `json:"multi"`      // images labelled multi
	MultiRate float64 `json:"multi_rate"` // share of those answered multi
	MsPerImg  float64 `json:"ms_per_image"`
}

func rates(t *vision.Tally) Rates {
	n, _, _ := t.Values()
	r := Rates{Dice: n, Read: t.ReadRate(), Wrong: t.WrongRate(), Multi: t.Total("multi"), MultiRate: t.Rate("multi")}
	if t.Images > 0 {
		r.MsPerImg = float64(t.Elapsed.Microseconds()) / 1000 / float64(t.Images)
	}
	return r
}

func main() {
	model := flag.String("model", "", "die model (default: the embedded one)")
	data := flag.String("data", filepath.Join("..", "shared", "data", "dice"), "folder of the labelled sources")
	minConf := flag.Float64("min-confidence", 0, "the confidence under which a value is unsure (default: the model's)")
	teach := flag.Int("teach", 0, "teach `K` photos of each face of the source first, and score the others")
	calib := flag.Bool("calibrate", false, "choose the threshold on the sources' validation split instead of scoring")
	maxWrong := flag.Float64("max-wrong", 0.002, "calibrate: the share of the validation dice that may be given a wrong value")
	netOnly := flag.Bool("network-only", false, "read with the networks alone, without the witnesses of an unsure die (the pip rules, the box witness)")
	dump := flag.String("dump", "", "also write `FILE`: a JSON line per crop with the network's top face and confidence (every value accepted) and the pip rules' answer")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: score [-model FILE] [-data DIR] SOURCE...")
		os.Exit(2)
	}
	opts := learned.DefaultOpts
	if *model != "" {
		m, err := learned.LoadModel(*model)
		if err != nil {
			slog.Error("score", "err", err)
			os.Exit(2)
		}
		opts.Model = m
	}
	opts.MinConfidence = *minConf
	opts.NetworkOnly = *netOnly
	if *calib {
		c, err := calibrate(*data, flag.Args(), opts, *maxWrong)
		if err != nil {
			slog.Error("score", "err", err)
			os.Exit(2)
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", " ")
		enc.Encode(c)
		return
	}
	out := map[string]map[string]Rates{}
	for _, src := range flag.Args() {
		dir := filepath.Join(*data, src)
		labels, err := readLabels(dir)
		if err != nil {
			slog.Error("score", "source", src, "err", err)
			os.Exit(2)
		}
		sizes, _ := vision.BoxSizes(dir) // a source without boxes has only crops
		o := opts
		taught := map[string]bool{}
		if *teach > 0 {
			p, files, err := teachFrom(dir, labels, sizes, *teach, opts.Model)
			if err != nil {
				slog.Error("score", "source", src, "err", err)
				os.Exit(2)
			}
			o.Profile = p
			taught = files
		}
		rd := learned.NewReader(&o)
		var dumper *dumpWriter
		if *dump != "" {
			if dumper, err = newDumpWriter(*dump, src, o); err != nil {
				slog.Error("score", "err", err)
				os.Exit(2)
			}
		}
		var big, all, frames, multi vision.Tally
		for _, l := range labels {
			if taught[l.File] {
				continue
			}
			img, err := source.DecodeImage(filepath.Join(dir, l.File))
			if err != nil {
				slog.Error("score", "err", err)
				os.Exit(2)
			}
			t0 := time.Now()
			got := rd.ReadImage(img)
			took := time.Since(t0)
			s, boxed := sizes[l.File]
			if dumper != nil && vision.IsCrop(l.File) {
				dumper.add(l, img, s)
			}
			if vision.IsCrop(l.File) {
				all.Add(l.Want, got, took)
				if !boxed || s >= 40 {
					big.Add(l.Want, got, took)
				}
				continue
			}
			frames.Add(l.Want, got, took)
			if l.Want.Answer == vision.Multi && s >= 40 {
				multi.Add(l.Want, got, took)
			}
		}
		if dumper != nil {
			if err := dumper.close(); err != nil {
				slog.Error("score", "err", err)
				os.Exit(2)
			}
		}
		out[src] = map[string]Rates{"crops_40px": rates(&big), "crops": rates(&all), "frames": rates(&frames), "multi_40px": rates(&multi)}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		os.Exit(1)
	}
}

// teachFrom teaches a profile from k crops of each face of a source: crops
// of dice at least 40 px wide, in the order of a hash of their names, so
// the draw is fixed and spread over the source's photos. A crop the teach
// step refuses (several dice, or a label it disagrees with) is replaced by
// the next of its face, as an organiser would retake that photo; refused
// crops are scored with the others.
func teachFrom(dir string, labels []vision.Label, sizes map[string]float64, k int, m *learned.Model) (*learned.Profile, map[string]bool, error) {
	hash := func(s string) uint64 {
		h := fnv.New64a()
		h.Write([]byte(s))
		return h.Sum64()
	}
	var pool [7][]vision.Label
	for _, l := range labels {
		if s, boxed := sizes[l.File]; vision.IsCrop(l.File) && l.Want.Answer == vision.Value && (!boxed || s >= 40) {
			pool[l.Want.Value] = append(pool[l.Want.Value], l)
		}
	}
	refused := map[string]bool{}
	for {
		var photos []learned.TeachPhoto
		for face := 1; face <= 6; face++ {
			slices.SortFunc(pool[face], func(a, b vision.Label) int { return cmp.Compare(hash(a.File), hash(b.File)) })
			n := 0
			for _, l := range pool[face] {
				if n == k {
					break
				}
				if refused[l.File] {
					continue
				}
				img, err := source.DecodeImage(filepath.Join(dir, l.File))
				if err != nil {
					return nil, nil, err
				}
				photos = append(photos, learned.TeachPhoto{Name: l.File, Image: img, Face: face})
				n++
			}
		}
		p, err := learned.Teach(m, photos)
		if err == nil {
			files := map[string]bool{}
			for _, ph := range photos {
				files[ph.Name] = true
			}
			return p, files, nil
		}
		named := 0
		for _, ph := range photos {
			if strings.Contains(err.Error(), ph.Name+":") {
				refused[ph.Name] = true
				named++
			}
		}
		if named == 0 {
			return nil, nil, err
		}
		slog.Info("teach: photos refused, taking the next of their faces", "refused", named)
	}
}

// readLabels reads a source's labels.csv with the corrections of the shared
// photos (vision/internal/dicedata/corrections.csv) applied.
func readLabels(dir string) ([]vision.Label, error) {
	b, err := dicedata.Labels(dir)
	if err != nil {
		return nil, err
	}
	ls, err := vision.ReadLabels(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "labels.csv"), err)
	}
	return ls, nil
}
