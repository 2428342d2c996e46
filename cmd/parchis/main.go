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
)

// Exit statuses.
const (
	exitOK    = 0
	exitRule  = 1
	exitUsage = 2
)

func commands() []cli.Command {
	return []cli.Command{
		{Name: "moves", Summary: "list the legal moves of a position", Run: runMoves},
		{Name: "play", Summary: "play a move on a position", Run: runPlay},
		{Name: "throw", Summary: "apply a throw to a position", Run: runThrow},
		{Name: "replay", Summary: "check a game record and print its end", Run: runReplay},
		{Name: "selfplay", Summary: "play random games, or bots against each other, and report how they ended", Run: runSelfPlay},
		{Name: "suggest", Summary: "list the legal moves best first, with their win chances", Run: runSuggest},
		{Name: "winprob", Summary: "estimate each pair's chance of winning from a position", Run: runWinProb},
		{Name: "verify", Summary: "check a result's signatures and record", Run: runVerify},
		{Name: "dice", Summary: "read die faces from images, or score the recogniser on labelled folders", Run: runDice},
		{Name: "check", Summary: "find the table's sensors, light every LED, list occupied sites", Run: runCheck},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	p := cli.Program{Name: "parchis", Commands: commands(), Status: "0 ok, 1 a rule is broken, 2 bad usage or unparsable input", ExitUsage: exitUsage}
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
