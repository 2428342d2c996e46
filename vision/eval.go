package vision

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// evalRows and evalCols are the labels of a confusion matrix's rows (true)
// and columns (answered).
var (
	evalRows = []string{"1", "2", "3", "4", "5", "6", "none", "multi", "edge"}
	evalCols = []string{"1", "2", "3", "4", "5", "6", "none", "multi", "edge", "unsure"}
)

// Tally accumulates answers against true labels: a confusion matrix and
// the rates the accuracy bars are stated in. The zero value is ready.
type Tally struct {
	m       [9][10]int
	Images  int           // images counted
	Elapsed time.Duration // time spent reading them, as reported to Add
}

func labelIndex(s string, list []string) int {
	for i, l := range list {
		if l == s {
			return i
		}
	}
	return -1
}

// Add counts one image whose true answer is want and the reader's got.
func (t *Tally) Add(want, got Result, took time.Duration) {
	r := labelIndex(want.Label(), evalRows)
	c := labelIndex(got.Label(), evalCols)
	if r < 0 || c < 0 {
		return
	}
	t.m[r][c]++
	t.Images++
	t.Elapsed += took
}

// Values returns the number of images labelled 1…6, those read correctly
// and those given a wrong value.
func (t *Tally) Values() (n, correct, wrong int) {
	for r := 0; r < 6; r++ {
		for c := 0; c < 10; c++ {
			n += t.m[r][c]
			if c == r {
				correct += t.m[r][c]
			} else if c < 6 {
				wrong += t.m[r][c]
			}
		}
	}
	return
}

// ReadRate is the share of images labelled 1…6 read with their value.
func (t *Tally) ReadRate() float64 {
	n, c, _ := t.Values()
	return ratio(c, n)
}

// WrongRate is the share of images labelled 1…6 given a wrong value.
func (t *Tally) WrongRate() float64 {
	n, _, w := t.Values()
	return ratio(w, n)
}

// Rate returns the share of images labelled want that were answered want
// ("multi", "edge", "none").
func (t *Tally) Rate(want string) float64 {
	r := labelIndex(want, evalRows)
	if r < 0 {
		return 0
	}
	return ratio(t.m[r][labelIndex(want, evalCols)], t.Total(want))
}

// Total returns the number of images labelled want.
func (t *Tally) Total(want string) int {
	r := labelIndex(want, evalRows)
	if r < 0 {
		return 0
	}
	n := 0
	for _, v := range t.m[r] {
		n += v
	}
	return n
}

// ValueGiven returns how many images labelled want ("edge", say) were
// given a value 1…6.
func (t *Tally) ValueGiven(want string) int {
	r := labelIndex(want, evalRows)
	if r < 0 {
		return 0
	}
	n := 0
	for c := 0; c < 6; c++ {
		n += t.m[r][c]
	}
	return n
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Summary returns one line: read-rate, wrong-rate, multi-rate and ms per
// image.
func (t *Tally) Summary() string {
	n, c, w := t.Values()
	s := fmt.Sprintf("values %d: read-rate %.2f%% (%d), wrong-rate %.2f%% (%d)", n, 100*t.ReadRate(), c, 100*t.WrongRate(), w)
	if m := t.Total("multi"); m > 0 {
		s += fmt.Sprintf("; multi %.2f%% of %d", 100*t.Rate("multi"), m)
	}
	if e := t.Total("edge"); e > 0 {
		s += fmt.Sprintf("; edge %.2f%% of %d (%d given a value)", 100*t.Rate("edge"), e, t.ValueGiven("edge"))
	}
	if t.Images > 0 {
		s += fmt.Sprintf("; %.3f ms/image", float64(t.Elapsed.Microseconds())/1000/float64(t.Images))
	}
	return s
}

// WriteMatrix writes the confusion matrix (rows: true label, columns:
// answer) of the labels seen, then the summary line.
func (t *Tally) WriteMatrix(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "true\\read\t%s\t\n", strings.Join(evalCols, "\t"))
	for r, name := range evalRows {
		n := 0
		for _, v := range t.m[r] {
			n += v
		}
		if n == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s", name)
		for c := range evalCols {
			fmt.Fprintf(tw, "\t%d", t.m[r][c])
		}
		fmt.Fprintf(tw, "\t\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, t.Summary())
	return err
}
