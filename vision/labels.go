package vision

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Label is one row of a labels.csv file: an image and its true answer.
type Label struct {
	File string // path relative to the labels file's folder
	Want Result // the true answer (Confidence 1)
	Line int    // line number in the file
}

// LabelError is a problem at one line of a labels file.
type LabelError struct {
	Line int
	Msg  string
}

func (e *LabelError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// ReadLabels parses a labels.csv file: a header "file,label" then one
// "file,label" row a line. Extra columns are ignored; blank lines and lines
// starting with # are skipped. It returns every row it could parse and, if
// any line is wrong, an error listing all the bad lines.
func ReadLabels(r io.Reader) ([]Label, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []Label
	var errs []error
	line := 0
	header := false
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") {
			continue
		}
		fields := strings.Split(s, ",")
		if !header {
			header = true
			if len(fields) >= 2 && strings.TrimSpace(fields[0]) == "file" && strings.TrimSpace(fields[1]) == "label" {
				continue
			}
		}
		if len(fields) < 2 {
			errs = append(errs, &LabelError{line, fmt.Sprintf("want file,label, got %q", s)})
			continue
		}
		file := strings.TrimSpace(fields[0])
		if file == "" {
			errs = append(errs, &LabelError{line, "empty file name"})
			continue
		}
		want, err := ParseLabel(strings.TrimSpace(fields[1]))
		if err != nil {
			errs = append(errs, &LabelError{line, err.Error()})
			continue
		}
		out = append(out, Label{File: file, Want: want, Line: line})
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("line %d: %w", line+1, err))
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("labels: %w", joinErrs(errs))
	}
	return out, nil
}

type errList []error

func (l errList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("; ")
		}
		if i == 10 {
			fmt.Fprintf(&b, "and %d more", len(l)-10)
			break
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

func (l errList) Unwrap() []error { return l }

func joinErrs(errs []error) error { return errList(errs) }

// IsCrop reports whether a file of a labelled folder (../shared/data/dice)
// is one die cut from a photo: the crops made from the boxes (crops/) or a
// source's own crops (images/), rather than a whole frame.
func IsCrop(file string) bool {
	return strings.HasPrefix(file, "crops/") || strings.HasPrefix(file, "images/")
}

// readAnnotations reads a labelled folder's annotations.csv: its rows
// after the header, and the header's columns by name, checked to hold
// want.
func readAnnotations(dir string, want ...string) (rows [][]string, col map[string]int, err error) {
	f, err := os.Open(filepath.Join(dir, "annotations.csv"))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	rows, err = csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", f.Name(), err)
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("%s: empty", f.Name())
	}
	col = map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, k := range want {
		if _, ok := col[k]; !ok {
			return nil, nil, fmt.Errorf("%s: no column %q", f.Name(), k)
		}
	}
	return rows[1:], col, nil
}

// CropFrames reads a labelled folder's annotations.csv and returns, per
// crop, the frame it was cut from.
func CropFrames(dir string) (map[string]string, error) {
	rows, col, err := readAnnotations(dir, "frame", "crop")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range rows {
		if c := r[col["crop"]]; c != "" {
			out[c] = r[col["frame"]]
		}
	}
	return out, nil
}

// BoxSizes reads a labelled folder's annotations.csv and returns, per file
// (frame or crop), the smallest short side of the dice boxed in it, in
// pixels: the accuracy bars are stated for dice of a size.
func BoxSizes(dir string) (map[string]float64, error) {
	rows, col, err := readAnnotations(dir, "frame", "crop", "xmin", "ymin", "xmax", "ymax")
	if err != nil {
		return nil, err
	}
	name := filepath.Join(dir, "annotations.csv")
	out := map[string]float64{}
	for i, r := range rows {
		if r[col["xmin"]] == "" {
			continue // a frame with no die
		}
		var v [4]float64
		for j, k := range []string{"xmin", "ymin", "xmax", "ymax"} {
			if v[j], err = strconv.ParseFloat(r[col[k]], 64); err != nil {
				return nil, fmt.Errorf("%s: line %d: %s: %w", name, i+2, k, err)
			}
		}
		s := min(v[2]-v[0], v[3]-v[1])
		for _, k := range []string{r[col["frame"]], r[col["crop"]]} {
			if k == "" {
				continue
			}
			if old, ok := out[k]; !ok || s < old {
				out[k] = s
			}
		}
	}
	return out, nil
}
