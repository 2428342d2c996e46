// Command parchis is the rules tool for judges and clubs: it lists legal
// moves, plays moves and throws on positions, replays game records, and
// plays random games to test the rules engine.
//
// Usage:
//
//	parchis moves PPN | -
//	parchis play PPN MOVE | -
//	parchis throw PPN DIE | -
//	parchis replay FILE | -
//	parchis selfplay [-n N] [-seed S] [-check]
//	parchis verify RESULT.json [RECORD]
//	parchis dice read FILE... | -
//	parchis dice eval DIR...
//	parchis check [-sim]
//
// Exit status: 0 ok, 1 a rule is broken, 2 bad usage or unparsable input.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Exit statuses.
const (
	exitOK    = 0
	exitRule  = 1
	exitUsage = 2
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"moves", "list the legal moves of a position", runMoves},
		{"play", "play a move on a position", runPlay},
		{"throw", "apply a throw to a position", runThrow},
		{"replay", "check a game record and print its end", runReplay},
		{"selfplay", "play random games and report speed and endings", runSelfPlay},
		{"verify", "check a result's signatures and record", runVerify},
		{"dice", "read die faces from images, or score the recogniser on labelled folders", runDice},
		{"check", "find the table's sensors, light every LED, list occupied sites", runCheck},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) || args[0] == "help" {
		usage(stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "parchis: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: parchis COMMAND [ARGS]   (parchis COMMAND --help for more)")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "exit status: 0 ok, 1 a rule is broken, 2 bad usage or unparsable input")
}

// newFlags returns a flag set whose --help prints the usage line, a
// description and an example.
func newFlags(name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("parchis "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: parchis %s %s\n\n%s\n", name, synopsis, about)
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		if b.Len() > 0 {
			fmt.Fprintf(stderr, "\nflags:\n%s", b.String())
		}
		fmt.Fprintf(stderr, "\nexample:\n%s\n", example)
	}
	return fs
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// parseFlags parses args and returns the exit status to use when parsing
// ended the command (help asked for, or bad flags), or -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	return -1
}
