package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

func testProgram() *Program {
	return &Program{Name: "prog", Status: "0 ok", ExitUsage: 2, Commands: []Command{{
		Name: "sub", Summary: "does a thing",
		Run: func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			fs := NewFlags("prog", "sub", "[-n N]", "Does a thing.", "  prog sub -n 2", stderr)
			n := fs.Int("n", 1, "how many")
			if st := Parse(fs, args, 2); st >= 0 {
				return st
			}
			io.WriteString(stdout, strings.Repeat("x", *n))
			return 0
		},
	}}}
}

// TestProgram_HelpOnStdout_MistakesOnStderr: help asked for is the
// output; a mistake's usage goes with the error to stderr.
func TestProgram_HelpOnStdout_MistakesOnStderr(t *testing.T) {
	for _, tc := range []struct {
		args           []string
		status         int
		stdout, stderr string // contained; "" for empty
	}{
		{[]string{"--help"}, 0, "usage: prog COMMAND", ""},
		{[]string{"help"}, 0, "sub  does a thing", ""},
		{nil, 2, "", "usage: prog COMMAND"},
		{[]string{"nope"}, 2, "", `unknown command "nope"`},
		{[]string{"sub", "--help"}, 0, "usage: prog sub [-n N]\n\nDoes a thing.\n\nflags:\n  -n int\n    \thow many (default 1)\n\nexample:\n  prog sub -n 2\n", ""},
		{[]string{"sub", "-h"}, 0, "example:", ""},
		{[]string{"sub", "-x"}, 2, "", "flag provided but not defined: -x\nusage: prog sub [-n N]"},
		{[]string{"sub", "-n", "3"}, 0, "xxx", ""},
	} {
		var stdout, stderr bytes.Buffer
		st := testProgram().Run(tc.args, strings.NewReader(""), &stdout, &stderr)
		if st != tc.status {
			t.Errorf("%v: exit %d, want %d", tc.args, st, tc.status)
		}
		for _, c := range []struct{ name, got, want string }{{"stdout", stdout.String(), tc.stdout}, {"stderr", stderr.String(), tc.stderr}} {
			if (c.want == "") != (c.got == "") || !strings.Contains(c.got, c.want) {
				t.Errorf("%v: %s %q, want %q (empty if nothing)", tc.args, c.name, c.got, c.want)
			}
		}
	}
}

// A subcommand run on its own (not through a Program) has no stdout to
// send help to: help goes to the stderr it was given.
func TestHelpWriter_PlainStderr(t *testing.T) {
	var out, errb bytes.Buffer
	if HelpWriter(&errb) != &errb || HelpWriter(&Output{Stderr: &errb, Stdout: &out}) != &out {
		t.Error("HelpWriter picks the wrong writer")
	}
}

// TestProgram_Version: --version prints the program's name and version on
// standard output, exit 0, for every program built on Program.
func TestProgram_Version(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "version"} {
		var out, errb bytes.Buffer
		if st := testProgram().Run([]string{arg}, nil, &out, &errb); st != 0 {
			t.Fatalf("%s: exit %d, stderr %q", arg, st, errb.String())
		}
		if !strings.HasPrefix(out.String(), "prog ") || !strings.Contains(out.String(), "go1") || errb.Len() != 0 {
			t.Errorf("%s: stdout %q stderr %q, want \"prog VERSION (goX …)\"", arg, out.String(), errb.String())
		}
	}
}

// TestProgram_Spanish: under a Spanish locale the usage, the flags' kinds
// and defaults, the example's heading and the flag package's errors are
// said in Spanish; what the program names (flags, commands) stays.
func TestProgram_Spanish(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "es_ES.UTF-8")
	t.Setenv("LANG", "en_US.UTF-8")
	for _, tc := range []struct {
		args           []string
		stdout, stderr string // contained; "" for empty
	}{
		{[]string{"--help"}, "uso: prog ORDEN [ARGUMENTOS]   (prog ORDEN --help para saber más; prog --version)\n  sub  does a thing\nestado de salida: 0 ok", ""},
		{[]string{"nope"}, "", "prog: orden desconocida «nope»\nuso: prog ORDEN"},
		{[]string{"sub", "-h"}, "uso: prog sub [-n N]\n\nDoes a thing.\n\nopciones:\n  -n entero\n    \thow many (por defecto 1)\n\nejemplo:\n  prog sub -n 2\n", ""},
		{[]string{"sub", "-x"}, "", "opción desconocida: -x\nuso: prog sub [-n N]"},
		{[]string{"sub", "-n", "x"}, "", "valor «x» no válido para la opción -n: no tiene la forma esperada\nuso: prog sub"},
		{[]string{"sub", "-n"}, "", "a la opción -n le falta su valor\n"},
	} {
		var stdout, stderr bytes.Buffer
		testProgram().Run(tc.args, strings.NewReader(""), &stdout, &stderr)
		for _, c := range []struct{ name, got, want string }{{"stdout", stdout.String(), tc.stdout}, {"stderr", stderr.String(), tc.stderr}} {
			if (c.want == "") != (c.got == "") || !strings.Contains(c.got, c.want) {
				t.Errorf("%v: %s %q, want %q (empty if nothing)", tc.args, c.name, c.got, c.want)
			}
		}
	}
}

func TestHashPassword_Spanish(t *testing.T) {
	t.Setenv("LC_ALL", "es_ES.UTF-8")
	var stdout, stderr bytes.Buffer
	if st := HashPassword("prog", nil, strings.NewReader(""), &stdout, &stderr, 2); st != 2 || !strings.Contains(stderr.String(), "no hay contraseña en la entrada estándar (vacía)") {
		t.Errorf("exit %d, stderr %q", st, stderr.String())
	}
}

// TestMain runs the tests in the English the tests read, whatever the
// locale; TestProgram_Spanish sets the one it checks.
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "")
	os.Setenv("LC_MESSAGES", "")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}
