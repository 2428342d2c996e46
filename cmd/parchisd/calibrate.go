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

	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

// teachThrows is how many photos of each face the guided teach step takes.
const teachThrows = 2

func runCalibrate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("calibrate", l.Pick("[-config FILE [-teach] | -empty IMAGE -die IMAGE] [-o FILE]", "[-config FICHERO [-teach] | -empty IMAGEN -die IMAGEN] [-o FICHERO]"), l.Pick(
		"Finds the dice tray in the camera's frame and the die's size in pixels, from a\nframe of the empty tray and one with a die lying flat in its middle, and writes\nthe calibration (the file camera.calibration names). From the camera of the\nconfiguration it takes the first frame, asks you to put the die in the tray and\npress Enter, and takes the second; -empty and -die read two images instead.\nWith -o, the empty tray's frame is saved beside the calibration: the learned\nreader tells the tray from a die by it.\n\nWith -teach, it then teaches the learned reader the venue's dice: it asks for\neach face twice (throw, turn the die to that face, press Enter) and writes the\nprofile beside the calibration, for camera.profile. A photo that disagrees with\nits face is refused, named. See docs/camera.md.",
		"Localiza la bandeja del dado en la imagen de la cámara y el tamaño del dado en\npíxeles, a partir de una imagen de la bandeja vacía y otra con un dado plano en\nsu centro, y escribe la calibración (el fichero que nombra camera.calibration).\nCon la cámara de la configuración toma la primera imagen, le pide poner el dado\nen la bandeja y pulsar Intro, y toma la segunda; -empty y -die leen en su lugar\ndos imágenes. Con -o, la imagen de la bandeja vacía se guarda junto a la\ncalibración: el lector aprendido distingue con ella la bandeja de un dado.\n\nCon -teach, enseña después al lector aprendido los dados del torneo: pide cada\ncara dos veces (tire, gire el dado hasta esa cara, pulse Intro) y escribe el\nperfil junto a la calibración, para camera.profile. Una foto que no concuerda\ncon su cara se rechaza, nombrada. Véase docs/camera.md."),
		"  parchisd calibrate -config /etc/parchisd/parchisd.yaml -o /etc/parchisd/camera.yaml\n"+
			"  parchisd calibrate -config /etc/parchisd/parchisd.yaml -o /etc/parchisd/camera.yaml -teach\n"+
			l.Pick("  parchisd calibrate -empty empty.png -die die.png", "  parchisd calibrate -empty vacia.png -die dado.png"), stderr)
	cfgPath := fs.String("config", "", l.Pick("take the frames from the camera of the configuration `FILE`", "toma las imágenes de la cámara del `FICHERO` de configuración"))
	emptyFile := fs.String("empty", "", l.Pick("`IMAGE` of the empty tray", "`IMAGEN` de la bandeja vacía"))
	dieFile := fs.String("die", "", l.Pick("`IMAGE` with one die flat in the middle of the tray", "`IMAGEN` con un dado plano en el centro de la bandeja"))
	out := fs.String("o", "", l.Pick("write the calibration to `FILE` (default: standard output)", "escribe la calibración en `FICHERO` (si no, en la salida estándar)"))
	teach := fs.Bool("teach", false, l.Pick("then teach the learned reader the venue's dice (needs -config and -o)", "después enseña al lector aprendido los dados del torneo (necesita -config y -o)"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	fromImages := *emptyFile != "" || *dieFile != ""
	if fs.NArg() != 0 || fromImages == (*cfgPath != "") || (fromImages && (*emptyFile == "" || *dieFile == "")) {
		fmt.Fprintln(stderr, l.Pick("parchisd calibrate: want -config FILE, or both -empty IMAGE and -die IMAGE", "parchisd calibrate: se espera -config FICHERO, o a la vez -empty IMAGEN y -die IMAGEN"))
		return exitUsage
	}
	if *teach && (*cfgPath == "" || *out == "") {
		fmt.Fprintln(stderr, l.Pick("parchisd calibrate: -teach needs -config FILE (the camera) and -o FILE (the profile is written beside it)",
			"parchisd calibrate: -teach necesita -config FICHERO (la cámara) y -o FICHERO (el perfil se escribe a su lado)"))
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
		if cam, err = openCameraFor(ctx, *cfgPath, stdin, stderr, l); err == nil {
			empty, withDie, err = cam.trayFrames()
		}
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
	if *out != "" {
		bg := besideFile(*out, "-empty.png")
		var b bytes.Buffer
		if err := png.Encode(&b, empty); err == nil {
			err = journal.WriteFileAtomic(bg, b.Bytes(), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "parchisd calibrate: %s: %s\n", bg, l.Say(err.Error()))
			return exitFail
		}
		cal.Background = filepath.Base(bg)
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
	if !*teach {
		return exitOK
	}
	profile := besideFile(*out, "-dice.json")
	if err := cam.teach(cal, profile); err != nil {
		fmt.Fprintf(stderr, "parchisd calibrate: %s\n", l.Say(err.Error()))
		return exitFail
	}
	fmt.Fprintf(stderr, l.Pick("wrote the dice profile %s: set camera.profile: %s (with camera.reader: learned, the default)\n",
		"perfil de los dados escrito en %s: ponga camera.profile: %s (con camera.reader: learned, el predeterminado)\n"), profile, profile)
	return exitOK
}

// besideFile is the file named as path, its extension replaced by suffix:
// the files calibrate writes beside the calibration.
func besideFile(path, suffix string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + suffix
}

// camera is the configured camera while calibrate asks for dice in the
// tray: the prompts go to stderr, in the locale's language, the answers
// come from stdin.
type camera struct {
	cfgModel string
	frames   source.Source
	stdin    *bufio.Reader
	stderr   io.Writer
	lang     spanish.Lang
}

// openCameraFor opens the camera of the configuration at cfgPath.
func openCameraFor(ctx context.Context, cfgPath string, stdin io.Reader, stderr io.Writer, l spanish.Lang) (*camera, error) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	frames, err := openCamera(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &camera{cfgModel: cfg.Camera.Model, frames: frames, stdin: bufio.NewReader(stdin), stderr: stderr, lang: l}, nil
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
	fmt.Fprintln(c.stderr, c.lang.Pick("taking a frame of the empty tray…", "tomando una imagen de la bandeja vacía…"))
	if empty, err = c.grab(); err != nil {
		return nil, nil, err
	}
	if err := c.ask(c.lang.Pick("put one die flat in the middle of the tray, then press Enter", "ponga un dado plano en el centro de la bandeja y pulse Intro")); err != nil {
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
			if err := c.ask(fmt.Sprintf(c.lang.Pick("throw the die, turn it to show %d on top, lying flat, then press Enter (face %d, throw %d of %d)",
				"tire el dado, gírelo hasta que muestre el %d arriba, plano, y pulse Intro (cara %d, tirada %d de %d)"), face, face, k, teachThrows)); err != nil {
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
			// the name is the one errors give: the English form, which
			// the locale's messages translate
			photos = append(photos, learned.TeachPhoto{Name: fmt.Sprintf("face %d, throw %d", face, k), Image: img, Face: face})
		}
	}
	p, err := learned.Teach(m, photos)
	if err != nil {
		return fmt.Errorf("%w (throw those faces again: parchisd calibrate -teach)", err)
	}
	return learned.WriteProfileFile(profile, p)
}
