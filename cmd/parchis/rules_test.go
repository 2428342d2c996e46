package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCase runs the command with args and stdin and checks the exit status,
// the standard output exactly (when out is not "*") and that the standard
// error contains errWant.
type runCase struct {
	name    string
	args    []string
	stdin   string
	status  int
	out     string
	errWant string
}

func testRun(t *testing.T, cases []runCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			st := run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
			if st != tc.status {
				t.Errorf("status %d, want %d (stderr %q)", st, tc.status, stderr.String())
			}
			if tc.out != "*" && stdout.String() != tc.out {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.out)
			}
			if !strings.Contains(stderr.String(), tc.errWant) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tc.errWant)
			}
		})
	}
}

func TestMoves(t *testing.T) {
	testRun(t, []runCase{
		{"exit", []string{"moves", "5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y"}, "", 0, "BH-22\n", ""},
		{"kill or barrier", []string{"moves", "20:Y,24:R Y 4 0 - Y"}, "", 0, "20-24 20x24\n", ""},
		{"barrier opening", []string{"moves", "20:YY,40:Y Y 6 1 - Y"}, "", 0, "20-26\n", ""},
		{"no moves in phase throw: said on stderr", []string{"moves", "- Y throw 0 - Y"}, "", 0, "", "parchis moves: Yellow is waiting for a throw"},
		{"no moves in phase end: said on stderr", []string{"moves", "33:B,42:G,YG:YYYY,RG:RRRR G end 0 - Y"}, "", 0, "", "parchis moves: the game is over"},
		{"bad PPN", []string{"moves", "05:Y Y throw 0 - Y"}, "", 2, "", "field 1"},
		{"no PPN", []string{"moves"}, "", 2, "", "want PPN"},
		{"two PPNs", []string{"moves", "- Y throw 0 - Y", "- Y throw 0 - Y"}, "", 2, "", "want PPN"},
	})
}

func TestPlay(t *testing.T) {
	testRun(t, []runCase{
		{"help example", []string{"play", "5:Y Y 3 0 - Y", "5-8"}, "", 0, "8:Y B throw 0 - Y\n", ""},
		{"kill", []string{"play", "20:Y,24:B Y 4 0 - Y", "20x24"}, "", 0, "24:Y Y +20 0 24 Y\n", ""},
		{"exit kills the last arrived", []string{"play", "5:BG Y 5 0 - Y", "YHx5"}, "", 0, "5:BY Y +20 0 5 Y\n", ""},
		{"kill not done", []string{"play", "20:Y,24:B Y 4 0 - Y", "20-24"}, "", 1, "", "kill-not-done"},
		{"must exit", []string{"play", "20:Y Y 5 0 - Y", "20-25"}, "", 1, "", "must-exit"},
		{"barrier", []string{"play", "20:Y,22:BB Y 4 0 - Y", "20-24"}, "", 1, "", "barrier"},
		{"bad move", []string{"play", "20:Y Y 4 0 - Y", "20_24"}, "", 2, "", "bad move"},
		{"bad PPN", []string{"play", "20:Y Y 4 1 - Y", "20-24"}, "", 2, "", "field 4"},
		{"missing move", []string{"play", "20:Y Y 4 0 - Y"}, "", 2, "", "want PPN MOVE"},
	})
}

func TestThrow(t *testing.T) {
	testRun(t, []runCase{
		{"help example", []string{"throw", "- Y throw 0 - Y", "5"}, "", 0, "- Y 5 0 - Y\n", ""},
		{"lost", []string{"throw", "- Y throw 0 - Y", "3"}, "", 0, "- B throw 0 - Y\n", ""},
		{"third 6", []string{"throw", "30:Y Y throw 2 30 Y", "6"}, "", 0, "- B throw 0 - Y\n", ""},
		{"no throw due", []string{"throw", "20:Y Y 3 0 - Y", "4"}, "", 1, "", "no throw is due"},
		{"die 7", []string{"throw", "- Y throw 0 - Y", "7"}, "", 2, "", "bad die"},
		{"die x", []string{"throw", "- Y throw 0 - Y", "x"}, "", 2, "", "bad die"},
	})
}

func TestBatch(t *testing.T) {
	testRun(t, []runCase{
		{"moves, all good", []string{"moves", "-"},
			"- Y 5 0 - Y\n20:Y,24:R Y 4 0 - Y\n",
			0, "YH-5\n20-24 20x24\n", ""},
		{"moves, a bad line", []string{"moves", "-"},
			"- Y 5 0 - Y\n05:Y Y throw 0 - Y\n- Y throw 0 - Y\n",
			2, "*", ""},
		{"play, a broken rule", []string{"play", "-"},
			"5:Y Y 3 0 - Y\t5-8\n20:Y,24:B Y 4 0 - Y\t20-24\n",
			1, "*", ""},
		{"throw, CRLF", []string{"throw", "-"},
			"- Y throw 0 - Y\t5\r\n- Y throw 0 - Y\t3\r\n",
			0, "- Y 5 0 - Y\n- B throw 0 - Y\n", ""},
		{"play, wrong number of fields", []string{"play", "-"},
			"5:Y Y 3 0 - Y\n",
			2, "*", ""},
		{"throw, a line too long, with its number", []string{"throw", "-"},
			"- Y throw 0 - Y\t5\n" + strings.Repeat("x", 1<<20+1) + "\n",
			2, "- Y 5 0 - Y\nerror: reading input: line 2: longer than 1048576 bytes\n", ""},
	})
	// One output line per input line; bad lines say "error: …".
	for _, tc := range []struct {
		cmd, in string
		want    []string // prefix of each output line
	}{
		{"moves", "- Y 5 0 - Y\n05:Y Y throw 0 - Y\n- Y throw 0 - Y\n", []string{"YH-5", "error: ", ""}},
		{"play", "5:Y Y 3 0 - Y\t5-8\n20:Y,24:B Y 4 0 - Y\t20-24\n5:Y Y 3 0 - Y\n", []string{"8:Y B throw 0 - Y", "error: ", "error: "}},
		{"throw", "- Y throw 0 - Y\t6\n- Y throw 0 - Y\t9\n\n", []string{"- Y throw 1 - Y", "error: ", "error: "}},
	} {
		var stdout, stderr bytes.Buffer
		run([]string{tc.cmd, "-"}, strings.NewReader(tc.in), &stdout, &stderr)
		lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
		if len(lines) != len(tc.want) {
			t.Errorf("%s -: %d output lines for %d input lines: %q", tc.cmd, len(lines), len(tc.want), stdout.String())
			continue
		}
		for i, w := range tc.want {
			if !strings.HasPrefix(lines[i], w) || (w == "" && lines[i] != "") {
				t.Errorf("%s -: line %d = %q, want prefix %q", tc.cmd, i+1, lines[i], w)
			}
		}
	}
}

func TestReplay(t *testing.T) {
	dir := t.TempDir()
	header := `[Event "Club night"]
[Date "2025-03-01"]
[Table "3"]
[Yellow "Ana"]
[Blue "Ben"]
[Red "Rosa"]
[Green "Gil"]
[Start "Y"]
`
	good := header + "[Result \"*\"]\n\nY 5 YH-5\nB 3 -\n"
	illegal := header + "[Result \"*\"]\n\nY 5 YH-5\nB 3 -\nR 2 -\nG 1 -\nY 5 5-10\n"
	over := header + "[Result \"BG\"]\n[Setup \"G7:G,GG:GGG G throw 0 - Y\"]\n\nG 1 G7-GG\n"
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	setLang(t, "en_GB.UTF-8")
	testRun(t, []runCase{
		{"positions", []string{"replay", "-positions", write("good.txt", good)}, "", 0,
			"11\tY 5 YH-5\t5:Y B throw 0 - Y\n12\tB 3 -\t5:Y R throw 0 - Y\n5:Y R throw 0 - Y\nresult: *\n", ""},
		{"positions with a comment", []string{"replay", "-positions", "-"}, header + "[Result \"*\"]\n\nY 5 YH-5 {10:00:01}\n; 10:00:02 infraction out-of-turn B\nB 3 -\n", 0,
			"11\tY 5 YH-5 {10:00:01}\t5:Y B throw 0 - Y\n12\t; 10:00:02 infraction out-of-turn B\t5:Y B throw 0 - Y\n13\tB 3 -\t5:Y R throw 0 - Y\n5:Y R throw 0 - Y\nresult: *\n", ""},
		{"good", []string{"replay", write("good.txt", good)}, "", 0, "5:Y R throw 0 - Y\nresult: *\n", ""},
		{"over", []string{"replay", write("over.txt", over)}, "", 0, "GG:GGGG G end 0 - Y\nresult: BG\n", ""},
		{"stdin", []string{"replay", "-"}, good, 0, "5:Y R throw 0 - Y\nresult: *\n", ""},
		{"illegal line", []string{"replay", write("bad.txt", illegal)}, "", 1, "", "line 15"},
		{"illegal line names the rule", []string{"replay", "-"}, illegal, 1, "", "must-exit"},
		{"unreadable", []string{"replay", "-"}, "not a record\n", 2, "", "line 1"},
		{"missing file", []string{"replay", filepath.Join(dir, "none.txt")}, "", 2, "", "none.txt"},
		{"no file", []string{"replay"}, "", 2, "", "want one FILE"},
		{"sample game", []string{"replay", "../../engine/testdata/game.txt"}, "", 0, "*", ""},
	})
}

// The replay speaks the locale's language.
func TestReplay_Spanish(t *testing.T) {
	setLang(t, "es_ES.UTF-8")
	testRun(t, []runCase{
		{"result", []string{"replay", "-"}, "[Event \"\"]\n[Date \"\"]\n[Table \"\"]\n[Yellow \"\"]\n[Blue \"\"]\n[Red \"\"]\n[Green \"\"]\n[Start \"Y\"]\n[Result \"*\"]\n\nY 5 YH-5\n", 0, "5:Y B throw 0 - Y\nresultado: *\n", ""},
		{"no file", []string{"replay"}, "", 2, "", "falta un FICHERO"},
		{"an illegal move said in Spanish", []string{"play", "5:Y Y 3 0 - Y", "5-9"}, "", 1, "", "movimiento ilegal 5-9: de 5 a 9 hay 4 casillas y la cuenta es 3"},
		{"a bad position said in Spanish", []string{"moves", "5:Y Q 3 0 - Y"}, "", 2, "", "posición no válida: campo 2 (turno)"},
		{"illegal line", []string{"replay", "-"}, "[Event \"\"]\n[Date \"\"]\n[Table \"\"]\n[Yellow \"\"]\n[Blue \"\"]\n[Red \"\"]\n[Green \"\"]\n[Start \"Y\"]\n[Result \"*\"]\n\nY 5 YH-5\nB 3 -\nR 2 -\nG 1 -\nY 5 5-10\n", 1, "",
			"línea 15: «Y 5 5-10»: movimiento ilegal 5-10: con un 5 y fichas en casa, hay que sacar ficha (must-exit, reglamento §4)"},
	})
}

// setLang sets the locale for a test, LANG deciding.
func setLang(t *testing.T, lang string) {
	t.Helper()
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", lang)
}

func TestSelfPlay(t *testing.T) {
	testRun(t, []runCase{
		{"checked", []string{"selfplay", "-n", "20", "-seed", "3", "-check"}, "", 0, "*", ""},
		{"bad n", []string{"selfplay", "-n", "0"}, "", 2, "", "at least 1"},
		{"bad flag", []string{"selfplay", "-x"}, "", 2, "", "flag provided but not defined"},
	})
	var stdout bytes.Buffer
	run([]string{"selfplay", "-n", "20", "-seed", "3"}, strings.NewReader(""), &stdout, &bytes.Buffer{})
	out := stdout.String()
	for _, w := range []string{"games: 20 in ", "actions per game: ", "won by YR: ", "unfinished: 0"} {
		if !strings.Contains(out, w) {
			t.Errorf("selfplay output %q lacks %q", out, w)
		}
	}
}

// TestUsage checks that help asked for is the output (stdout, exit 0),
// and that the usage for a mistake goes with the error to stderr.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name           string
		args           []string
		status         int
		stdout, stderr string // what each contains; "" for empty
	}{
		{"no command", nil, 2, "", "usage: parchis COMMAND"},
		{"help", []string{"--help"}, 0, "usage: parchis COMMAND", ""},
		{"help word", []string{"help"}, 0, "exit status: 0 ok, 1 a rule is broken, 2 bad usage", ""},
		{"unknown", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"moves --help", []string{"moves", "--help"}, 0, "example:\n  parchis moves '5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y'\n  BH-22", ""},
		{"play -h", []string{"play", "-h"}, 0, "example:\n  parchis play '5:Y Y 3 0 - Y' 5-8\n  8:Y B throw 0 - Y", ""},
		{"throw --help", []string{"throw", "--help"}, 0, "example:\n  parchis throw '- Y throw 0 - Y' 5\n  - Y 5 0 - Y", ""},
		{"replay --help", []string{"replay", "--help"}, 0, "example:", ""},
		{"selfplay --help", []string{"selfplay", "--help"}, 0, "-check", ""},
		{"verify --help", []string{"verify", "--help"}, 0, "example:", ""},
		{"selfplay bad flag", []string{"selfplay", "-frob"}, 2, "", "flag provided but not defined: -frob\nusage: parchis selfplay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if st := run(tc.args, strings.NewReader(""), &stdout, &stderr); st != tc.status {
				t.Errorf("status %d, want %d", st, tc.status)
			}
			for _, c := range []struct {
				name, got, want string
			}{{"stdout", stdout.String(), tc.stdout}, {"stderr", stderr.String(), tc.stderr}} {
				if (c.want == "") != (c.got == "") || !strings.Contains(c.got, c.want) {
					t.Errorf("%s %q, want it to contain %q (empty if nothing)", c.name, c.got, c.want)
				}
			}
		})
	}
}

// TestHelpExamples runs the examples the --help texts show and checks that
// they print what the help says.
func TestHelpExamples(t *testing.T) {
	for _, cmd := range []string{"moves", "play", "throw"} {
		var help bytes.Buffer
		run([]string{cmd, "--help"}, strings.NewReader(""), &help, &bytes.Buffer{})
		_, ex, ok := strings.Cut(help.String(), "example:\n")
		if !ok {
			t.Fatalf("%s --help has no example", cmd)
		}
		lines := strings.Split(strings.TrimSpace(ex), "\n")
		if len(lines) < 2 {
			t.Fatalf("%s example: %q", cmd, ex)
		}
		args := shellWords(t, strings.TrimSpace(lines[0]))
		if args[0] != "parchis" {
			t.Fatalf("%s example: %q", cmd, lines[0])
		}
		var stdout bytes.Buffer
		if st := run(args[1:], strings.NewReader(""), &stdout, &bytes.Buffer{}); st != 0 {
			t.Errorf("%s example exits %d", cmd, st)
		}
		if got, want := strings.TrimSpace(stdout.String()), strings.TrimSpace(lines[1]); got != want {
			t.Errorf("%s example prints %q, help says %q", cmd, got, want)
		}
	}
}

// shellWords splits a command line with single-quoted words.
func shellWords(t *testing.T, s string) []string {
	var words []string
	for s != "" {
		s = strings.TrimLeft(s, " ")
		if strings.HasPrefix(s, "'") {
			end := strings.Index(s[1:], "'")
			if end < 0 {
				t.Fatalf("unclosed quote in %q", s)
			}
			words = append(words, s[1:1+end])
			s = s[2+end:]
			continue
		}
		w, rest, _ := strings.Cut(s, " ")
		words = append(words, w)
		s = rest
	}
	return words
}

// TestEveryCommandHelp_OnStdout runs --help of every subcommand: exit 0,
// the usage on stdout, nothing on stderr, each flag's default said once.
func TestEveryCommandHelp_OnStdout(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.Name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if st := run([]string{c.Name, "--help"}, strings.NewReader(""), &stdout, &stderr); st != 0 {
				t.Errorf("exit %d, want 0", st)
			}
			if stdout.Len() == 0 || stderr.Len() != 0 {
				t.Errorf("stdout %q, stderr %q: want the help on stdout alone", stdout.String(), stderr.String())
			}
			for _, line := range strings.Split(stdout.String(), "\n") {
				if strings.Count(line, "(default") > 1 {
					t.Errorf("a default said twice: %q", line)
				}
			}
		})
	}
}

// TestMain runs the tests in an English locale, whatever the machine's:
// the tests that check Spanish set it themselves (setLang).
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "")
	os.Setenv("LC_MESSAGES", "")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}
