// Package dicedata opens the labelled photos of ../shared/data/dice for the
// tests of the die readers: a source's folder (the test is skipped, saying
// why, when the photos are not beside the repository) and its images. It
// imports no reader, so that package vision's own tests may use it.
package dicedata

import (
	"image"
	_ "image/jpeg" // the photos are JPEG and PNG
	_ "image/png"
	"os"
	"path/filepath"
	"runtime"
	"testing"
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
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}
