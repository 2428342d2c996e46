package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/source"
)

const diceUsage = `usage: parchis dice read [flags] FILE...       read the die in each image
       parchis dice read [flags] -             read the images whose paths come on stdin
       parchis dice eval [flags] DIR...        score the reader on labelled folders (labels.csv)
       parchis dice teach [flags] -o PROFILE LABELS.csv
                                               teach the reader a venue's dice from labelled photos

read prints one line per image, in input order: PATH<TAB>ANSWER CONFIDENCE,
where ANSWER is 1…6, none, multi, edge or unsure. The same reader reads a
crop of one die or a whole frame, seen straight down or from the side.

eval prints, per folder and in total, the confusion matrix, the read-rate
(correct value), the wrong-rate (a wrong value given) and ms per image.

teach reads LABELS.csv (file,label rows; paths absolute or relative to the
CSV's folder; labels 1…6): two or three photos of each face of the event's
dice, one die a photo. It writes the profile, which read, eval and the
table (camera.profile) then use. A photo whose die does not match its
label is refused, naming it.

Flags:
  -calib FILE     use the tray and die size of a calibration (YAML)
  -model FILE     a die model (ONNX) instead of the embedded one
  -profile FILE   read with a venue's profile (from teach)
  -o FILE         teach: the profile to write

Example:
  $ parchis dice read tray.png
  tray.png	5 0.97
  $ find shots -name '*.png' | parchis dice read -
  $ parchis dice eval ../shared/data/dice/tomitomi3_gray128
  $ parchis dice teach -o club.profile photos/labels.csv

Exit status: 0 when every image was read (whatever the answer) or the
profile was written, 2 on bad usage, an image or labels file that cannot
be read, or photos that cannot be taught.
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
	calib := fs.String("calib", "", "calibration YAML file")
	modelFile := fs.String("model", "", "die model (ONNX)")
	profileFile := fs.String("profile", "", "venue profile")
	out := fs.String("o", "", "teach: the profile to write")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	opts := vision.DefaultOpts
	if *modelFile != "" {
		m, err := vision.LoadModel(*modelFile)
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %v\n", err)
			return 2
		}
		opts.Model = m
	}
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
	if *profileFile != "" {
		p, err := vision.LoadProfile(*profileFile, opts.Model)
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %v\n", err)
			return 2
		}
		opts.Profile = p
	}
	switch cmd {
	case "read":
		return diceRead(fs.Args(), opts, stdin, stdout, stderr)
	case "eval":
		return diceEval(fs.Args(), opts, stdout, stderr)
	case "teach":
		return diceTeach(fs.Args(), *out, opts, stdout, stderr)
	}
	fmt.Fprintf(stderr, "parchis dice: unknown command %q\n%s", cmd, diceUsage)
	return 2
}

// diceTeach runs "parchis dice teach -o PROFILE LABELS.csv".
func diceTeach(args []string, out string, opts vision.Opts, stdout, stderr io.Writer) int {
	if len(args) != 1 || out == "" {
		fmt.Fprintf(stderr, "parchis dice teach: want -o PROFILE and one LABELS.csv\n%s", diceUsage)
		return 2
	}
	photos, err := vision.ReadTeachPhotos(args[0], source.DecodeImage)
	if err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %v\n", err)
		return 2
	}
	p, err := vision.Teach(opts.Model, photos)
	if err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %s: %v\n", args[0], err)
		return 2
	}
	if err := vision.WriteProfileFile(out, p); err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "taught %d photos (faces 1…6: %v); wrote %s\n", len(photos), p.Photos, out)
	return 0
}

func diceRead(paths []string, opts vision.Opts, stdin io.Reader, stdout, stderr io.Writer) int {
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
	rd := vision.NewReader(&opts)
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

func diceEval(dirs []string, opts vision.Opts, stdout, stderr io.Writer) int {
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "parchis dice eval: no folders\n%s", diceUsage)
		return 2
	}
	rd := vision.NewReader(&opts)
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
