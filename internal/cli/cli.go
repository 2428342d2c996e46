// Package cli is what the project's commands share: dispatch to
// subcommands, their usage, and flag sets whose --help shows an example.
package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/parchis-table/parchis/internal/password"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/internal/version"
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
// none, help, or an unknown one. Asked for, the usage is the output (on
// stdout, exit 0); for bad usage it goes with the error on stderr.
func (p *Program) Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		p.usage(stderr)
		return p.ExitUsage
	}
	if IsHelp(args[0]) || args[0] == "help" {
		p.usage(stdout)
		return 0
	}
	if version.IsFlag(args[0]) {
		PrintVersion(p.Name, stdout)
		return 0
	}
	for _, c := range p.Commands {
		if c.Name == args[0] {
			return c.Run(args[1:], stdin, stdout, &Output{Stderr: stderr, Stdout: stdout})
		}
	}
	fmt.Fprintf(stderr, "%s: %s\n", p.Name, spanish.Local(fmt.Sprintf("unknown command %q", args[0])))
	p.usage(stderr)
	return p.ExitUsage
}

func (p *Program) usage(w io.Writer) {
	fmt.Fprintf(w, spanish.Pick("usage: %s COMMAND [ARGS]   (%s COMMAND --help for more; %s --version)\n",
		"uso: %s ORDEN [ARGUMENTOS]   (%s ORDEN --help para saber más; %s --version)\n"), p.Name, p.Name, p.Name)
	width := 0
	for _, c := range p.Commands {
		width = max(width, len(c.Name))
	}
	for _, c := range p.Commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.Name, c.Summary)
	}
	if p.Status != "" {
		fmt.Fprintln(w, spanish.Pick("exit status: ", "estado de salida: ")+p.Status)
	}
}

// PrintVersion prints the --version line of program prog:
// "parchisd 1.2.0 (go1.26.0 linux/arm64)".
func PrintVersion(prog string, w io.Writer) {
	fmt.Fprintln(w, prog, version.Get())
}

// Output is the standard error a Program hands its subcommands: it writes
// to Stderr, and knows Stdout, where a help asked for goes (so that
// "cmd sub --help | less" shows it), while errors stay on Stderr.
type Output struct {
	Stderr, Stdout io.Writer
}

// Write writes p to Stderr.
func (o *Output) Write(p []byte) (int, error) { return o.Stderr.Write(p) }

// HelpWriter returns where help asked for goes, given a command's standard
// error: standard output when stderr is an Output, else stderr itself.
func HelpWriter(stderr io.Writer) io.Writer {
	if o, ok := stderr.(*Output); ok {
		return o.Stdout
	}
	return stderr
}

// Help prints the usage of fs where help asked for goes.
func Help(fs *flag.FlagSet) {
	out := fs.Output()
	fs.SetOutput(HelpWriter(out))
	fs.Usage()
	fs.SetOutput(out)
}

// IsHelp reports whether arg asks for help.
func IsHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// NewFlags returns the flag set of subcommand name of prog, whose --help
// prints the synopsis, a description, the flags and an example.
func NewFlags(prog, name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(prog+" "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		// Written where the flag set's output is at the time: Parse and
		// Help point it at standard output for a help asked for.
		w := fs.Output()
		lang := spanish.LocaleLang()
		fmt.Fprintf(w, "%s: %s %s %s\n\n%s\n", lang.Pick("usage", "uso"), prog, name, synopsis, about)
		if flags := defaults(fs, lang); flags != "" {
			fmt.Fprintf(w, "\n%s:\n%s", lang.Pick("flags", "opciones"), flags)
		}
		fmt.Fprintf(w, "\n%s:\n%s\n", lang.Pick("example", "ejemplo"), example)
	}
	return fs
}

// Parse parses args and returns the exit status to use when parsing ended
// the command — 0 for help, usage for bad flags — or -1 to go on. Help
// asked for is printed where HelpWriter says; a bad flag's error and the
// usage go to the flag set's output (standard error).
func Parse(fs *flag.FlagSet, args []string, usage int) int {
	// The flag package shows the usage itself, before Parse can tell a
	// help asked for from a mistake: hold it until then. The error it
	// writes is held too, to be said in the locale's language.
	show, out := fs.Usage, fs.Output()
	var said strings.Builder
	fs.Usage = func() {}
	fs.SetOutput(&said)
	err := fs.Parse(args)
	fs.Usage = show
	fs.SetOutput(out)
	if said.Len() > 0 {
		fmt.Fprint(out, spanish.Local(said.String()))
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		Help(fs)
		return 0
	case err != nil:
		fs.Usage()
		return usage
	}
	return -1
}

// HashPassword is the hash-password command, one for every program that
// has it (parchisd, parchis-judges): it reads a password from stdin and
// prints its hash (internal/password), which both the broker's users and
// the judges' file take.
func HashPassword(prog string, args []string, stdin io.Reader, stdout, stderr io.Writer, usage int) int {
	lang := spanish.LocaleLang()
	fs := NewFlags(prog, "hash-password", lang.Pick("< PASSWORD", "< CONTRASEÑA"),
		lang.Pick("Reads a password from standard input and prints its hash: for a broker\nuser's password in parchisd.yaml, or a judge's line in the judges' file.\nparchisd hash-password and parchis-judges hash-password are the same command.",
			"Lee una contraseña de la entrada estándar y escribe su hash: para la\ncontraseña de un usuario del broker en parchisd.yaml, o la línea de un juez\nen el fichero de jueces. parchisd hash-password y parchis-judges\nhash-password son la misma orden."),
		"  echo 'secret' | "+prog+" hash-password\n  pbkdf2-sha256$"+strconv.Itoa(password.Iterations)+"$…", stderr)
	if st := Parse(fs, args, usage); st >= 0 {
		return st
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, lang.Pick("%s hash-password: unexpected argument %q: give the password on standard input\n",
			"%s hash-password: argumento de más «%s»: la contraseña va por la entrada estándar\n"), prog, fs.Arg(0))
		return usage
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		if err == nil || errors.Is(err, io.EOF) {
			err = errors.New(lang.Pick("empty", "vacía"))
		}
		fmt.Fprintf(stderr, lang.Pick("%s hash-password: no password on standard input (%v)\n", "%s hash-password: no hay contraseña en la entrada estándar (%v)\n"), prog, err)
		return usage
	}
	h, err := password.Hash(line)
	if err != nil {
		fmt.Fprintf(stderr, "%s hash-password: %v\n", prog, err)
		return 1
	}
	fmt.Fprintln(stdout, h)
	return 0
}

// PrintDefaults prints the flags of fs as flag.PrintDefaults does, in the
// locale's language, for a command that writes its own usage.
func PrintDefaults(fs *flag.FlagSet) {
	fmt.Fprint(fs.Output(), defaults(fs, spanish.LocaleLang()))
}

// defaults returns what flag.PrintDefaults writes for fs, in lang.
func defaults(fs *flag.FlagSet, lang spanish.Lang) string {
	w := fs.Output()
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(w)
	return flagDefaults(lang, b.String())
}

// flagTypes says in Spanish the kinds of value flag.PrintDefaults names.
var flagTypes = map[string]string{
	"int": "entero", "uint": "natural", "int64": "entero", "uint64": "natural",
	"float": "número", "string": "texto", "duration": "duración", "value": "valor",
}

// flagDefaults returns the flags' listing (flag.PrintDefaults) in lang:
// in Spanish, the kinds of value and "(default …)" are said in Spanish.
func flagDefaults(lang spanish.Lang, defaults string) string {
	if lang != spanish.Spanish {
		return defaults
	}
	lines := strings.Split(defaults, "\n")
	for i, line := range lines {
		if f := strings.Fields(line); strings.HasPrefix(line, "  -") && !strings.Contains(line, "\t") && len(f) == 2 {
			if es, ok := flagTypes[f[1]]; ok {
				line = strings.TrimSuffix(line, f[1]) + es
			}
		}
		line = strings.Replace(line, " (default true)", " (por defecto, sí)", 1)
		lines[i] = strings.Replace(line, " (default ", " (por defecto ", 1)
	}
	return strings.Join(lines, "\n")
}
