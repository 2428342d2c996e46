// Command parchisd is the table daemon: it watches a physical game of
// parchís through the board's sensors and the dice camera, referees it,
// shows the players on the board's lights what is wrong or owed, keeps a
// journal that survives power cuts, and publishes the live game to the
// judges.
//
// Usage:
//
//	parchisd sim [-config FILE]     the simulated table, broker and dashboard
//	parchisd sim -tour              one short game that shows every fault, explained
//	parchisd run -config FILE       the real table
//	parchisd script [-journal DIR] FILE | -
//	parchisd check [-sim]           find the hardware and light every LED
//	parchisd calibrate [-config FILE | -empty IMAGE -die IMAGE] [-o FILE]
//	parchisd tiles [-config FILE | -serial DEV] show [-addr N,…]
//	parchisd tiles [-config FILE | -serial DEV] calibrate -addr N,… | -all
//	        [-set ONE,TWO,HYSTERESIS] [-colours NORTH,SOUTH | none] [-empty]
//	parchisd journal check DIR      check the journals and their hash chains
//	parchisd journal salvage DIR    repair a damaged journal, keeping the original
//	parchisd config                 print the default configuration
//	parchisd hash-password          hash a broker user's password
//
// Exit status: 0 ok, 1 the table failed or a check did not pass, 2 bad
// usage or configuration.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
)

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func commands() []cli.Command {
	l := spanish.LocaleLang()
	return []cli.Command{
		{Name: "sim", Summary: l.Pick("run the simulated table with the broker and the dashboard (-tour: a guided game)", "pone en marcha la mesa simulada con el broker y el panel (-tour: una partida guiada)"), Run: runSim},
		{Name: "run", Summary: l.Pick("run the real table from a configuration file", "pone en marcha la mesa real con un fichero de configuración"), Run: runRun},
		{Name: "script", Summary: l.Pick("feed a table script to the referee and print its events", "pasa un guion de mesa al árbitro y escribe sus eventos"), Run: runScript},
		{Name: "check", Summary: l.Pick("find the sensors, light every LED, list occupied sites", "busca los sensores, enciende cada LED, lista las casillas ocupadas"), Run: runCheck},
		{Name: "calibrate", Summary: l.Pick("find the dice tray and the die's size for the camera", "localiza la bandeja y el tamaño del dado para la cámara"), Run: runCalibrate},
		{Name: "tiles", Summary: l.Pick("show or set the sensor tiles' thresholds (show | calibrate)", "muestra o ajusta los umbrales de las placas de sensores (show | calibrate)"), Run: runTiles},
		{Name: "journal", Summary: l.Pick("check the journals, or salvage a damaged one (check DIR | salvage DIR)", "comprueba los diarios, o rescata uno dañado (check CARPETA | salvage CARPETA)"), Run: runJournal},
		{Name: "config", Summary: l.Pick("print the default configuration, every setting explained", "escribe la configuración por defecto, con cada ajuste explicado"), Run: runConfig},
		{Name: "hash-password", Summary: l.Pick("hash a password for a broker user (reads it from stdin)", "calcula el hash de la contraseña de un usuario del broker (la lee de stdin)"), Run: runHashPassword},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	p := cli.Program{Name: "parchisd", Commands: commands(), ExitUsage: exitUsage,
		Status: spanish.Pick("0 ok, 1 the table failed or a check did not pass, 2 bad usage or configuration", "0 bien, 1 la mesa falló o una comprobación no pasó, 2 mal uso o mala configuración")}
	return p.Run(args, stdin, stdout, stderr)
}

// newFlags returns a subcommand's flag set; --help shows an example.
func newFlags(name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlags("parchisd", name, synopsis, about, example, stderr)
}

// parseFlags parses args and returns the exit status to use when parsing
// ended the command, or -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string) int { return cli.Parse(fs, args, exitUsage) }

// unexpected says that an argument is one too many, in the locale's
// language.
func unexpected(arg string) string {
	return fmt.Sprintf(spanish.Pick("unexpected argument %q", "argumento de más «%s»"), arg)
}
