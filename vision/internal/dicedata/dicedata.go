// Package dicedata opens the labelled photos of ../shared/data/dice for the
// tests of the die readers and the tools that score and calibrate them: a
// source's folder (a test is skipped, saying why, when the photos are not
// beside the repository), its labels with the project's corrections
// (corrections.csv) applied, and its images. It imports no reader, so that
// package vision's own tests may use it.
package dicedata

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"image"
	_ "image/jpeg" // the photos are JPEG and PNG
	_ "image/png"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Root is the shared folder of labelled photos, beside the repository.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	// this file is vision/internal/dicedata/dicedata.go in the repository
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "data", "dice")
}

// Dir returns a source's folder, or skips the test when it is missing.
func Dir(t testing.TB, source string) string {
	t.Helper()
	dir := filepath.Join(Root(), source)
	if _, err := os.Stat(filepath.Join(dir, "labels.csv")); err != nil {
		t.Skipf("labelled photos not found at %s (shared/data/dice beside the repository): %v", dir, err)
	}
	return dir
}

//go:embed corrections.csv
var correctionsCSV []byte

// CorrectionsFile is the corrections' file, from the repository's root;
// vision/train/data.py reads it there.
const CorrectionsFile = "vision/internal/dicedata/corrections.csv"

// A Correction is a label of the shared photos that the photo itself
// shows to be wrong. Scored as given, such a photo is a wrong value for a
// reader that reads it right, and the validation split's one wrong value
// sets the threshold every read is held to.
type Correction struct {
	Source, File string // the source's folder and the file, as labels.csv names it
	Label, Was   string // the label the photo shows, and the one labels.csv gives
	Why          string
}

// Corrections returns the rows of corrections.csv.
func Corrections() ([]Correction, error) {
	r := csv.NewReader(bytes.NewReader(correctionsCSV))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", CorrectionsFile, err)
	}
	if len(rows) == 0 || strings.Join(rows[0], ",") != "source,file,label,was,why" {
		return nil, fmt.Errorf("%s: the header is not source,file,label,was,why", CorrectionsFile)
	}
	var out []Correction
	for i, row := range rows[1:] {
		c := Correction{row[0], row[1], row[2], row[3], row[4]}
		if c.Source == "" || c.File == "" || c.Label == c.Was || c.Why == "" {
			return nil, fmt.Errorf("%s: row %d: a correction needs a source, a file, a label other than the one it replaces and why", CorrectionsFile, i+2)
		}
		out = append(out, c)
	}
	return out, nil
}

// Labels returns the labels.csv of the source in dir with the corrections
// applied, each row on its line, for vision.ReadLabels. A corrected row
// whose label is no longer the one the correction replaces is an error:
// the photos changed, and the correction must be looked at again.
func Labels(dir string) ([]byte, error) {
	path := filepath.Join(dir, "labels.csv")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cs, err := Corrections()
	if err != nil {
		return nil, err
	}
	fix := map[string]Correction{}
	for _, c := range cs {
		if c.Source == filepath.Base(dir) {
			fix[c.File] = c
		}
	}
	if len(fix) == 0 {
		return b, nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i, line := range lines {
		file, rest, ok := strings.Cut(line, ",")
		c, found := fix[file]
		if !ok || !found {
			continue
		}
		label, tail, more := strings.Cut(rest, ",")
		if more {
			tail = "," + tail
		} else {
			// the label ends the line
			t := strings.TrimRight(label, "\r\n")
			label, tail = t, label[len(t):]
		}
		if label != c.Was {
			return nil, fmt.Errorf("%s line %d: %s is labelled %q, not %q as %s says: look at the photo again", path, i+1, file, label, c.Was, CorrectionsFile)
		}
		lines[i] = file + "," + c.Label + tail
		delete(fix, file)
	}
	if len(fix) > 0 {
		return nil, fmt.Errorf("%s: no row for %s, which %s corrects", path, strings.Join(slices.Sorted(maps.Keys(fix)), ", "), CorrectionsFile)
	}
	return []byte(strings.Join(lines, "")), nil
}

// Decode decodes an image file.
func Decode(t testing.TB, path string) image.Image {
	t.Helper()
	img, err := decode(path)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func decode(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}

// ReadEach decodes each of files (names under dir) and reads it, on one
// worker per CPU, each with a reader of its own made by newReader (a
// reader keeps scratch state between images): the answers and the time
// each read took, in the order of files. The photos are thousands, and
// reading them one at a time keeps one CPU busy. A file that does not
// decode fails the test.
func ReadEach[R any](t testing.TB, dir string, files []string, newReader func() func(image.Image) R) ([]R, []time.Duration) {
	t.Helper()
	out, took, err := ReadFiles(dir, files, newReader)
	if err != nil {
		t.Fatal(err)
	}
	return out, took
}

// ReadFiles is ReadEach for the tools that score and calibrate the
// readers: a file that does not decode is an error.
func ReadFiles[R any](dir string, files []string, newReader func() func(image.Image) R) ([]R, []time.Duration, error) {
	out := make([]R, len(files))
	took := make([]time.Duration, len(files))
	errs := make([]error, len(files))
	workers := min(runtime.GOMAXPROCS(0), max(len(files), 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			read := newReader()
			for i := w; i < len(files); i += workers {
				img, err := decode(filepath.Join(dir, files[i]))
				if err != nil {
					errs[i] = err
					continue
				}
				t0 := time.Now()
				out[i] = read(img)
				took[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return out, took, nil
}
