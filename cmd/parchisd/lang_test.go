package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/internal/spanish"
)

// TestLang_EveryCommandSpeaksTheLocale runs every subcommand's help and
// the usual mistakes under LANG=es_ES.UTF-8 and LANG=en_US.UTF-8: the
// Spanish output has no English words nor lines of the English one
// (spanish.EnglishIn, EnglishLines, as the judges' pages are checked),
// and the English output no Spanish words.
func TestLang_EveryCommandSpeaksTheLocale(t *testing.T) {
	dir := t.TempDir()
	badConfig := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(badConfig, []byte("nope: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		nil,
		{"help"},
		{"nope"},
		{"sim", "extra"},
		{"sim", "-games", "-2"},
		{"sim", "-games", "x"},
		{"sim", "-speed", "0"},
		{"sim", "-config", "/nonexistent/parchisd.yaml"},
		{"run"},
		{"script"},
		{"script", "-sensors", "smell", "x"},
		{"script", "/nonexistent.script"},
		{"calibrate"},
		{"calibrate", "-empty", "/nonexistent.png", "-die", "/nonexistent.png"},
		{"tiles"},
		{"tiles", "-serial", "/dev/null", "fly"},
		{"tiles", "-serial", "/dev/null", "calibrate"},
		{"tiles", "-serial", "/dev/null", "calibrate", "-addr", "1"},
		{"tiles", "-serial", "/dev/null", "calibrate", "-addr", "1", "-set", "1,2"},
		{"journal"},
		{"journal", "check", "/nonexistent"},
		{"journal", "check", dir},
		{"check", "extra"},
		{"check", "-pieces", "5:Y"},
		{"hash-password", "extra"},
		{"hash-password"},
		{"sim", "-no-such-flag"},
	}
	for _, c := range commands() {
		cases = append(cases, []string{c.Name, "-h"})
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			es := runIn(t, "es_ES.UTF-8", args)
			en := runIn(t, "en_US.UTF-8", args)
			if n := len(args); n > 0 && args[n-1] == "-h" && (!strings.HasPrefix(es, "uso: ") || !strings.HasPrefix(en, "usage: ")) {
				t.Errorf("help: Spanish starts %q, English %q", strings.SplitN(es, "\n", 2)[0], strings.SplitN(en, "\n", 2)[0])
			}
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
		})
	}
}

// runIn runs parchisd under the locale lang and returns what it wrote,
// stdout then stderr.
func runIn(t *testing.T, lang string, args []string) string {
	t.Helper()
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", lang)
	var stdout, stderr bytes.Buffer
	run(args, strings.NewReader(""), &stdout, &stderr)
	return stdout.String() + stderr.String()
}

// TestLang_ConfigExplainedInSpanish: parchisd config prints the settings
// explained in the locale's language, the same settings in both.
func TestLang_ConfigExplainedInSpanish(t *testing.T) {
	es := runIn(t, "es_ES.UTF-8", []string{"config"})
	en := runIn(t, "en_US.UTF-8", []string{"config"})
	if !strings.HasPrefix(es, "# Configuración de parchisd.") || !strings.HasPrefix(en, "# parchisd configuration.") {
		t.Errorf("config: Spanish starts %q, English %q", strings.SplitN(es, "\n", 2)[0], strings.SplitN(en, "\n", 2)[0])
	}
}
