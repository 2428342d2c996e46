// Command parchis-judges serves the judges' dashboard: every table of a
// tournament live from the MQTT feed, the event feed with infractions
// highlighted, results awaiting certification, and the judges' actions
// (certify or reject a result, correct a position, start a new game).
//
// Usage:
//
//	parchis-judges [-broker URL] [-addr HOST:PORT] [-lang es|en]
//	               [-mqtt-user U -mqtt-password P] [-judges FILE]
//	               [-demo-key FILE] [-table-keys FILE] [-tournament FILE]
//	               [-archive DIR]
//	parchis-judges hash-password        (reads a password on stdin; the
//	                                    same command as parchisd hash-password)
//
// The judges file has one judge a line: NAME PASSWORD-HASH [KEY-FILE], the
// hash as printed by hash-password; lines starting with # are comments.
// With no judges file the demo judge juez, password juez, signs in with a
// key kept in the -demo-key file (made on first use), or made anew at each
// start without one. See docs/dashboard.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/internal/version"
	"github.com/parchis-table/parchis/judges"
	"github.com/parchis-table/parchis/tournament"
)

// defaultMemoryLimit is the Go memory limit unless $GOMEMLIMIT says
// otherwise.
const defaultMemoryLimit = 64 << 20

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && version.IsFlag(args[0]) {
		cli.PrintVersion("parchis-judges", stdout)
		return 0
	}
	if len(args) > 0 && args[0] == "hash-password" {
		return cli.HashPassword("parchis-judges", args[1:], stdin, stdout, &cli.Output{Stderr: stderr, Stdout: stdout}, 2)
	}
	fs := flag.NewFlagSet("parchis-judges", flag.ContinueOnError)
	fs.SetOutput(&cli.Output{Stderr: stderr, Stdout: stdout})
	l := spanish.LocaleLang()
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, l.Pick("usage: parchis-judges [flags]\n       parchis-judges hash-password < PASSWORD   (the same as parchisd hash-password)\n       parchis-judges --version\n\nServes the judges' dashboard from the MQTT feed (docs/dashboard.md).\n\nflags:\n",
			"uso: parchis-judges [opciones]\n     parchis-judges hash-password < CONTRASEÑA   (igual que parchisd hash-password)\n     parchis-judges --version\n\nSirve el panel de los jueces a partir de la emisión MQTT (docs/dashboard.md).\n\nopciones:\n"))
		cli.PrintDefaults(fs)
	}
	var o judges.Opts
	fs.StringVar(&o.Broker, "broker", judges.DefaultBroker, l.Pick("MQTT broker URL", "URL del broker MQTT"))
	fs.StringVar(&o.Addr, "addr", judges.DefaultAddr, l.Pick("address of the web server", "dirección del servidor web"))
	fs.StringVar(&o.Lang, "lang", judges.DefaultLang, l.Pick("default language: es or en", "idioma por defecto: es o en"))
	fs.StringVar(&o.Username, "mqtt-user", "", l.Pick("the dashboard's MQTT user", "el usuario MQTT del panel"))
	fs.StringVar(&o.Password, "mqtt-password", os.Getenv("PARCHIS_MQTT_PASSWORD"), l.Pick("the dashboard's MQTT password (default $PARCHIS_MQTT_PASSWORD)", "la contraseña MQTT del panel (si no, $PARCHIS_MQTT_PASSWORD)"))
	judgesFile := fs.String("judges", "", l.Pick("file of judges: NAME PASSWORD-HASH [KEY-FILE] a line", "`FICHERO` de jueces: NOMBRE HASH-DE-CONTRASEÑA [FICHERO-DE-CLAVE] por línea"))
	fs.StringVar(&o.DemoKeyFile, "demo-key", "", l.Pick("file that keeps the demo judge's key, made on first use (default: a new key at each start)", "`FICHERO` que guarda la clave del juez de demostración, creada al primer uso (si no, una clave nueva en cada arranque)"))
	fs.StringVar(&o.CertFile, "cert", "", l.Pick("PEM certificate to serve HTTPS (with -key); judges' cookies are then Secure", "`CERTIFICADO` PEM para servir HTTPS (con -key); las cookies de los jueces son entonces Secure"))
	fs.StringVar(&o.KeyFile, "key", "", l.Pick("PEM key of -cert", "`CLAVE` PEM de -cert"))
	fs.StringVar(&o.Archive, "archive", "", l.Pick("folder of the club's archive: every result received is kept there, and /archive lists it", "`CARPETA` del archivo del club: cada resultado recibido se guarda ahí, y /archive los lista"))
	tourFile := fs.String("tournament", "", l.Pick("tournament file (YAML, or CSV when named .csv): pairs, players, clubs and rounds; see docs/tournament.md", "`FICHERO` del torneo (YAML, o CSV si acaba en .csv): parejas, jugadores, clubes y rondas; véase docs/tournament.md"))
	tableKeysFile := fs.String("table-keys", "", l.Pick("file of the tables' public keys: EVENT/TABLE KEY a line (results signed by another key cannot be certified)", "`FICHERO` de las claves públicas de las mesas: TORNEO/MESA CLAVE por línea (un resultado firmado con otra clave no se puede certificar)"))
	if st := cli.Parse(fs, args, 2); st >= 0 {
		return st
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, l.Pick("parchis-judges: unexpected argument %q\n", "parchis-judges: argumento de más «%s»\n"), fs.Arg(0))
		return 2
	}
	o.Logger = slog.New(slog.NewTextHandler(stderr, nil))
	if os.Getenv("GOMEMLIMIT") == "" {
		// A Raspberry Pi shares its memory: collect sooner than doubling.
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	var err error
	if *judgesFile != "" {
		if o.Judges, err = judges.LoadJudges(*judgesFile); err != nil {
			fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
			return 1
		}
	}
	if *tableKeysFile != "" {
		if o.TableKeys, err = judges.LoadTableKeys(*tableKeysFile); err != nil {
			fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
			return 1
		}
	}
	if *tourFile != "" {
		f, err := os.Open(*tourFile)
		if err != nil {
			fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
			return 1
		}
		o.Tournament, err = tournament.Parse(f, *tourFile)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
			return 1
		}
	}
	srv, err := judges.New(o)
	if errors.Is(err, judges.ErrDemoJudgeOffLoopback) {
		fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Run(ctx); err != nil {
		fmt.Fprintf(stderr, "parchis-judges: %s\n", l.Say(err.Error()))
		return 1
	}
	return 0
}
