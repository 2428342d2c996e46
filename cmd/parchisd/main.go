// Command parchisd is the table daemon: it watches a physical game of
// parchís through the board's sensors and the dice camera, referees it,
// shows the players on the board's lights what is wrong or owed, keeps a
// journal that survives power cuts, and publishes the live game to the
// judges.
//
// Usage:
//
//	parchisd sim [-config FILE]     the simulated table, broker and dashboard
//	parchisd run -config FILE       the real table
//	parchisd script [-journal DIR] FILE | -
//	parchisd check [-config FILE]   find the hardware and light every LED
//	parchisd config                 print the default configuration
//	parchisd hash-password          hash a broker user's password
//
// Exit status: 0 ok, 1 the table failed or a check did not pass, 2 bad
// usage or configuration.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"sim", "run the simulated table with the broker and the dashboard", runSim},
		{"run", "run the real table from a configuration file", runRun},
		{"script", "feed a table script to the referee and print its events", runScript},
		{"check", "find the sensors, light every LED, list occupied sites", runCheck},
		{"config", "print the default configuration, every setting explained", runConfig},
		{"hash-password", "hash a password for a broker user (reads it from stdin)", runHashPassword},
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
	fmt.Fprintf(stderr, "parchisd: unknown command %q\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: parchisd COMMAND [ARGS]   (parchisd COMMAND --help for more)")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-14s %s\n", c.name, c.summary)
	}
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// newFlags returns a flag set whose --help prints the usage line, a
// description, the flags and an example.
func newFlags(name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("parchisd "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: parchisd %s %s\n\n%s\n", name, synopsis, about)
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

// parseFlags parses args and returns the exit status to use when parsing
// ended the command, or -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	return -1
}
