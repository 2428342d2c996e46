package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/internal/password"
	"github.com/parchis-table/parchis/internal/spanish"
)

// The demo judge (juez / juez) is refused on any address beyond this
// machine: anyone on the network could certify.
func TestRun_DemoJudgeOnlyOnLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0", "192.168.1.10:0"} {
		var out, errb bytes.Buffer
		st := run([]string{"-addr", addr, "-broker", "tcp://127.0.0.1:1"}, nil, &out, &errb)
		if st != 2 || !strings.Contains(errb.String(), "demo judge") {
			t.Errorf("-addr %s: exit %d, %q; want 2 and the demo judge refused", addr, st, errb.String())
		}
	}
}

func TestHashPassword_OneForBrokerAndJudges(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if st := run([]string{"hash-password"}, strings.NewReader("juez\n"), &stdout, &stderr); st != 0 {
		t.Fatalf("exit %d: %s", st, stderr.String())
	}
	h := strings.TrimSpace(stdout.String())
	if !password.Check(h, "juez") || password.Check(h, "juez\n") {
		t.Errorf("hash %q does not check the password", h)
	}
	if iter, _, _, err := password.Parse(h); err != nil || iter != password.Iterations {
		t.Errorf("hash %q: %d iterations (%v), want the shared %d", h, iter, err, password.Iterations)
	}
}

func TestHelp_OnStdout(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--help"}, "parchis-judges hash-password < PASSWORD   (the same as parchisd hash-password)"},
		{[]string{"-h"}, "-judges"},
		{[]string{"hash-password", "--help"}, "parchisd hash-password and parchis-judges hash-password are the same command"},
	} {
		var stdout, stderr bytes.Buffer
		if st := run(tc.args, strings.NewReader(""), &stdout, &stderr); st != 0 || !strings.Contains(stdout.String(), tc.want) || stderr.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and %q on stdout alone", tc.args, st, stdout.String(), stderr.String(), tc.want)
		}
	}
}

func TestBadUsage_OnStderr(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"-no-such-flag"}, "", "flag provided but not defined"},
		{[]string{"stray"}, "", `unexpected argument "stray"`},
		{[]string{"hash-password"}, "", "no password on standard input"},
		{[]string{"hash-password", "secret"}, "", "give the password on standard input"},
	} {
		var stdout, stderr bytes.Buffer
		if st := run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr); st != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q on stderr alone", tc.args, st, stdout.String(), stderr.String(), tc.want)
		}
	}
}

func TestVersion_OnStdout(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"--version"}, nil, &out, &errb); st != 0 || !strings.HasPrefix(out.String(), "parchis-judges ") {
		t.Errorf("--version: exit %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
}

// TestMain runs the tests in the English they read, whatever the locale;
// TestLang sets the one it checks.
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "")
	os.Setenv("LC_MESSAGES", "")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}

// TestLang_HelpAndMistakes: the help and the usual mistakes in the
// locale's language, checked as parchis' and parchisd's are.
func TestLang_HelpAndMistakes(t *testing.T) {
	for _, args := range [][]string{
		{"-h"}, {"-no-such-flag"}, {"stray"}, {"hash-password"}, {"hash-password", "-h"},
		{"-addr", "0.0.0.0:0", "-broker", "tcp://127.0.0.1:1"},
	} {
		out := map[string]string{}
		for _, lang := range []string{"es_ES.UTF-8", "en_US.UTF-8"} {
			t.Setenv("LANG", lang)
			var stdout, stderr bytes.Buffer
			run(args, strings.NewReader(""), &stdout, &stderr)
			out[lang] = stdout.String() + stderr.String()
		}
		es, en := out["es_ES.UTF-8"], out["en_US.UTF-8"]
		if es == en {
			t.Errorf("%v: the same text in both languages:\n%s", args, es)
		}
		if w := spanish.EnglishIn(es); len(w) > 0 {
			t.Errorf("%v: English words %q in the Spanish text:\n%s", args, w, es)
		}
		if l := spanish.EnglishLines(en, es); len(l) > 0 {
			t.Errorf("%v: English lines in the Spanish text: %q", args, l)
		}
		if w := spanish.SpanishIn(en); len(w) > 0 {
			t.Errorf("%v: Spanish words %q in the English text:\n%s", args, w, en)
		}
	}
}
