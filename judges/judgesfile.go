package judges

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// readFile applies read to the file at path, naming the file in errors.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// LoadJudges reads the judges file at path (see ReadJudges).
func LoadJudges(path string) ([]Judge, error) { return readFile(path, ReadJudges) }

// LoadTableKeys reads the tables' keys file at path (see ReadTableKeys).
func LoadTableKeys(path string) (map[string]string, error) { return readFile(path, ReadTableKeys) }

// ReadJudges reads a judges file: one judge a line, NAME PASSWORD-HASH
// [KEY-FILE], fields separated by spaces, the hash as HashPassword writes
// it; blank lines and lines starting with # are skipped. Every bad line is
// reported, with its number.
func ReadJudges(r io.Reader) ([]Judge, error) {
	var out []Judge
	seen := map[string]int{}
	err := readLines(r, "judges file", func(n int, f []string) error {
		if len(f) < 2 || len(f) > 3 {
			return errors.New("want NAME PASSWORD-HASH [KEY-FILE]")
		}
		if _, _, _, err := parseHash(f[1]); err != nil {
			return err
		}
		if prev, dup := seen[f[0]]; dup {
			return fmt.Errorf("judge %q already on line %d", f[0], prev)
		}
		seen[f[0]] = n
		j := Judge{Name: f[0], PasswordHash: f[1]}
		if len(f) == 3 {
			j.KeyFile = f[2]
		}
		out = append(out, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readLines calls parse with the number and the space-separated fields of
// each line of r that is neither blank nor a comment (#), and reports
// every line parse refuses, with its number, in one error about what.
func readLines(r io.Reader, what string, parse func(n int, fields []string) error) error {
	var errs []string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := parse(n, strings.Fields(line)); err != nil {
			errs = append(errs, fmt.Sprintf("line %d: %v", n, err))
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s: %s", what, strings.Join(errs, "; "))
	}
	return nil
}
