package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The daemon binary the tests run, built once for the package's tests.
var daemonBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	// The tests read the commands' English; TestLang sets the locale it
	// checks.
	os.Setenv("LC_ALL", "")
	os.Setenv("LC_MESSAGES", "")
	os.Setenv("LANG", "C")
	code := m.Run()
	if daemonBin.dir != "" {
		os.RemoveAll(daemonBin.dir)
	}
	os.Exit(code)
}

// buildDaemon returns the path of parchisd built from this package, the
// same binary for every test (it is only run, never changed).
func buildDaemon(t testing.TB) string {
	t.Helper()
	daemonBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "parchisd-test-")
		if err != nil {
			daemonBin.err = err
			return
		}
		daemonBin.dir = dir
		bin := filepath.Join(dir, "parchisd")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			daemonBin.err = &buildError{err: err, out: out}
			return
		}
		daemonBin.path = bin
	})
	if daemonBin.err != nil {
		t.Fatalf("go build: %v", daemonBin.err)
	}
	return daemonBin.path
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

// longTest skips a test that takes minutes unless PARCHIS_TEST_LONG=1 (set
// by ./test.sh -full, which CI runs): the README's ./test.sh stays within
// five minutes.
func longTest(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("PARCHIS_TEST_LONG") != "1" {
		t.Skipf("%s: a long test, run with PARCHIS_TEST_LONG=1 (./test.sh -full)", what)
	}
}
