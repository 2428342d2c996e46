package judges

import "github.com/parchis-table/parchis/internal/spanish"

// Detail says a sentence of the referee, the engine or a table in lang
// (package spanish); one with no Spanish form is returned as it is.
func Detail(lang, s string) string {
	if lang != LangES || s == "" {
		return s
	}
	if es, ok := spanish.Say(s); ok {
		return es
	}
	return s
}

// detailES returns the Spanish form of s and whether it has one.
func detailES(s string) (string, bool) { return spanish.Say(s) }
