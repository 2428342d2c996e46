package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/internal/readmetest"
)

// TestREADME_Examples runs every parchis example of the README and
// checks that it prints what the README shows (stdout, then stderr, as a
// terminal shows them when only one of them is written).
func TestREADME_Examples(t *testing.T) {
	examples, err := readmetest.Examples("../../README.md", "parchis ")
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) < 5 {
		t.Fatalf("%d parchis examples in the README, want the 5 of its parchis section", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.Command, func(t *testing.T) {
			stdin := ""
			command := ex.Command
			if pipe, cmd, ok := strings.Cut(command, " | "); ok {
				w, err := readmetest.Words(pipe)
				if err != nil || w[0] != "printf" {
					t.Fatalf("README line %d: only printf pipes into parchis here (%v)", ex.Line, err)
				}
				stdin, command = readmetest.Printf(w[1], w[2:]), cmd
			}
			args, err := readmetest.Words(command)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			run(args[1:], strings.NewReader(stdin), &stdout, &stderr)
			got := strings.Split(strings.TrimSuffix(stdout.String()+stderr.String(), "\n"), "\n")
			if !readmetest.Match(ex.Output, got) {
				t.Errorf("README line %d shows:\n%s\nthe command prints:\n%s", ex.Line, strings.Join(ex.Output, "\n"), strings.Join(got, "\n"))
			}
		})
	}
}
