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
	"github.com/parchis-table/parchis/vision/source"
)

func runCalibrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("calibrate", "[-config FILE [-teach=false] | -empty IMAGE -die IMAGE [-teach-photos LABELS.csv]] [-o FILE]",
		"Finds the dice tray in the camera's frame and the die's size in pixels, from a\nframe of the empty tray and one with a die lying flat in its middle, and writes\nthe calibration (the file camera.calibration names) with the empty tray's image\nbeside it. From the camera of the configuration it takes the first frame, asks\nyou to put the die in the tray and press Enter, and takes the second; then it\nteaches the table the event's dice: throw each face twice, pressing Enter each\ntime, and it writes the profile (dice.profile beside the calibration; name it as\ncamera.profile in the configuration). -empty and -die read two images instead,\nand -teach-photos the labelled photos to teach. See docs/camera.md.",
		"  parchisd calibrate -config /etc/parchisd/parchisd.yaml -o /etc/parchisd/camera.yaml\n  parchisd calibrate -empty empty.png -die die.png -teach-photos faces/labels.csv -o camera.yaml", stderr)
	cfgPath := fs.String("config", "", "take the frames from the camera of the configuration `FILE`")
	emptyFile := fs.String("empty", "", "`IMAGE` of the empty tray")
	dieFile := fs.String("die", "", "`IMAGE` with one die flat in the middle of the tray")
	out := fs.String("o", "", "write the calibration to `FILE` (default: standard output)")
	teach := fs.Bool("teach", true, "with -config: teach the table its dice, each face thrown twice")
	teachPhotos := fs.String("teach-photos", "", "with -empty/-die: teach the dice from the labelled photos in `LABELS.csv`")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	fromImages := *emptyFile != "" || *dieFile != ""
	if fs.NArg() != 0 || fromImages == (*cfgPath != "") || (fromImages && (*emptyFile == "" || *dieFile == "")) {
		fmt.Fprintln(stderr, "parchisd calibrate: want -config FILE, or both -empty IMAGE and -die IMAGE")
		return exitUsage
	}
	if (*teachPhotos != "" || !fromImages && *teach) && *out == "" {
		fmt.Fprintln(stderr, "parchisd calibrate: teaching the dice needs -o FILE: the profile is written beside it")
		return exitUsage
	}
	var empty, withDie *image.Gray
	var photos []vision.TeachPhoto
	var err error
	if fromImages {
		if empty, err = source.ReadImage(*emptyFile); err == nil {
			withDie, err = source.ReadImage(*dieFile)
		}
		if err == nil && *teachPhotos != "" {
			photos, err = vision.ReadTeachPhotos(*teachPhotos, source.DecodeImage)
		}
	} else {
		empty, withDie, photos, err = cameraFrames(*cfgPath, *teach, stdin, stderr)
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
		// the empty tray, which the reader compares candidates with
		var img bytes.Buffer
		if err := png.Encode(&img, empty); err == nil {
			name := strings.TrimSuffix(filepath.Base(*out), filepath.Ext(*out)) + "-empty.png"
			if err = journal.WriteFileAtomic(filepath.Join(filepath.Dir(*out), name), img.Bytes(), 0o644); err != nil {
				fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
				return exitFail
			}
			cal.Background = name
		}
	}
	if len(photos) > 0 {
		prof, err := vision.Teach(nil, photos)
		if err != nil {
			fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
			return exitFail
		}
		pf := filepath.Join(filepath.Dir(*out), "dice.profile")
		if err := vision.WriteProfileFile(pf, prof); err != nil {
			fmt.Fprintf(stderr, "parchisd calibrate: %v\n", err)
			return exitFail
		}
		fmt.Fprintf(stderr, "taught the dice from %d photos: wrote %s (set camera.profile to it)\n", len(photos), pf)
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
	return exitOK
}

// cameraFrames takes a frame of the empty tray from the configured camera,
// waits for Enter once the die is in the tray, and takes another; with
// teach, it then asks for each face twice and takes a frame of each.
func cameraFrames(cfgPath string, teach bool, stdin io.Reader, stderr io.Writer) (empty, withDie *image.Gray, photos []vision.TeachPhoto, err error) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, err := openCamera(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	grab := func() (*image.Gray, error) {
		f, err := frames.Next()
		if err != nil {
			return nil, fmt.Errorf("camera: %w", err)
		}
		// Frames may share their pixels with the next one: keep a copy.
		r := f.Gray.Rect
		g := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
		for y := 0; y < r.Dy(); y++ {
			copy(g.Pix[y*g.Stride:][:r.Dx()], f.Gray.Pix[f.Gray.PixOffset(r.Min.X, r.Min.Y+y):][:r.Dx()])
		}
		return g, nil
	}
	in := bufio.NewReader(stdin)
	enter := func() error {
		if _, err := in.ReadString('\n'); err != nil && err != io.EOF {
			return err
		}
		return nil
	}
	fmt.Fprintln(stderr, "taking a frame of the empty tray…")
	if empty, err = grab(); err != nil {
		return nil, nil, nil, err
	}
	fmt.Fprintln(stderr, "put one die flat in the middle of the tray, then press Enter")
	if err := enter(); err != nil {
		return nil, nil, nil, err
	}
	if withDie, err = grab(); err != nil {
		return nil, nil, nil, err
	}
	if !teach {
		return empty, withDie, nil, nil
	}
	fmt.Fprintln(stderr, "now teach the table the event's dice: throw each face twice")
	for face := 1; face <= 6; face++ {
		for k := 1; k <= 2; k++ {
			fmt.Fprintf(stderr, "show face %d (%d of 2) in the tray, then press Enter\n", face, k)
			if err := enter(); err != nil {
				return nil, nil, nil, err
			}
			g, err := grab()
			if err != nil {
				return nil, nil, nil, err
			}
			photos = append(photos, vision.TeachPhoto{Name: fmt.Sprintf("face %d, throw %d", face, k), Image: g, Face: face})
		}
	}
	return empty, withDie, photos, nil
}
