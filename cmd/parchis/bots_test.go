package main

import (
	"bytes"
	"strings"
	"testing"
)

const midGame = "5:Y,12:B,20:RY,29:GY,40:R,46:B,60:G,Y3:Y,B5:B,RG:R,GG:G Y 4 0 - Y"

func TestSuggest(t *testing.T) {
	testRun(t, []runCase{
		{"kill first", []string{"suggest", "-n", "400", "10:Y,14:B,30:Y Y 4 0 - Y"}, "", 0,
			"move     YR wins  95%\n10x14    0.63     0.56–0.69\n30-34    0.52     0.45–0.59\n", ""},
	})
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		out    string
		err    string
	}{
		{"position starting with -", []string{"suggest", "-n", "40", "- Y 5 0 - Y"}, 0, "YH-5     ", ""},
		{"waiting for a throw", []string{"suggest", "- Y throw 0 - Y"}, 0, "", "waiting for a throw"},
		{"bad position", []string{"suggest", "5:Y Y 3 0 -"}, 2, "", "want 6 fields"},
		{"no position", []string{"suggest", "-n", "5"}, 2, "", "want one PPN"},
		{"bad n", []string{"suggest", "-n", "0", midGame}, 2, "", "at least 1"},
		{"bad flag", []string{"suggest", "-x", midGame}, 2, "", "flag provided but not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if st := run(tc.args, strings.NewReader(""), &stdout, &stderr); st != tc.status {
				t.Errorf("status %d, want %d (stderr %q)", st, tc.status, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.err) {
				t.Errorf("stdout %q stderr %q, want them to contain %q and %q", stdout.String(), stderr.String(), tc.out, tc.err)
			}
		})
	}
}

func TestWinProb(t *testing.T) {
	testRun(t, []runCase{
		{"mid-game", []string{"winprob", "-n", "400", midGame}, "", 0,
			"YR 0.36 BG 0.64\n95%: YR 0.32–0.41 BG 0.59–0.68 (400 playouts)\n", ""},
		{"the start, another seed", []string{"winprob", "-n", "300", "-seed", "2", "- Y throw 0 - Y"}, "", 0,
			"YR 0.50 BG 0.50\n95%: YR 0.45–0.56 BG 0.44–0.55 (300 playouts)\n", ""},
		{"a game over", []string{"winprob", "-n", "10", "GG:GGGG G end 0 - Y"}, "", 0,
			"YR 0.00 BG 1.00\n95%: YR 0.00–0.28 BG 0.72–1.00 (10 playouts)\n", ""},
		{"bad position", []string{"winprob", "1:Y Y 3 0 - Y"}, "", 2, "", "field 1"},
		{"two positions", []string{"winprob", midGame, midGame}, "", 2, "", "want one PPN"},
		{"bad n", []string{"winprob", "-n", "-3", midGame}, "", 2, "", "at least 1"},
	})
}

func TestSelfPlay_Bots(t *testing.T) {
	testRun(t, []runCase{
		{"greedy against random", []string{"selfplay", "-players", "greedy,random,greedy,random", "-n", "20", "-seed", "3"}, "", 0, "*", ""},
		{"three levels", []string{"selfplay", "-players", "greedy,random,greedy"}, "", 2, "", "wants 4 levels"},
		{"mc by time", []string{"selfplay", "-players", "mc,random,mc,random", "-movetime", "2ms", "-n", "1"}, "", 0, "*", ""},
		{"bad movetime", []string{"selfplay", "-players", "mc,random,mc,random", "-movetime", "soon"}, "", 2, "", "invalid value"},
		{"unknown level", []string{"selfplay", "-players", "greedy,random,greedy,wise"}, "", 2, "", `bad bot "wise"`},
	})
	var stdout bytes.Buffer
	run([]string{"selfplay", "-players", "greedy,random,greedy,random", "-n", "20", "-seed", "3"}, strings.NewReader(""), &stdout, &bytes.Buffer{})
	for _, w := range []string{"games: 20 in ", "YR (greedy,greedy): 19 wins, 0.950 (95%: 0.764–0.991)\n", "BG (random,random): 1 wins, 0.050 (95%: 0.009–0.236)\n"} {
		if !strings.Contains(stdout.String(), w) {
			t.Errorf("selfplay output %q lacks %q", stdout.String(), w)
		}
	}
}
