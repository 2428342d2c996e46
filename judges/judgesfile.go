package judges

import (
	"bufio"
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
	var errs []string
	sc := bufio.NewScanner(r)
	n := 0
	seen := map[string]int{}
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 || len(f) > 3 {
			errs = append(errs, fmt.Sprintf("line %d: want NAME PASSWORD-HASH [KEY-FILE]", n))
			continue
		}
		if _, _, _, err := parseHash(f[1]); err != nil {
			errs = append(errs, fmt.Sprintf("line %d: %v", n, err))
			continue
		}
		if prev, dup := seen[f[0]]; dup {
			errs = append(errs, fmt.Sprintf("line %d: judge %q already on line %d", n, f[0], prev))
			continue
		}
		seen[f[0]] = n
		j := Judge{Name: f[0], PasswordHash: f[1]}
		if len(f) == 3 {
			j.KeyFile = f[2]
		}
		out = append(out, j)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("judges file: %w", err)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("judges file: %s", strings.Join(errs, "; "))
	}
	return out, nil
}
