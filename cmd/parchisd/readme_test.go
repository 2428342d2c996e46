package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/internal/readmetest"
)

// TestREADME_Examples runs the parchisd examples of the README from the
// repository's root and checks that they print what the README shows.
func TestREADME_Examples(t *testing.T) {
	examples, err := readmetest.Examples("../../README.md", "go run ./cmd/parchisd ")
	if err != nil {
		t.Fatal(err)
	}
	if len(examples) == 0 {
		t.Fatal("no parchisd example in the README")
	}
	t.Chdir("../..")
	for _, ex := range examples {
		t.Run(ex.Command, func(t *testing.T) {
			args, err := readmetest.Words(ex.Command)
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if st := run(args[3:], strings.NewReader(""), &stdout, &stderr); st != exitOK {
				t.Fatalf("exit %d: %s", st, stderr.String())
			}
			got := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
			if !readmetest.Match(ex.Output, got) {
				t.Errorf("README line %d shows:\n%s\nthe command prints:\n%s", ex.Line, strings.Join(ex.Output, "\n"), strings.Join(got, "\n"))
			}
		})
	}
}

// TestREADME_SubscribeLine checks that the README gives the mosquitto_sub
// line the banner gives, which TestBanner_SubscribeLineWorks runs against
// the broker.
func TestREADME_SubscribeLine(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if line := subscribeLine(config.DefaultDaemon()); !strings.Contains(string(readme), line) {
		t.Errorf("the README lacks the line %q", line)
	}
}
