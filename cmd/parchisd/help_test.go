package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/internal/password"
	"github.com/parchis-table/parchis/judges"
)

// TestHelp checks every subcommand's --help: the usage is the output
// (stdout, exit 0, nothing on stderr), and each flag's default is said
// once.
func TestHelp(t *testing.T) {
	for _, c := range commands() {
		for _, help := range []string{"--help", "-h"} {
			t.Run(c.Name+" "+help, func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				if st := run([]string{c.Name, help}, strings.NewReader(""), &stdout, &stderr); st != exitOK {
					t.Errorf("exit %d, want 0", st)
				}
				if !strings.Contains(stdout.String(), "usage: parchisd "+c.Name) {
					t.Errorf("stdout lacks the usage:\n%s", stdout.String())
				}
				if stderr.Len() != 0 {
					t.Errorf("stderr: %q, want nothing", stderr.String())
				}
				checkDefaultsOnce(t, stdout.String())
			})
		}
	}
	var stdout, stderr bytes.Buffer
	if st := run([]string{"--help"}, nil, &stdout, &stderr); st != exitOK || !strings.Contains(stdout.String(), "usage: parchisd COMMAND") || stderr.Len() != 0 {
		t.Errorf("parchisd --help: exit %d, stdout %q, stderr %q", st, stdout.String(), stderr.String())
	}
}

// checkDefaultsOnce fails for a flag whose help says its default twice.
func checkDefaultsOnce(t *testing.T, help string) {
	t.Helper()
	_, flags, _ := strings.Cut(help, "\nflags:\n")
	flags, _, _ = strings.Cut(flags, "\nexample:\n")
	// A flag's help is its line and the indented lines under it.
	for _, f := range strings.Split(flags, "\n  -") {
		if n := strings.Count(f, "(default"); n > 1 {
			t.Errorf("flag -%s says its default %d times", strings.TrimSpace(f), n)
		}
	}
}

func TestBadFlag_ErrorAndUsageOnStderr(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if st := run([]string{c.Name, "-no-such-flag"}, strings.NewReader(""), &stdout, &stderr); st != exitUsage {
				t.Errorf("exit %d, want %d", st, exitUsage)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
			if !strings.Contains(stderr.String(), "flag provided but not defined: -no-such-flag") || !strings.Contains(stderr.String(), "usage: parchisd "+c.Name) {
				t.Errorf("stderr lacks the error and the usage:\n%s", stderr.String())
			}
		})
	}
}

func TestSim_BadValues_UsageError(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-games", "-2"}, "-games -2: want 0 (for ever) or more"},
		{[]string{"-games", "x"}, "want a whole number"},
		{[]string{"-lang", "fr"}, `language "fr": want es or en`},
		{[]string{"-speed", "0"}, "-speed 0"},
	} {
		var stdout, stderr bytes.Buffer
		if st := run(append([]string{"sim"}, tc.args...), strings.NewReader(""), &stdout, &stderr); st != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("sim %v: exit %d, stderr %q; want %d and %q", tc.args, st, stderr.String(), exitUsage, tc.want)
		}
	}
}

func TestHashPassword_TheBrokerAndJudgesTakeIt(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if st := run([]string{"hash-password"}, strings.NewReader("s3cret\n"), &stdout, &stderr); st != exitOK {
		t.Fatalf("exit %d: %s", st, stderr.String())
	}
	h := strings.TrimSpace(stdout.String())
	if !password.Check(h, "s3cret") || !judges.CheckPassword(h, "s3cret") {
		t.Errorf("hash %q refused", h)
	}
	if _, err := judges.ReadJudges(strings.NewReader("marta " + h + "\n")); err != nil {
		t.Errorf("the judges' file refuses the hash: %v", err)
	}
	var help bytes.Buffer
	run([]string{"hash-password", "--help"}, nil, &help, &stderr)
	if !strings.Contains(help.String(), "parchis-judges hash-password are the same command") {
		t.Errorf("help does not name the other command:\n%s", help.String())
	}
}
