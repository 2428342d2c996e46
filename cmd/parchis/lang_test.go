package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/internal/spanish"
)

// langCase is one run of parchis whose words are checked in both
// languages.
type langCase struct {
	args  []string
	stdin string
}

// runIn runs parchis under the locale lang and returns what it wrote,
// stdout then stderr.
func runIn(t *testing.T, lang string, c langCase) string {
	t.Helper()
	setLang(t, lang)
	var stdout, stderr bytes.Buffer
	run(c.args, strings.NewReader(c.stdin), &stdout, &stderr)
	return stdout.String() + stderr.String()
}

// checkLanguages fails when the Spanish output has English words or
// lines of the English output (spanish.EnglishIn, EnglishLines: the
// judges' pages are checked the same way), or the English output Spanish
// words.
func checkLanguages(t *testing.T, es, en string) {
	t.Helper()
	if es == en {
		t.Errorf("the same text in both languages:\n%s", es)
	}
	if w := spanish.EnglishIn(es); len(w) > 0 {
		t.Errorf("English words %q in the Spanish text:\n%s", w, es)
	}
	if l := spanish.EnglishLines(en, es); len(l) > 0 {
		t.Errorf("English lines in the Spanish text: %q", l)
	}
	if w := spanish.SpanishIn(en); len(w) > 0 {
		t.Errorf("Spanish words %q in the English text:\n%s", w, en)
	}
}

// TestLang_EveryCommandSpeaksTheLocale runs every subcommand's help and
// the usual mistakes under LANG=es_ES.UTF-8 and LANG=en_US.UTF-8.
func TestLang_EveryCommandSpeaksTheLocale(t *testing.T) {
	const ppn = "5:Y Y 3 0 - Y"
	cases := []langCase{
		{args: nil},
		{args: []string{"help"}},
		{args: []string{"nope"}},
		{args: []string{"selfplay", "-x"}},
		{args: []string{"selfplay", "-n", "0"}},
		{args: []string{"selfplay", "-n", "abc"}},
		{args: []string{"selfplay", "-movetime", "3"}},
		{args: []string{"selfplay", "-n", "2", "-seed", "3"}},
		{args: []string{"selfplay", "-players", "mc,random"}},
		{args: []string{"selfplay", "-players", "mc,random,best,random"}},
		{args: []string{"moves", "a", "b"}},
		{args: []string{"moves", "- Y throw 0 - Y"}},
		{args: []string{"moves", "5:Y Y end 0 - Y"}},
		{args: []string{"play", ppn, "5-9"}},
		{args: []string{"throw", ppn, "9"}},
		{args: []string{"replay"}},
		{args: []string{"replay", "/nonexistent/game.txt"}},
		{args: []string{"verify"}},
		{args: []string{"verify", "-"}, stdin: "{}"},
		{args: []string{"suggest"}},
		{args: []string{"suggest", "-n", "0", ppn}},
		{args: []string{"suggest", "- Y throw 0 - Y"}},
		{args: []string{"winprob", "-n", "0", ppn}},
		{args: []string{"dice"}},
		{args: []string{"dice", "nope"}},
		{args: []string{"dice", "read"}},
		{args: []string{"dice", "eval"}},
		{args: []string{"dice", "teach"}},
		{args: []string{"dice", "read", "/nonexistent.png"}},
		{args: []string{"check", "extra"}},
		{args: []string{"check", "-pieces", "5:Y"}},
		{args: []string{"check", "-sim", "-serial", "/dev/null"}},
	}
	for _, c := range commands() {
		cases = append(cases, langCase{args: []string{c.Name, "-h"}})
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			es := runIn(t, "es_ES.UTF-8", c)
			en := runIn(t, "en_US.UTF-8", c)
			checkLanguages(t, es, en)
			if n := len(c.args); n > 0 && c.args[n-1] == "-h" && (!strings.HasPrefix(es, "uso: ") || !strings.HasPrefix(en, "usage: ")) {
				t.Errorf("help: Spanish starts %q, English %q", strings.SplitN(es, "\n", 2)[0], strings.SplitN(en, "\n", 2)[0])
			}
		})
	}
}

// TestLang_Precedence: LC_ALL, then LC_MESSAGES, then LANG decide, as
// for any program.
func TestLang_Precedence(t *testing.T) {
	for _, c := range []struct {
		lcAll, lcMessages, lang string
		want                    string
	}{
		{"", "", "es_ES.UTF-8", "uso:"},
		{"C", "", "es_ES.UTF-8", "usage:"},
		{"", "es_ES.UTF-8", "en_US.UTF-8", "uso:"},
		{"es_MX.UTF-8", "en_US.UTF-8", "C", "uso:"},
	} {
		t.Setenv("LC_ALL", c.lcAll)
		t.Setenv("LC_MESSAGES", c.lcMessages)
		t.Setenv("LANG", c.lang)
		var stdout, stderr bytes.Buffer
		run([]string{"--help"}, nil, &stdout, &stderr)
		if !strings.HasPrefix(stdout.String(), c.want) {
			t.Errorf("LC_ALL=%q LC_MESSAGES=%q LANG=%q: %q…, want %q", c.lcAll, c.lcMessages, c.lang, strings.SplitN(stdout.String(), "\n", 2)[0], c.want)
		}
	}
}
