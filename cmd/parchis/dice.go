package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

const diceUsage = `usage: parchis dice read [flags] FILE...     read the die in each image
       parchis dice read [flags] -           read the images whose paths come on stdin
       parchis dice eval [flags] DIR...      score the reader on labelled folders (labels.csv)
       parchis dice teach -o PROFILE LABELS.csv
                                             teach the learned reader a venue's dice

read prints one line per image, in input order: PATH<TAB>ANSWER CONFIDENCE,
where ANSWER is 1…6, none, multi, edge or unsure.

eval prints, per folder and in total, the confusion matrix, the read-rate
(correct value), the wrong-rate (a wrong value given) and ms per image.

teach reads LABELS.csv (file,label rows; paths absolute or relative to the
CSV's folder; labels 1…6): two or three photos of each face of the event's
dice, one die a photo, and writes the profile that -profile reads. A photo
whose die does not match its label is refused, naming it.

Flags:
  -oblique        the photos are taken from the side, not straight down
  -calib FILE     use the tray and die size of a calibration (YAML)
  -learned        read with the learned reader (vision/learned), which
                  reads crops and frames from any view, without -oblique;
                  not yet the table's: see vision/train/REPORT.md
  -model FILE     the learned reader's model (ONNX) instead of the built-in one
  -profile FILE   the learned reader with a venue's profile (from teach)
  -o FILE         teach: the profile to write

Example:
  $ parchis dice read tray.png
  tray.png	5 0.97
  $ find shots -name '*.png' | parchis dice read -
  $ parchis dice eval ../shared/data/dice/tomitomi3_gray128

Exit status: 0 when every image was read (whatever the answer), 2 on bad
usage or an image or labels file that cannot be read.
`

// runDice runs "parchis dice ARGS".
func runDice(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, diceUsage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd := args[0]
	fs := flag.NewFlagSet("parchis dice "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, diceUsage) }
	oblique := fs.Bool("oblique", false, "photos taken from the side")
	calib := fs.String("calib", "", "calibration YAML file")
	useLearned := fs.Bool("learned", false, "read with the learned reader")
	modelFile := fs.String("model", "", "the learned reader's model (ONNX)")
	profileFile := fs.String("profile", "", "the learned reader's venue profile")
	out := fs.String("o", "", "teach: the profile to write")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	opts := vision.DefaultOpts
	if *calib != "" {
		f, err := os.Open(*calib)
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %v\n", err)
			return 2
		}
		c, err := vision.ReadCalibrationYAML(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %s: %v\n", *calib, err)
			return 2
		}
		opts = c.Apply(opts)
	}
	if *oblique {
		opts = vision.ObliqueOpts(opts)
	}
	newReader := func() dieReader { return vision.NewReader(&opts) }
	if *useLearned || *modelFile != "" || *profileFile != "" || cmd == "teach" {
		lo := learned.Opts{Tray: opts.Tray}
		if *modelFile != "" {
			m, err := learned.LoadModel(*modelFile)
			if err != nil {
				fmt.Fprintf(stderr, "parchis dice: %v\n", err)
				return 2
			}
			lo.Model = m
		}
		if *profileFile != "" {
			p, err := learned.LoadProfile(*profileFile, lo.Model)
			if err != nil {
				fmt.Fprintf(stderr, "parchis dice: %v\n", err)
				return 2
			}
			lo.Profile = p
		}
		if cmd == "teach" {
			return diceTeach(fs.Args(), *out, lo, stdout, stderr)
		}
		newReader = func() dieReader { return learned.NewReader(&lo) }
	}
	switch cmd {
	case "read":
		return diceRead(fs.Args(), newReader, stdin, stdout, stderr)
	case "eval":
		return diceEval(fs.Args(), newReader, stdout, stderr)
	}
	fmt.Fprintf(stderr, "parchis dice: unknown command %q\n%s", cmd, diceUsage)
	return 2
}

// dieReader is what reads the die in an image: the pip rules of package
// vision, or the learned reader.
type dieReader interface {
	ReadImage(image.Image) vision.Result
}

// diceTeach runs "parchis dice teach -o PROFILE LABELS.csv".
func diceTeach(args []string, out string, opts learned.Opts, stdout, stderr io.Writer) int {
	if len(args) != 1 || out == "" {
		fmt.Fprintf(stderr, "parchis dice teach: want -o PROFILE and one LABELS.csv\n%s", diceUsage)
		return 2
	}
	photos, err := learned.ReadTeachPhotos(args[0], source.DecodeImage)
	if err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %v\n", err)
		return 2
	}
	p, err := learned.Teach(opts.Model, photos)
	if err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %s: %v\n", args[0], err)
		return 2
	}
	if err := learned.WriteProfileFile(out, p); err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "taught %d photos (faces 1…6: %v); wrote %s\n", len(photos), p.Photos, out)
	return 0
}

func diceRead(paths []string, newReader func() dieReader, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "parchis dice read: no images\n%s", diceUsage)
		return 2
	}
	if len(paths) == 1 && paths[0] == "-" {
		paths = nil
		sc := bufio.NewScanner(stdin)
		for sc.Scan() {
			if p := strings.TrimSpace(sc.Text()); p != "" {
				paths = append(paths, p)
			}
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintf(stderr, "parchis dice read: stdin: %v\n", err)
			return 2
		}
	}
	rd := newReader()
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	code := 0
	for _, p := range paths {
		img, err := source.DecodeImage(p)
		if err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "parchis dice read: %v\n", err)
			code = 2
			continue
		}
		res := rd.ReadImage(img)
		fmt.Fprintf(out, "%s\t%s %.2f\n", p, res, res.Confidence)
	}
	return code
}

func diceEval(dirs []string, newReader func() dieReader, stdout, stderr io.Writer) int {
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "parchis dice eval: no folders\n%s", diceUsage)
		return 2
	}
	rd := newReader()
	var total vision.Tally
	code := 0
	for _, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, "labels.csv"))
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice eval: %v\n", err)
			code = 2
			continue
		}
		labels, err := vision.ReadLabels(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice eval: %s: %v\n", filepath.Join(dir, "labels.csv"), err)
			code = 2
		}
		var t vision.Tally
		for _, l := range labels {
			img, err := source.DecodeImage(filepath.Join(dir, l.File))
			if err != nil {
				fmt.Fprintf(stderr, "parchis dice eval: %v\n", err)
				code = 2
				continue
			}
			t0 := time.Now()
			res := rd.ReadImage(img)
			took := time.Since(t0)
			t.Add(l.Want, res, took)
			total.Add(l.Want, res, took)
		}
		fmt.Fprintf(stdout, "== %s\n", dir)
		if err := t.WriteMatrix(stdout); err != nil {
			return 2
		}
	}
	if len(dirs) > 1 {
		fmt.Fprintln(stdout, "== total")
		if err := total.WriteMatrix(stdout); err != nil {
			return 2
		}
	}
	return code
}
