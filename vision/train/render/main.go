// Command render writes the synthetic part of the die recogniser's
// training set: frames from vision/synth's WideScene, and an
// annotations.csv with one row per die (frame, die, label, box) in the
// layout of ../shared/data/dice, so that train.py reads them like any
// other source.
//
//	go run ./vision/train/render -o DIR [-n 6000] [-seed 1]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/png"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/parchis-table/parchis/vision/synth"
)

func main() {
	out := flag.String("o", "", "output folder (required)")
	n := flag.Int("n", 6000, "frames to render")
	seed := flag.Uint64("seed", 1, "seed of the first frame")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: render -o DIR [-n N] [-seed S]")
		os.Exit(2)
	}
	if err := render(*out, *n, *seed); err != nil {
		slog.Error("render", "err", err)
		os.Exit(1)
	}
}

// render writes n frames: most with one flat die, some with dice on an
// edge or leaning, some with several dice and some with none.
func render(dir string, n int, seed uint64) error {
	if err := os.MkdirAll(filepath.Join(dir, "frames"), 0o755); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, "annotations.csv"))
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "frame,die,label,xmin,ymin,xmax,ymax,view,tilt")
	for i := 0; i < n; i++ {
		s0 := seed + uint64(i)
		rng := rand.New(rand.NewPCG(s0, 3))
		kind, dice := synth.Flat, 1
		switch r := rng.IntN(20); {
		case r < 3:
			kind = synth.OnEdge
		case r < 5:
			kind = synth.Leaning
		case r < 8:
			dice = 2 + rng.IntN(3)
		case r < 9:
			dice = 0
		}
		side := 96 + rng.IntN(160)
		size := float64(side) * (0.12 + 0.33*rng.Float64())
		sc := synth.WideScene(s0, side, side, kind, dice, size*0.8, size*1.2)
		name := "frames/s" + strconv.FormatUint(s0, 10) + ".png"
		img := synth.Render(sc)
		pf, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		err = png.Encode(pf, img)
		if cerr := pf.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
		for k, b := range sc.Boxes() {
			label := strconv.Itoa(sc.Dice[k].Face)
			if kind != synth.Flat {
				label = "edge"
			}
			fmt.Fprintf(w, "%s,%d,%s,%d,%d,%d,%d,%.0f,%.0f\n", name, k, label, b.Min.X, b.Min.Y, b.Max.X, b.Max.Y, sc.View, sc.Dice[k].Tilt)
		}
		if len(sc.Dice) == 0 {
			fmt.Fprintf(w, "%s,,none,,,,,%.0f,\n", name, sc.View)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	return f.Close()
}
