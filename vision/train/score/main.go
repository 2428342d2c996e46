// Command score reads labelled sources of ../shared/data/dice with a die
// model and prints, per source, the figures the accuracy bars are stated
// in: crops of dice at least 40 px wide, all crops, whole frames and
// frames of several dice. vision/train/loso.py runs it on each source
// with the model trained without that source.
//
//	go run ./vision/train/score [-model FILE] [-data DIR] SOURCE...
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/parchis-table/parchis/vision"
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
	rd := learned.NewReader(&opts)
	out := map[string]map[string]Rates{}
	for _, src := range flag.Args() {
		dir := filepath.Join(*data, src)
		f, err := os.Open(filepath.Join(dir, "labels.csv"))
		if err != nil {
			slog.Error("score", "err", err)
			os.Exit(2)
		}
		labels, err := vision.ReadLabels(f)
		f.Close()
		if err != nil {
			slog.Error("score", "source", src, "err", err)
			os.Exit(2)
		}
		sizes, _ := vision.BoxSizes(dir) // a source without boxes has only crops
		var big, all, frames, multi vision.Tally
		for _, l := range labels {
			img, err := source.DecodeImage(filepath.Join(dir, l.File))
			if err != nil {
				slog.Error("score", "err", err)
				os.Exit(2)
			}
			t0 := time.Now()
			got := rd.ReadImage(img)
			took := time.Since(t0)
			s, boxed := sizes[l.File]
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
		out[src] = map[string]Rates{"crops_40px": rates(&big), "crops": rates(&all), "frames": rates(&frames), "multi_40px": rates(&multi)}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		os.Exit(1)
	}
}
