package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
)

// lineError is an error with the exit status it calls for.
type lineError struct {
	status int
	err    error
}

func (e *lineError) Error() string { return e.err.Error() }

func usageErr(err error) error { return &lineError{exitUsage, err} }

// statusOf returns the exit status an error calls for: 1 for a broken rule,
// 2 for anything else.
func statusOf(err error) int {
	var le *lineError
	if errors.As(err, &le) {
		return le.status
	}
	var re *engine.RuleError
	if errors.As(err, &re) {
		return exitRule
	}
	return exitUsage
}

func parsePosition(s string) (engine.Position, error) {
	p, err := engine.ParsePPN(s)
	if err != nil {
		return p, usageErr(err)
	}
	return p, nil
}

func movesOf(fields []string) (string, error) {
	p, err := parsePosition(fields[0])
	if err != nil {
		return "", err
	}
	var ml engine.MoveList
	p.LegalMoves(&ml)
	return ml.String(), nil
}

// movesNone says why a position has no legal moves when it is waiting
// for a throw or the game is over; "" otherwise.
func movesNone(fields []string) string {
	p, err := engine.ParsePPN(fields[0])
	if err != nil {
		return ""
	}
	lang := spanish.LocaleLang()
	switch {
	case p.Phase() == engine.PhaseEnd:
		return lang.Pick("the game is over: no moves", "la partida ha terminado: no hay movimientos")
	case p.Phase().IsDie() || p.Phase().IsBonus():
		return ""
	}
	return lang.Pick(p.Turn().Name()+" is waiting for a throw: no moves before it",
		spanish.ColourNoun(p.Turn().String())+" espera su tirada: antes no hay movimientos")
}

func playOf(fields []string) (string, error) {
	p, err := parsePosition(fields[0])
	if err != nil {
		return "", err
	}
	m, err := engine.ParseMove(fields[1])
	if err != nil {
		return "", usageErr(err)
	}
	if _, err := p.Play(m); err != nil {
		return "", err
	}
	return p.String(), nil
}

func throwOf(fields []string) (string, error) {
	p, err := parsePosition(fields[0])
	if err != nil {
		return "", err
	}
	d, err := strconv.Atoi(fields[1])
	if err != nil || d < 1 || d > 6 {
		return "", usageErr(fmt.Errorf("bad die %q: want 1…6", fields[1]))
	}
	if _, err := p.Throw(d); err != nil {
		return "", err
	}
	return p.String(), nil
}

// runPositionCommand runs moves, play or throw: on its arguments, or with
// "-" on every line of stdin (fields separated by a tab), one output line
// per input line. For one position, none (when set) says on stderr why
// there is no output instead of an empty line; a batch keeps the empty
// line, so that it stays one line per input.
func runPositionCommand(name string, argNames, about [2]string, example string, nargs int, do func([]string) (string, error), none func([]string) string) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		// Positions start with "-" when no piece is out, so the arguments
		// are not parsed as flags; only a lone help flag is.
		lang := spanish.LocaleLang()
		if len(args) == 1 && isHelp(args[0]) {
			cli.Help(newFlags(name, lang.Pick(argNames[0], argNames[1])+" | -", lang.Pick(about[0], about[1]), example, stderr))
			return exitOK
		}
		if len(args) == 1 && args[0] == "-" {
			return batch(nargs, do, stdin, stdout)
		}
		if len(args) != nargs {
			fmt.Fprintf(stderr, lang.Pick("parchis %s: want %s, or - to read lines from standard input\n",
				"parchis %s: se espera %s, o - para leer líneas de la entrada estándar\n"), name, lang.Pick(argNames[0], argNames[1]))
			return exitUsage
		}
		out, err := do(args)
		if err != nil {
			// The rules' reasons in the locale's language (a batch's
			// "error: REASON" lines stay as they are, for tools).
			fmt.Fprintf(stderr, "parchis %s: %s\n", name, lang.Say(err.Error()))
			return statusOf(err)
		}
		if out == "" && none != nil {
			if why := none(args); why != "" {
				fmt.Fprintf(stderr, "parchis %s: %s\n", name, why)
				return exitOK
			}
		}
		fmt.Fprintln(stdout, out)
		return exitOK
	}
}

// batch answers each input line on its own output line; a bad line gets
// "error: REASON" and the batch goes on. The status is the worst seen.
func batch(nargs int, do func([]string) (string, error), stdin io.Reader, stdout io.Writer) int {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	status := exitOK
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		fields := strings.Split(line, "\t")
		var out string
		var err error
		if len(fields) != nargs {
			err = usageErr(fmt.Errorf("want %d tab-separated fields, got %d", nargs, len(fields)))
		} else {
			out, err = do(fields)
		}
		if err != nil {
			fmt.Fprintf(w, "error: %v\n", err)
			status = max(status, statusOf(err))
			continue
		}
		w.WriteString(out)
		w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("longer than %d bytes", 1<<20)
		}
		fmt.Fprintf(w, "error: reading input: line %d: %v\n", n+1, err)
		return exitUsage
	}
	return status
}

var (
	runMoves = runPositionCommand("moves", [2]string{"PPN", "PPN"}, [2]string{
		"Prints the legal moves of the side to move, in canonical order, on one line\nseparated by single spaces. A position waiting for a throw, or a game over,\nhas none: that is said on standard error (exit 0). With -, reads one PPN a\nline from standard input and prints one line for each, empty when there is\nno move.",
		"Escribe los movimientos legales de quien tiene el turno, en orden canónico,\nen una línea separados por un espacio. Una posición que espera tirada, o una\npartida terminada, no tiene ninguno: se dice en la salida de errores\n(estado 0). Con -, lee una PPN por línea de la entrada estándar y escribe\nuna línea por cada una, vacía si no hay movimiento."},
		"  parchis moves '5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y'\n  BH-22", 1, movesOf, movesNone)
	runPlay = runPositionCommand("play", [2]string{"PPN MOVE", "PPN MOVIMIENTO"}, [2]string{
		"Prints the position after the move. An illegal move exits 1 and says why.\nWith -, reads PPN<TAB>MOVE lines from standard input.",
		"Escribe la posición tras el movimiento. Un movimiento ilegal termina con\nestado 1 y dice por qué. Con -, lee líneas PPN<TAB>MOVIMIENTO de la entrada\nestándar."},
		"  parchis play '5:Y Y 3 0 - Y' 5-8\n  8:Y B throw 0 - Y", 2, playOf, nil)
	runThrow = runPositionCommand("throw", [2]string{"PPN DIE", "PPN DADO"}, [2]string{
		"Prints the position after a throw of DIE (1…6), with a throw that cannot\nbe played and a third 6 resolved. With -, reads PPN<TAB>DIE lines.",
		"Escribe la posición tras una tirada de DADO (1…6), resueltas la tirada que\nno se puede jugar y el tercer 6. Con -, lee líneas PPN<TAB>DADO."},
		"  parchis throw '- Y throw 0 - Y' 5\n  - Y 5 0 - Y", 2, throwOf, nil)
)

func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	fs := newFlags("replay", lang.Pick("[-positions] FILE | -", "[-positions] FICHERO | -"), lang.Pick(
		"Replays a game record with the rules and prints the final position and the\nresult; with -positions, every action or comment line first, with its number\nand the position after it. The first illegal line is reported with its\nnumber and the rule it breaks (exit 1); an unreadable record exits 2.\nMessages follow LANG (es or en).",
		"Reproduce el acta de una partida con las reglas y escribe la posición final\ny el resultado; con -positions, antes cada línea de acción o comentario, con\nsu número y la posición tras ella. La primera línea ilegal se indica con su\nnúmero y la regla que incumple (estado 1); un acta ilegible sale con 2.\nLos mensajes siguen a LANG (es o en)."),
		lang.Pick("  parchis replay game.txt\n  5:Y,YG:YYY,… Y end 0 - Y\n  result: YR\n", "  parchis replay partida.txt\n  5:Y,YG:YYY,… Y end 0 - Y\n  resultado: YR\n")+
			lang.Pick("  parchis replay -positions game.txt\n", "  parchis replay -positions partida.txt\n")+"  12\tY 5 YH-5 {10:02:11}\t5:Y B throw 0 - Y\n  …", stderr)
	positions := fs.Bool("positions", false, lang.Pick("print the position after every line of the record", "escribe la posición tras cada línea del acta"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "parchis replay: "+lang.Pick("want one FILE, or - for standard input", "falta un FICHERO, o - para la entrada estándar"))
		return exitUsage
	}
	r := stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "parchis replay: %s\n", lang.Say(err.Error()))
			return exitUsage
		}
		defer f.Close()
		r = f
	}
	var after func(int, string, engine.Position)
	if *positions {
		after = func(line int, text string, pos engine.Position) {
			fmt.Fprintf(stdout, "%d\t%s\t%s\n", line, text, pos.String())
		}
	}
	g, err := engine.ReadRecordFunc(r, after)
	if err != nil {
		fmt.Fprintf(stderr, "parchis replay: %s: %s\n", fs.Arg(0), lang.Say(err.Error()))
		return statusOf(err)
	}
	fmt.Fprintln(stdout, g.Pos.String())
	result := "*"
	if w, ok := g.Pos.Winner(); ok {
		result = w.String()
	}
	fmt.Fprintf(stdout, "%s: %s\n", lang.Pick("result", "resultado"), result)
	return exitOK
}

func runSelfPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	fs := newFlags("selfplay", "[-n N] [-seed S] [-check] [-players Y,B,R,G [-movetime D]]", lang.Pick(
		"Plays N random games (fair dice, uniformly random legal moves) and prints\ngames per second, mean actions per game and how the games ended.\nWith -players, a bot plays each colour (random, greedy, mc, or mc:N for N\nplayouts a move; Yellow and Red against Blue and Green), and each pair's\nwins are printed with their 95% interval.",
		"Juega N partidas al azar (dados justos, movimientos legales elegidos al\nazar) y escribe las partidas por segundo, las acciones por partida y cómo\nacabaron. Con -players, un bot juega cada color (random, greedy, mc, o mc:N\npara N simulaciones por jugada; Amarillo y Rojo contra Azul y Verde), y se\nescriben las victorias de cada pareja con su intervalo del 95 %."),
		"  parchis selfplay -n 1000 -seed 7 -check\n  parchis selfplay -players mc,random,mc,random -n 20", stderr)
	n := fs.Int("n", 1000, lang.Pick("number of games", "número de partidas"))
	seed := fs.Uint64("seed", 1, lang.Pick("random seed (the same seed plays the same games)", "semilla del azar (la misma semilla juega las mismas partidas)"))
	check := fs.Bool("check", false, lang.Pick("verify the position's invariants after every action", "comprueba los invariantes de la posición tras cada acción"))
	players := fs.String("players", "", lang.Pick("bots for Y,B,R,G, e.g. mc,random,mc,random", "bots de Y,B,R,G, p. ej. mc,random,mc,random"))
	moveTime := fs.Duration("movetime", 0, lang.Pick("with -players: mc bots think this long a move (e.g. 200ms) instead of their playouts; not repeatable",
		"con -players: los bots mc piensan esto cada jugada (p. ej. 200ms) en vez de sus simulaciones; no es repetible"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 0 || *n < 1 {
		fmt.Fprintln(stderr, lang.Pick("parchis selfplay: want -n of at least 1 and no arguments", "parchis selfplay: -n ha de ser al menos 1, y sin argumentos"))
		return exitUsage
	}
	if *players != "" {
		return selfPlayBots(*players, *n, *seed, *moveTime, stdout, stderr)
	}
	start := time.Now()
	st, err := engine.SelfPlay(*n, *seed, *check)
	elapsed := time.Since(start).Seconds()
	if err != nil {
		fmt.Fprintf(stderr, lang.Pick("parchis selfplay: invariant broken: %v\n", "parchis selfplay: invariante roto: %v\n"), err)
		return exitRule
	}
	fmt.Fprintf(stdout, lang.Pick("games: %d in %.3f s (%.0f games/s)\n", "partidas: %d en %.3f s (%.0f partidas/s)\n"), st.Games, elapsed, float64(st.Games)/elapsed)
	fmt.Fprintf(stdout, lang.Pick("actions per game: %.1f\n", "acciones por partida: %.1f\n"), float64(st.Actions)/float64(st.Games))
	fmt.Fprintf(stdout, lang.Pick("won by YR: %d, won by BG: %d (ended by tie play: %d), unfinished: %d\n",
		"ganadas por YR: %d, ganadas por BG: %d (acabadas por desempate: %d), sin terminar: %d\n"),
		st.Wins[engine.PairYR], st.Wins[engine.PairBG], st.TiePlay, st.Unfinished)
	return exitOK
}
