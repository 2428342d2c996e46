package spanish

import (
	"fmt"
	"os"
	"strings"
)

// Lang is a language the commands and the board speak: English or
// Spanish.
type Lang string

// The languages.
const (
	English Lang = "en"
	Spanish Lang = "es"
)

// LangFromEnv picks the language from a locale such as the LANG
// variable's: Spanish for es_*, else English.
func LangFromEnv(locale string) Lang {
	if strings.HasPrefix(strings.ToLower(locale), "es") {
		return Spanish
	}
	return English
}

// LocaleLang is the language of the process's locale: LC_ALL, else
// LC_MESSAGES, else LANG (the first one set decides), as LangFromEnv
// reads them.
func LocaleLang() Lang {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if l := os.Getenv(v); l != "" {
			return LangFromEnv(l)
		}
	}
	return English
}

// ParseLang parses "es" or "en".
func ParseLang(s string) (Lang, error) {
	switch Lang(s) {
	case English, Spanish:
		return Lang(s), nil
	}
	return "", fmt.Errorf("language %q: want es or en", s)
}

// Pick returns en or es, whichever is in the language l.
func (l Lang) Pick(en, es string) string {
	if l == Spanish {
		return es
	}
	return en
}

// Say returns s, an English sentence of the engine, a table or a command,
// in l: its Spanish form (Say) when l is Spanish and it has one, else s.
// A text of several lines is said line by line.
func (l Lang) Say(s string) string {
	if l != Spanish {
		return s
	}
	if strings.Contains(s, "\n") {
		lines := strings.Split(s, "\n")
		for i, line := range lines {
			lines[i] = l.Say(line)
		}
		return strings.Join(lines, "\n")
	}
	if es, ok := Say(s); ok {
		return es
	}
	return s
}

// Pick returns en or es, whichever is in the locale's language
// (LocaleLang).
func Pick(en, es string) string { return LocaleLang().Pick(en, es) }

// Local returns s in the locale's language (Lang.Say).
func Local(s string) string { return LocaleLang().Say(s) }

// Forms are a command's own sentences, fmt formats most of them, each in
// Spanish by its English form: for a command that says many, kept apart
// from the code that prints them.
type Forms map[string]string

// In returns en in l: its Spanish form when l is Spanish and f has one,
// else en.
func (f Forms) In(l Lang, en string) string {
	if es, ok := f[en]; ok && l == Spanish {
		return es
	}
	return en
}
