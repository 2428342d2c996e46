package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/spanish"
)

// timed gives an mc bot a time budget a move instead of its playouts.
type timed struct {
	*bots.MC
	d time.Duration
}

func (b timed) Choose(pos *engine.Position) engine.Move {
	deadline := time.Now().Add(b.d)
	b.MC.Deadline = func() bool { return time.Now().After(deadline) }
	return b.MC.Choose(pos)
}

// selfPlayBots plays n games with a bot at each colour (levels in turn
// order Y, B, R, G) and prints each pair's wins with their 95% interval.
// With moveTime set, mc bots think that long a move.
func selfPlayBots(players string, n int, seed uint64, moveTime time.Duration, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	levels := strings.Split(players, ",")
	if len(levels) != engine.NumColours {
		fmt.Fprintf(stderr, lang.Pick("parchis selfplay: -players wants 4 levels (Y,B,R,G), got %d in %q\n",
			"parchis selfplay: -players pide 4 niveles (Y,B,R,G), hay %d en «%s»\n"), len(levels), players)
		return exitUsage
	}
	for _, l := range levels {
		if _, err := bots.New(l, 0); err != nil {
			fmt.Fprintf(stderr, "parchis selfplay: -players: %s\n", lang.Say(err.Error()))
			return exitUsage
		}
	}
	start := time.Now()
	var st bots.Estimate
	for i := 0; i < n; i++ {
		var ps [engine.NumColours]bots.Bot
		for c := range ps {
			ps[c], _ = bots.New(levels[c], seed*1_000_003+uint64(i*engine.NumColours+c))
			if mc, ok := ps[c].(*bots.MC); ok && moveTime > 0 {
				mc.Playouts = math.MaxInt
				ps[c] = timed{mc, moveTime}
			}
		}
		end, err := bots.Game(ps, engine.NewPosition(engine.Colour(i%engine.NumColours)), bots.NewDice(seed*7_919+uint64(i)))
		if err != nil {
			fmt.Fprintf(stderr, lang.Pick("parchis selfplay: game %d: %v\n", "parchis selfplay: partida %d: %v\n"), i+1, err)
			return exitRule
		}
		st.Add(end)
	}
	fmt.Fprintf(stdout, lang.Pick("games: %d in %.1f s\n", "partidas: %d en %.1f s\n"), n, time.Since(start).Seconds())
	for _, pr := range []engine.Pair{engine.PairYR, engine.PairBG} {
		a, b := pr.Colours()
		lo, hi := bots.Wilson(float64(st.Wins[pr]), n)
		fmt.Fprintf(stdout, lang.Pick("%s (%s,%s): %d wins, %.3f (95%%: %.3f–%.3f)\n", "%s (%s,%s): %d victorias, %.3f (95 %%: %.3f–%.3f)\n"), pr, levels[a], levels[b], st.Wins[pr], float64(st.Wins[pr])/float64(n), lo, hi)
	}
	if none := n - st.Wins[0] - st.Wins[1]; none > 0 {
		fmt.Fprintf(stdout, lang.Pick("without a winner: %d\n", "sin ganador: %d\n"), none)
	}
	return exitOK
}

// positionArgs parses a command's flags and its one PPN argument. A PPN
// may start with "-" (no piece out), so a last argument holding a space is
// taken as the position before the flags are parsed.
func positionArgs(name string, fs interface {
	Parse([]string) error
	NArg() int
	Arg(int) string
}, args []string, stderr io.Writer, parse func([]string) int) (engine.Position, int) {
	ppn := ""
	if len(args) > 0 && strings.Contains(args[len(args)-1], " ") {
		ppn, args = args[len(args)-1], args[:len(args)-1]
	}
	if st := parse(args); st >= 0 {
		return engine.Position{}, st
	}
	if ppn == "" && fs.NArg() == 1 {
		ppn = fs.Arg(0)
	} else if ppn == "" || fs.NArg() != 0 {
		fmt.Fprintf(stderr, spanish.Pick("parchis %s: want one PPN position after the flags\n", "parchis %s: se espera una posición PPN tras las opciones\n"), name)
		return engine.Position{}, exitUsage
	}
	pos, err := engine.ParsePPN(ppn)
	if err != nil {
		fmt.Fprintf(stderr, "parchis %s: %s\n", name, spanish.Local(err.Error()))
		return pos, exitUsage
	}
	return pos, -1
}

func runSuggest(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	fs := newFlags("suggest", "[-n N] [-seed S] PPN", lang.Pick(
		"Prints the legal moves of the side to move, best first, each with the\nestimated chance that the side to move's pair wins after it and its 95%\ninterval: N playouts in all (each the game played on to its end with fair\ndice and every colour choosing as the greedy bot does), split evenly\nbetween the moves. A position waiting for a throw, or a game over, has no\nmoves: that is said on standard error (exit 0).",
		"Escribe los movimientos legales de quien tiene el turno, el mejor primero,\ncada uno con la probabilidad estimada de que gane su pareja tras él y su\nintervalo del 95 %: N simulaciones en total (cada una, la partida jugada\nhasta el final con dados justos y cada color eligiendo como el bot greedy),\nrepartidas por igual entre los movimientos. Una posición que espera tirada,\no una partida terminada, no tiene movimientos: se dice en la salida de\nerrores (estado 0)."),
		lang.Pick("  parchis suggest '10:Y,14:B,30:Y Y 4 0 - Y'\n  move     YR wins  95%\n  10x14    0.60     0.58–0.62\n  30-34    0.49     0.47–0.51",
			"  parchis suggest '10:Y,14:B,30:Y Y 4 0 - Y'\n  jugada   gana YR  95 %\n  10x14    0.60     0.58–0.62\n  30-34    0.49     0.47–0.51"), stderr)
	n := fs.Int("n", 4000, lang.Pick("playouts in all", "simulaciones en total"))
	seed := fs.Uint64("seed", 1, lang.Pick("random seed (the same seed gives the same figures)", "semilla del azar (la misma semilla da las mismas cifras)"))
	pos, st := positionArgs("suggest", fs, args, stderr, func(a []string) int { return parseFlags(fs, a) })
	if st >= 0 {
		return st
	}
	if *n < 1 {
		fmt.Fprintln(stderr, lang.Pick("parchis suggest: want -n of at least 1", "parchis suggest: -n ha de ser al menos 1"))
		return exitUsage
	}
	pos.Settle()
	if why := movesNone([]string{pos.String()}); why != "" {
		fmt.Fprintf(stderr, "parchis suggest: %s\n", why)
		return exitOK
	}
	vals := bots.NewMC(*n, *seed).Evaluate(&pos)
	fmt.Fprintf(stdout, lang.Pick("%-8s %s wins  95%%\n", "%-8s gana %s  95 %%\n"), lang.Pick("move", "jugada"), pos.Turn().Pair())
	for _, v := range vals {
		lo, hi := bots.Wilson(v.Wins, v.Playouts)
		fmt.Fprintf(stdout, "%-8s %.2f     %.2f–%.2f\n", v.Move, v.Chance(), lo, hi)
	}
	return exitOK
}

func runWinProb(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	fs := newFlags("winprob", "[-n N] [-seed S] PPN", lang.Pick(
		"Prints each pair's estimated chance of winning the game from the position,\nthen their 95% intervals: N playouts, each the game played on to its end\nwith fair dice and every colour choosing as the greedy bot does.",
		"Escribe la probabilidad estimada de que cada pareja gane la partida desde la\nposición, y luego sus intervalos del 95 %: N simulaciones, cada una la partida\njugada hasta el final con dados justos y cada color eligiendo como el bot\ngreedy."),
		"  parchis winprob -n 20000 '5:Y,12:B,20:RY,29:GY,40:R,46:B,60:G,Y3:Y,B5:B,RG:R,GG:G Y 4 0 - Y'\n  YR 0.38 BG 0.62\n"+
			lang.Pick("  95%: YR 0.38–0.39 BG 0.61–0.62 (20000 playouts)", "  95 %: YR 0.38–0.39 BG 0.61–0.62 (20000 simulaciones)"), stderr)
	n := fs.Int("n", 20000, lang.Pick("playouts", "simulaciones"))
	seed := fs.Uint64("seed", 1, lang.Pick("random seed (the same seed gives the same figures)", "semilla del azar (la misma semilla da las mismas cifras)"))
	pos, st := positionArgs("winprob", fs, args, stderr, func(a []string) int { return parseFlags(fs, a) })
	if st >= 0 {
		return st
	}
	if *n < 1 {
		fmt.Fprintln(stderr, lang.Pick("parchis winprob: want -n of at least 1", "parchis winprob: -n ha de ser al menos 1"))
		return exitUsage
	}
	e := bots.WinChance(pos, *n, *seed)
	yr, bg := e.Chance(engine.PairYR), e.Chance(engine.PairBG)
	ylo, yhi := e.Interval(engine.PairYR)
	blo, bhi := e.Interval(engine.PairBG)
	fmt.Fprintf(stdout, "YR %.2f BG %.2f\n", yr, bg)
	fmt.Fprintf(stdout, lang.Pick("95%%: YR %.2f–%.2f BG %.2f–%.2f (%d playouts)\n", "95 %%: YR %.2f–%.2f BG %.2f–%.2f (%d simulaciones)\n"), ylo, yhi, blo, bhi, e.Playouts)
	return exitOK
}
