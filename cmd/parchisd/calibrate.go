package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"

	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

// teachThrows is how many photos of each face the guided teach step takes.
const teachThrows = 2

func runCalibrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate", "[-config FILE [-teach] | -empty IMAGE -die IMAGE] [-o FILE]",
		"Finds the dice tray in the camera's frame and the die's size in pixels, from a\nframe of the empty tray and one with a die lying flat in its middle, and writes\nthe calibration (the file camera.calibration names). From the camera of the\nconfiguration it takes the first frame, asks you to put the die in the tray and\npress Enter, and takes the second; -empty and -die read two images instead.\nWith -o, the empty tray's frame is saved beside the calibration: the learned\nreader tells the tray from a die by it.\n\nWith -teach, it then teaches the learned reader the venue's dice: it asks for\neach face twice (throw, turn the die to that face, press Enter) and writes the\nprofile beside the calibration, for camera.profile. A photo that disagrees with\nits face is refused, named. See docs/camera.md.",
		"  parchisd calibrate -config /etc/parchisd/parchisd.yaml -o /etc/parchisd/camera.yaml\n  parchisd calibrate -config /etc/parchisd/parchisd.yaml -o /etc/parchisd/camera.yaml -teach\n  parchisd calibrate -empty empty.png -die die.png", stderr)
	cfgPath := fs.String("config", "", "take the frames from the camera of the configuration `FILE`")
	emptyFile := fs.String("empty", "", "`IMAGE` of the empty tray")
	dieFile := fs.String("die", "", "`IMAGE` with one die flat in the middle of the tray")
	out := fs.String("o", "", "write the calibration to `FILE` (default: standard output)")
	teach := fs.Bool("teach", false, "then teach the learned reader the venue's dice (needs -config and -o)")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	fromImages := *emptyFile != "" || *dieFile != ""
	if fs.NArg() != 0 || fromImages == (*cfgPath != "") || (fromImages && (*emptyFile == "" || *dieFile == "")) {
		fmt.Fprintln(stderr, "parchisd calibrate: want -config FILE, or both -empty IMAGE and -die IMAGE")
		return exitUsage
	}
	if *teach && (*cfgPath == "" || *out == "") {
		fmt.Fprintln(stderr, "parchisd calibrate: -teach needs -config FILE (the camera) and -o FILE (the profile is written beside it)")
		return exitUsage
	}
	var empty, withDie *image.Gray
	var cam *camera
	var err error
	if fromImages {
		if empty, err = source.ReadImage(*emptyFile); err == nil {
			withDie, err = source.ReadImage(*dieFile)
		}
	} else {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if cam, err = openCameraFor(ctx, *cfgPath, stdin, stderr); err == nil {
			empty, withDie, err = cam.trayFrames()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
		return exitUsage
	}
	cal, err := vision.Calibrate(empty, withDie)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
		return exitFail
	}
	if *out != "" {
		bg := besideFile(*out, "-empty.png")
		var b bytes.Buffer
		if err := png.Encode(&b, empty); err == nil {
			err = journal.WriteFileAtomic(bg, b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "parchisd calibrate: empty tray frame %s: %v\n", bg, err)
			return exitFail
		}
		cal.Background = filepath.Base(bg)
	}
	var b bytes.Buffer
	if err := cal.WriteYAML(&b); err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
		return exitFail
	}
	if *out == "" {
		stdout.Write(b.Bytes())
	} else if err := journal.WriteFileAtomic(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stderr, "tray %v, die %.0f px wide\n", cal.Tray.Rectangle(), cal.DieSize)
	if cal.DieSize < 60 {
		fmt.Fprintln(stderr, "the die is narrower than 60 px: bring the camera closer or use a longer lens (docs/camera.md)")
	}
	if !*teach {
		return exitOK
	}
	profile := besideFile(*out, "-dice.json")
	if err := cam.teach(cal, profile); err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(stderr, "wrote the dice profile %s: set camera.reader: learned and camera.profile: %s\n", profile, profile)
	return exitOK
}

// besideFile is the file named as path, its extension replaced by suffix:
// the files calibrate writes beside the calibration.
func besideFile(path, suffix string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + suffix
}

// camera is the configured camera while calibrate asks for dice in the
// tray: the prompts go to stderr, the answers come from stdin.
type camera struct {
	cfgModel string
	frames   source.Source
	stdin    *bufio.Reader
	stderr   io.Writer
}

// openCameraFor opens the camera of the configuration at cfgPath.
func openCameraFor(ctx context.Context, cfgPath string, stdin io.Reader, stderr io.Writer) (*camera, error) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	frames, err := openCamera(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &camera{cfgModel: cfg.Camera.Model, frames: frames, stdin: bufio.NewReader(stdin), stderr: stderr}, nil
}

// grab takes a frame, as a copy: frames may share their pixels with the
// next one.
func (c *camera) grab() (*image.Gray, error) {
	f, err := c.frames.Next()
	if err != nil {
		return nil, fmt.Errorf("camera: %w", err)
	}
	r := f.Gray.Rect
	g := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		copy(g.Pix[y*g.Stride:][:r.Dx()], f.Gray.Pix[f.Gray.PixOffset(r.Min.X, r.Min.Y+y):][:r.Dx()])
	}
	return g, nil
}

// ask prints a prompt and waits for Enter.
func (c *camera) ask(prompt string) error {
	fmt.Fprintln(c.stderr, prompt)
	if _, err := c.stdin.ReadString('\n'); err != nil && err != io.EOF {
		return err
	}
	return nil
}

// trayFrames takes a frame of the empty tray, waits for Enter once the
// die is in the tray, and takes another.
func (c *camera) trayFrames() (empty, withDie *image.Gray, err error) {
	fmt.Fprintln(c.stderr, "taking a frame of the empty tray…")
	if empty, err = c.grab(); err != nil {
		return nil, nil, err
	}
	if err := c.ask("put one die flat in the middle of the tray, then press Enter"); err != nil {
		return nil, nil, err
	}
	if withDie, err = c.grab(); err != nil {
		return nil, nil, err
	}
	return empty, withDie, nil
}

// teach asks for every face teachThrows times, each photo cut to the tray,
// and writes the profile the learned reader makes of them. Photos that
// disagree with their face are refused by name ("face 5, throw 2").
func (c *camera) teach(cal vision.Calibration, profile string) error {
	var m *learned.Model
	if c.cfgModel != "" {
		var err error
		if m, err = learned.LoadModel(c.cfgModel); err != nil {
			return err
		}
	}
	tray := cal.Tray.Rectangle()
	var photos []learned.TeachPhoto
	for face := 1; face <= 6; face++ {
		for k := 1; k <= teachThrows; k++ {
			if err := c.ask(fmt.Sprintf("throw the die, turn it to show %d on top, lying flat, then press Enter (face %d, throw %d of %d)", face, face, k, teachThrows)); err != nil {
				return err
			}
			g, err := c.grab()
			if err != nil {
				return err
			}
			var img image.Image = g
			if !tray.Empty() {
				img = g.SubImage(tray)
			}
			photos = append(photos, learned.TeachPhoto{Name: fmt.Sprintf("face %d, throw %d", face, k), Image: img, Face: face})
		}
	}
	p, err := learned.Teach(m, photos)
	if err != nil {
		return fmt.Errorf("%w (throw those faces again: parchisd calibrate -teach)", err)
	}
	return learned.WriteProfileFile(profile, p)
}
