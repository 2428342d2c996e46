package spanish

import (
	"regexp"
	"slices"
	"strings"
)

// englishOnly are words of English text that Spanish text never holds;
// spanishOnly the reverse. The tests check with them that what is meant
// to be said in one language has none of the other's.
var (
	englishOnly = strings.Fields(`the and with when want wants must is are was were of from for this that
		which each every usage flags example default not or its it be by to in on at an as has have if
		into only after before then prints reads writes file files piece pieces game games board table
		tables player players result results record records unknown missing bad invalid cannot could
		should would what where how there their they than more less all any but out up down over under
		while without until also both other another same such still already again found lights
		sensors throws lost wins win won waiting given give reading writing takes turn
		judge's table's you your will here now yet done does doesn't don't can't isn't`)
	spanishOnly = strings.Fields(`de la el los las que una uno con para por del al se son cada sin
		fichero ficha fichas partida mesa uso opciones ejemplo defecto juez jueces tirada casa meta
		seguro barrera pareja turno orden falta hay`)
)

// word is one word of text; code is what sits around words that are not
// prose: flags (-name), paths, file names, placeholders (<n>), templates,
// keys and hashes (letters next to digits).
var word = regexp.MustCompile(`[\p{L}']+`)

const code = "-_/.<>=$@%*+\\0123456789"

// EnglishIn returns the words of text, meant to be Spanish, that are
// English (once each, in order); nil when there are none. Words that are
// part of code (a flag, a path, a file name) and placeholders in capitals
// are not counted.
func EnglishIn(text string) []string { return wordsIn(text, englishOnly) }

// SpanishIn returns the words of text, meant to be English, that are
// Spanish, as EnglishIn does.
func SpanishIn(text string) []string { return wordsIn(text, spanishOnly) }

func wordsIn(text string, list []string) []string {
	var out []string
	for _, m := range word.FindAllStringIndex(text, -1) {
		w := text[m[0]:m[1]]
		if m[0] > 0 && strings.ContainsRune(code, rune(text[m[0]-1])) {
			continue
		}
		if m[1] < len(text) && strings.ContainsRune(code, rune(text[m[1]])) &&
			(text[m[1]] != '.' || m[1]+1 < len(text) && isLetter(text[m[1]+1])) {
			continue
		}
		if strings.ToUpper(w) == w {
			continue
		}
		lw := strings.ToLower(w)
		if slices.Contains(list, lw) && !slices.Contains(out, lw) {
			out = append(out, lw)
		}
	}
	return out
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// EnglishLines returns the lines of en, a command's or a page's text in
// English, that show unchanged in es, the same text meant to be in
// Spanish. Only lines with English words count: a line of code, a
// position or a path is the same in both languages.
func EnglishLines(en, es string) []string {
	var out []string
	for _, line := range strings.Split(en, "\n") {
		line = strings.TrimSpace(line)
		if len(EnglishIn(line)) > 0 && strings.Contains(es, line) && !slices.Contains(out, line) {
			out = append(out, line)
		}
	}
	return out
}
