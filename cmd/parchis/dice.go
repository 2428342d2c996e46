package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

const diceUsageEN = `usage: parchis dice read [flags] FILE...     read the die in each image
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

The reader is the table's (vision/learned): crops and frames, from any
view.

Flags:
  -calib FILE     use the tray and die size of a calibration (YAML)
  -learned        the learned reader (the only one; for scripts that name it)
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

const diceUsageES = `uso: parchis dice read [opciones] FICHERO...   lee el dado de cada imagen
     parchis dice read [opciones] -            lee las imágenes cuyas rutas llegan por stdin
     parchis dice eval [opciones] CARPETA...   puntúa el lector con carpetas etiquetadas (labels.csv)
     parchis dice teach -o PERFIL ETIQUETAS.csv
                                               enseña al lector aprendido los dados del torneo

read escribe una línea por imagen, en el orden de entrada: RUTA<TAB>RESPUESTA
CONFIANZA, donde RESPUESTA es 1…6, none (ningún dado), multi (varios), edge
(de canto) o unsure (dudoso).

eval escribe, por carpeta y en total, la matriz de confusión, la tasa de
lectura (valor correcto), la tasa de error (un valor equivocado) y los ms
por imagen.

teach lee ETIQUETAS.csv (filas fichero,etiqueta; rutas absolutas o relativas
a la carpeta del CSV; etiquetas 1…6): dos o tres fotos de cada cara de los
dados del torneo, un dado por foto, y escribe el perfil que lee -profile.
Una foto cuyo dado no casa con su etiqueta se rechaza, nombrándola.

El lector es el de la mesa (vision/learned): recortes y fotogramas, desde
cualquier vista.

Opciones:
  -calib FICHERO  usa la bandeja y el tamaño del dado de una calibración (YAML)
  -learned        el lector aprendido (el único; para scripts que lo nombran)
  -model FICHERO  el modelo del lector aprendido (ONNX) en vez del incorporado
  -profile FICHERO  el lector aprendido con el perfil de un torneo (de teach)
  -o FICHERO      teach: el perfil que se escribe

Ejemplo:
  $ parchis dice read bandeja.png
  bandeja.png	5 0.97
  $ find fotos -name '*.png' | parchis dice read -
  $ parchis dice eval ../shared/data/dice/tomitomi3_gray128

Estado de salida: 0 si se leyeron todas las imágenes (sea cual sea la
respuesta), 2 si se usa mal o no se puede leer una imagen o un fichero de
etiquetas.
`

// diceUsage is the usage of parchis dice in the locale's language.
func diceUsage() string { return spanish.Pick(diceUsageEN, diceUsageES) }

// runDice runs "parchis dice ARGS".
func runDice(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, diceUsage())
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	lang := spanish.LocaleLang()
	cmd := args[0]
	fs := flag.NewFlagSet("parchis dice "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), diceUsage()) }
	calib := fs.String("calib", "", "calibration YAML file")
	fs.Bool("learned", false, "read with the learned reader (the only one)")
	modelFile := fs.String("model", "", "the learned reader's model (ONNX)")
	profileFile := fs.String("profile", "", "the learned reader's venue profile")
	out := fs.String("o", "", "teach: the profile to write")
	if st := cli.Parse(fs, args[1:], exitUsage); st >= 0 {
		return st
	}
	// the calibration's tray and die size, as the table reads
	var lo learned.Opts
	if *calib != "" {
		f, err := os.Open(*calib)
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %s\n", spanish.Local(err.Error()))
			return 2
		}
		c, err := vision.ReadCalibrationYAML(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %s: %s\n", *calib, spanish.Local(err.Error()))
			return 2
		}
		lo.Tray, lo.DieSize = c.Tray.Rectangle(), c.DieSize
	}
	if *modelFile != "" {
		m, err := learned.LoadModel(*modelFile)
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %s\n", spanish.Local(err.Error()))
			return 2
		}
		lo.Model = m
	}
	if *profileFile != "" {
		p, err := learned.LoadProfile(*profileFile, lo.Model)
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice: %s\n", spanish.Local(err.Error()))
			return 2
		}
		lo.Profile = p
	}
	if cmd == "teach" {
		return diceTeach(fs.Args(), *out, lo, stdout, stderr)
	}
	newReader := func() *learned.Reader { return learned.NewReader(&lo) }
	switch cmd {
	case "read":
		return diceRead(fs.Args(), newReader, stdin, stdout, stderr)
	case "eval":
		return diceEval(fs.Args(), newReader, stdout, stderr)
	}
	fmt.Fprintf(stderr, "parchis dice: %s\n%s", lang.Say(fmt.Sprintf("unknown command %q", cmd)), diceUsage())
	return 2
}

// diceTeach runs "parchis dice teach -o PROFILE LABELS.csv".
func diceTeach(args []string, out string, opts learned.Opts, stdout, stderr io.Writer) int {
	if len(args) != 1 || out == "" {
		fmt.Fprintf(stderr, "parchis dice teach: %s\n%s", spanish.Pick("want -o PROFILE and one LABELS.csv", "se espera -o PERFIL y un ETIQUETAS.csv"), diceUsage())
		return 2
	}
	photos, err := learned.ReadTeachPhotos(args[0], source.DecodeImage)
	if err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %s\n", spanish.Local(err.Error()))
		return 2
	}
	p, err := learned.Teach(opts.Model, photos)
	if err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %s: %s\n", args[0], spanish.Local(err.Error()))
		return 2
	}
	if err := learned.WriteProfileFile(out, p); err != nil {
		fmt.Fprintf(stderr, "parchis dice teach: %s\n", spanish.Local(err.Error()))
		return 2
	}
	fmt.Fprintf(stdout, spanish.Pick("taught %d photos (faces 1…6: %v); wrote %s\n", "aprendidas %d fotos (caras 1…6: %v); escrito %s\n"), len(photos), p.Photos, out)
	return 0
}

func diceRead(paths []string, newReader func() *learned.Reader, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "parchis dice read: %s\n%s", spanish.Pick("no images", "ninguna imagen"), diceUsage())
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
			fmt.Fprintf(stderr, "parchis dice read: stdin: %s\n", spanish.Local(err.Error()))
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
			fmt.Fprintf(stderr, "parchis dice read: %s\n", spanish.Local(err.Error()))
			code = 2
			continue
		}
		res := rd.ReadImage(img)
		fmt.Fprintf(out, "%s\t%s %.2f\n", p, res, res.Confidence)
	}
	return code
}

func diceEval(dirs []string, newReader func() *learned.Reader, stdout, stderr io.Writer) int {
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "parchis dice eval: %s\n%s", spanish.Pick("no folders", "ninguna carpeta"), diceUsage())
		return 2
	}
	rd := newReader()
	var total vision.Tally
	code := 0
	for _, dir := range dirs {
		f, err := os.Open(filepath.Join(dir, "labels.csv"))
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice eval: %s\n", spanish.Local(err.Error()))
			code = 2
			continue
		}
		labels, err := vision.ReadLabels(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "parchis dice eval: %s: %s\n", filepath.Join(dir, "labels.csv"), spanish.Local(err.Error()))
			code = 2
		}
		var t vision.Tally
		for _, l := range labels {
			img, err := source.DecodeImage(filepath.Join(dir, l.File))
			if err != nil {
				fmt.Fprintf(stderr, "parchis dice eval: %s\n", spanish.Local(err.Error()))
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
		if err := writeMatrix(stdout, &t); err != nil {
			return 2
		}
	}
	if len(dirs) > 1 {
		fmt.Fprintln(stdout, "== total")
		if err := writeMatrix(stdout, &total); err != nil {
			return 2
		}
	}
	return code
}

// writeMatrix writes a tally's confusion matrix and summary
// (vision.Tally.WriteMatrix) with its words in the locale's language.
func writeMatrix(w io.Writer, t *vision.Tally) error {
	var b strings.Builder
	if err := t.WriteMatrix(&b); err != nil {
		return err
	}
	_, err := io.WriteString(w, spanish.Local(b.String()))
	return err
}
