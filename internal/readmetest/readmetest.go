// Package readmetest finds the shell examples of a Markdown file (a line
// "$ COMMAND" and the lines it prints, up to a blank line, the next "$ "
// line or the end of the block) and compares what the command printed
// with them, so that a test can run every example the README shows.
package readmetest

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Example is one command of a Markdown file and the output it shows.
type Example struct {
	Line    int      // of the "$ " line
	Command string   // after "$ "
	Output  []string // the lines shown under it
}

// Examples returns the examples of file whose command starts with prefix
// ("parchis ", "go run ./cmd/parchisd "), or contains "| "+prefix.
func Examples(file, prefix string) ([]Example, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var all []Example
	var cur *Example
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "$ "):
			all = append(all, Example{Line: n, Command: line[2:]})
			cur = &all[len(all)-1]
		case line == "" || strings.HasPrefix(line, "```"):
			cur = nil
		case cur != nil:
			cur.Output = append(cur.Output, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out []Example
	for _, e := range all {
		if strings.HasPrefix(e.Command, prefix) || strings.Contains(e.Command, "| "+prefix) {
			out = append(out, e)
		}
	}
	return out, nil
}

// Words splits a command line into words as a shell does for the plain
// and single-quoted words the examples use.
func Words(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
			in = true
		case r == ' ' && !quoted:
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unclosed quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// Printf returns what printf FORMAT ARGS... prints for the %s, \t and \n
// the examples use: the format again for each group of arguments.
func Printf(format string, args []string) string {
	format = strings.NewReplacer(`\t`, "\t", `\n`, "\n").Replace(format)
	n := strings.Count(format, "%s")
	var b strings.Builder
	for len(args) > 0 {
		s := format
		for range n {
			a := ""
			if len(args) > 0 {
				a, args = args[0], args[1:]
			}
			s = strings.Replace(s, "%s", a, 1)
		}
		b.WriteString(s)
	}
	return b.String()
}

// timing matches what changes from run to run: a duration in seconds and
// a rate.
var timing = regexp.MustCompile(`\d+(\.\d+)? s\b|\(\d+(\.\d+)? [a-z]+/s\)`)

// Match reports whether got, the lines a command printed, are the lines
// shown: equal, but for "…" in a shown line, which stands for any text,
// and for durations and rates, which change from run to run.
func Match(shown, got []string) bool {
	if len(shown) != len(got) {
		return false
	}
	for i := range shown {
		parts := strings.Split(timing.ReplaceAllString(shown[i], "T"), "…")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		re := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		if !re.MatchString(timing.ReplaceAllString(got[i], "T")) {
			return false
		}
	}
	return true
}
