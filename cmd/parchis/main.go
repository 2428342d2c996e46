// Command parchis is the rules tool for judges and clubs: it lists legal
// moves, plays moves and throws on positions, replays game records, and
// plays random games to test the rules engine; bots play, suggest
// moves and estimate each pair's chance of winning.
//
// Usage:
//
//	parchis moves PPN | -
//	parchis play PPN MOVE | -
//	parchis throw PPN DIE | -
//	parchis replay [-positions] FILE | -
//	parchis selfplay [-n N] [-seed S] [-check] [-players Y,B,R,G]
//	parchis suggest [-n N] PPN
//	parchis winprob [-n N] PPN
//	parchis verify RESULT.json [RECORD]
//	parchis dice read FILE... | -
//	parchis dice eval DIR...
//	parchis check [-sim]
//
// Exit status: 0 ok, 1 a rule is broken, 2 bad usage or unparsable input.
package main

import (
	"flag"
	"io"
	"os"

	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
)

// Exit statuses.
const (
	exitOK    = 0
	exitRule  = 1
	exitUsage = 2
)

func commands() []cli.Command {
	l := spanish.LocaleLang()
	return []cli.Command{
		{Name: "moves", Summary: l.Pick("list the legal moves of a position", "lista los movimientos legales de una posición"), Run: runMoves},
		{Name: "play", Summary: l.Pick("play a move on a position", "juega un movimiento en una posición"), Run: runPlay},
		{Name: "throw", Summary: l.Pick("apply a throw to a position", "aplica una tirada a una posición"), Run: runThrow},
		{Name: "replay", Summary: l.Pick("check a game record and print its end", "comprueba el acta de una partida y escribe cómo acaba"), Run: runReplay},
		{Name: "selfplay", Summary: l.Pick("play random games, or bots against each other, and report how they ended", "juega partidas al azar, o bots entre sí, y dice cómo acabaron"), Run: runSelfPlay},
		{Name: "suggest", Summary: l.Pick("list the legal moves best first, with their win chances", "lista los movimientos legales, el mejor primero, con su probabilidad de ganar"), Run: runSuggest},
		{Name: "winprob", Summary: l.Pick("estimate each pair's chance of winning from a position", "estima la probabilidad de ganar de cada pareja desde una posición"), Run: runWinProb},
		{Name: "verify", Summary: l.Pick("check a result's signatures and record", "comprueba las firmas y el acta de un resultado"), Run: runVerify},
		{Name: "dice", Summary: l.Pick("read die faces from images, or score the recogniser on labelled folders", "lee el dado en imágenes, o puntúa el lector con carpetas etiquetadas"), Run: runDice},
		{Name: "check", Summary: l.Pick("find the table's sensors, light every LED, list occupied sites", "busca los sensores de la mesa, enciende cada LED, lista las casillas ocupadas"), Run: runCheck},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	p := cli.Program{Name: "parchis", Commands: commands(), ExitUsage: exitUsage,
		Status: spanish.Pick("0 ok, 1 a rule is broken, 2 bad usage or unparsable input", "0 bien, 1 se incumple una regla, 2 mal uso o entrada ilegible")}
	return p.Run(args, stdin, stdout, stderr)
}

func isHelp(arg string) bool { return cli.IsHelp(arg) }

// newFlags returns a subcommand's flag set; --help shows an example.
func newFlags(name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlags("parchis", name, synopsis, about, example, stderr)
}

// parseFlags parses args and returns the exit status to use when parsing
// ended the command, or -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string) int { return cli.Parse(fs, args, exitUsage) }
