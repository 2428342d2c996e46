package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"io"

	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/source"
)

func runCalibrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("calibrate", l.Pick("[-config FILE | -empty IMAGE -die IMAGE] [-o FILE]", "[-config FICHERO | -empty IMAGEN -die IMAGEN] [-o FICHERO]"), l.Pick(
		"Finds the dice tray in the camera's frame and the die's size in pixels, from a\nframe of the empty tray and one with a die lying flat in its middle, and writes\nthe calibration (the file camera.calibration names). From the camera of the\nconfiguration it takes the first frame, asks you to put the die in the tray and\npress Enter, and takes the second; -empty and -die read two images instead.\nSee docs/camera.md.",
		"Localiza la bandeja del dado en la imagen de la cámara y el tamaño del dado en\npíxeles, a partir de una imagen de la bandeja vacía y otra con un dado plano en\nsu centro, y escribe la calibración (el fichero que nombra camera.calibration).\nCon la cámara de la configuración toma la primera imagen, le pide poner el dado\nen la bandeja y pulsar Intro, y toma la segunda; -empty y -die leen en su lugar\ndos imágenes. Véase docs/camera.md."),
		"  parchisd calibrate -config /etc/parchisd/parchisd.yaml -o /etc/parchisd/camera.yaml\n"+
			l.Pick("  parchisd calibrate -empty empty.png -die die.png", "  parchisd calibrate -empty vacia.png -die dado.png"), stderr)
	cfgPath := fs.String("config", "", l.Pick("take the frames from the camera of the configuration `FILE`", "toma las imágenes de la cámara del `FICHERO` de configuración"))
	emptyFile := fs.String("empty", "", l.Pick("`IMAGE` of the empty tray", "`IMAGEN` de la bandeja vacía"))
	dieFile := fs.String("die", "", l.Pick("`IMAGE` with one die flat in the middle of the tray", "`IMAGEN` con un dado plano en el centro de la bandeja"))
	out := fs.String("o", "", l.Pick("write the calibration to `FILE` (default: standard output)", "escribe la calibración en `FICHERO` (si no, en la salida estándar)"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	fromImages := *emptyFile != "" || *dieFile != ""
	if fs.NArg() != 0 || fromImages == (*cfgPath != "") || (fromImages && (*emptyFile == "" || *dieFile == "")) {
		fmt.Fprintln(stderr, l.Pick("parchisd calibrate: want -config FILE, or both -empty IMAGE and -die IMAGE", "parchisd calibrate: se espera -config FICHERO, o a la vez -empty IMAGEN y -die IMAGEN"))
		return exitUsage
	}
	var empty, withDie *image.Gray
	var err error
	if fromImages {
		if empty, err = source.ReadImage(*emptyFile); err == nil {
			withDie, err = source.ReadImage(*dieFile)
		}
	} else {
		empty, withDie, err = cameraFrames(*cfgPath, stdin, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %s\n", l.Say(err.Error()))
		return exitUsage
	}
	cal, err := vision.Calibrate(empty, withDie)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %s\n", l.Say(err.Error()))
		return exitFail
	}
	var b bytes.Buffer
	if err := cal.WriteYAML(&b); err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %s\n", l.Say(err.Error()))
		return exitFail
	}
	if *out == "" {
		stdout.Write(b.Bytes())
	} else if err := journal.WriteFileAtomic(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %s\n", l.Say(err.Error()))
		return exitFail
	}
	fmt.Fprintf(stderr, l.Pick("tray %v, die %.0f px wide\n", "bandeja %v, dado de %.0f px de ancho\n"), cal.Tray.Rectangle(), cal.DieSize)
	if cal.DieSize < 60 {
		fmt.Fprintln(stderr, l.Pick("the die is narrower than 60 px: bring the camera closer or use a longer lens (docs/camera.md)",
			"el dado mide menos de 60 px: acerque la cámara o use un objetivo más largo (docs/camera.md)"))
	}
	return exitOK
}

// cameraFrames takes a frame of the empty tray from the configured camera,
// waits for Enter once the die is in the tray, and takes another.
func cameraFrames(cfgPath string, stdin io.Reader, stderr io.Writer) (empty, withDie *image.Gray, err error) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, err := openCamera(ctx, cfg)
	if err != nil {
		return nil, nil, err
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
	fmt.Fprintln(stderr, spanish.Pick("taking a frame of the empty tray…", "tomando una imagen de la bandeja vacía…"))
	if empty, err = grab(); err != nil {
		return nil, nil, err
	}
	fmt.Fprintln(stderr, spanish.Pick("put one die flat in the middle of the tray, then press Enter", "ponga un dado plano en el centro de la bandeja y pulse Intro"))
	if _, err := bufio.NewReader(stdin).ReadString('\n'); err != nil && err != io.EOF {
		return nil, nil, err
	}
	if withDie, err = grab(); err != nil {
		return nil, nil, err
	}
	return empty, withDie, nil
}
