package readmetest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestExamples(t *testing.T) {
	md := filepath.Join(t.TempDir(), "x.md")
	os.WriteFile(md, []byte("text\n\n    $ tool a 'b c'\n    out 1\n    out 2\n\n```\n$ other\nx\n$ printf '%s\\n' a | tool -\na\n```\n"), 0o644)
	ex, err := Examples(md, "tool ")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) != 2 || ex[0].Command != "tool a 'b c'" || !slices.Equal(ex[0].Output, []string{"out 1", "out 2"}) || ex[0].Line != 3 ||
		ex[1].Command != "printf '%s\\n' a | tool -" || !slices.Equal(ex[1].Output, []string{"a"}) {
		t.Errorf("examples %+v", ex)
	}
}

func TestWordsAndPrintf(t *testing.T) {
	w, err := Words(`parchis play '5:Y Y 3 0 - Y' 5-8`)
	if err != nil || !slices.Equal(w, []string{"parchis", "play", "5:Y Y 3 0 - Y", "5-8"}) {
		t.Errorf("Words: %q %v", w, err)
	}
	if _, err := Words("a 'b"); err == nil {
		t.Error("an unclosed quote accepted")
	}
	if got := Printf(`%s\t%s\n`, []string{"a b", "1", "c", "2"}); got != "a b\t1\nc\t2\n" {
		t.Errorf("Printf: %q", got)
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		shown, got []string
		want       bool
	}{
		{[]string{"BH-22"}, []string{"BH-22"}, true},
		{[]string{"BH-22"}, []string{"BH-23"}, false},
		{[]string{"BH-22"}, []string{"BH-22", ""}, false},
		{[]string{`{"seq":1,"type":"start",…,"position":"- Y"}`}, []string{`{"seq":1,"type":"start","time":"x","position":"- Y"}`}, true},
		{[]string{`{"seq":1,"type":"start",…,"position":"- Y"}`}, []string{`{"seq":2,"type":"start","time":"x","position":"- Y"}`}, false},
		{[]string{"games: 10 in 0.35 s (28500 games/s)"}, []string{"games: 10 in 0.682 s (14661 games/s)"}, true},
		{[]string{"games: 10 in 0.35 s (28500 games/s)"}, []string{"games: 11 in 0.682 s (14661 games/s)"}, false},
	} {
		if got := Match(tc.shown, tc.got); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.shown, tc.got, got, tc.want)
		}
	}
}
