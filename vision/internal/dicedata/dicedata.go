// Package dicedata opens the labelled photos of ../shared/data/dice for the
// tests of the die readers: a source's folder (the test is skipped, saying
// why, when the photos are not beside the repository) and its images. It
// imports no reader, so that package vision's own tests may use it.
package dicedata

import (
	"fmt"
	"image"
	_ "image/jpeg" // the photos are JPEG and PNG
	_ "image/png"
	"os"
	"path/filepath"
	"runtime"
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
// reading them one at a time keeps one CPU busy.
func ReadEach[R any](t testing.TB, dir string, files []string, newReader func() func(image.Image) R) ([]R, []time.Duration) {
	t.Helper()
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
			t.Fatal(err)
		}
	}
	return out, took
}
