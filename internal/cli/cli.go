// Package cli is what the project's commands share: dispatch to
// subcommands, their usage, and flag sets whose --help shows an example.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string
	Run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// Program is a command made of subcommands.
type Program struct {
	Name     string
	Commands []Command
	// Status explains the exit statuses in the usage.
	Status string
	// Usage status: returned for bad usage (2 by convention).
	ExitUsage int
}

// Run dispatches args to the subcommand they name, printing the usage for
// none, help, or an unknown one.
func (p *Program) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || IsHelp(args[0]) || args[0] == "help" {
		p.usage(stderr)
		if len(args) == 0 {
			return p.ExitUsage
		}
		return 0
	}
	for _, c := range p.Commands {
		if c.Name == args[0] {
			return c.Run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n", p.Name, args[0])
	p.usage(stderr)
	return p.ExitUsage
}

func (p *Program) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s COMMAND [ARGS]   (%s COMMAND --help for more)\n", p.Name, p.Name)
	width := 0
	for _, c := range p.Commands {
		width = max(width, len(c.Name))
	}
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.Name, c.Summary)
	}
	if p.Status != "" {
		fmt.Fprintln(w, "exit status: "+p.Status)
	}
}

// IsHelp reports whether arg asks for help.
func IsHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// NewFlags returns the flag set of subcommand name of prog, whose --help
// prints the synopsis, a description, the flags and an example.
func NewFlags(prog, name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(prog+" "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s %s %s\n\n%s\n", prog, name, synopsis, about)
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

// Parse parses args and returns the exit status to use when parsing ended
// the command — 0 for help, usage for bad flags — or -1 to go on.
func Parse(fs *flag.FlagSet, args []string, usage int) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return usage
	}
	return -1
}
