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
	"io"
	"os"

	"github.com/parchis-table/parchis/internal/cli"
)

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func commands() []cli.Command {
	return []cli.Command{
		{Name: "sim", Summary: "run the simulated table with the broker and the dashboard (-tour: a guided game)", Run: runSim},
		{Name: "run", Summary: "run the real table from a configuration file", Run: runRun},
		{Name: "script", Summary: "feed a table script to the referee and print its events", Run: runScript},
		{Name: "check", Summary: "find the sensors, light every LED, list occupied sites", Run: runCheck},
		{Name: "calibrate", Summary: "find the dice tray and the die's size for the camera", Run: runCalibrate},
		{Name: "tiles", Summary: "show or set the sensor tiles' thresholds (show | calibrate)", Run: runTiles},
		{Name: "journal", Summary: "check the journals, or salvage a damaged one (check DIR | salvage DIR)", Run: runJournal},
		{Name: "config", Summary: "print the default configuration, every setting explained", Run: runConfig},
		{Name: "hash-password", Summary: "hash a password for a broker user (reads it from stdin)", Run: runHashPassword},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	p := cli.Program{Name: "parchisd", Commands: commands(), Status: "0 ok, 1 the table failed or a check did not pass, 2 bad usage or configuration", ExitUsage: exitUsage}
	return p.Run(args, stdin, stdout, stderr)
}

// newFlags returns a subcommand's flag set; --help shows an example.
func newFlags(name, synopsis, about, example string, stderr io.Writer) *flag.FlagSet {
	return cli.NewFlags("parchisd", name, synopsis, about, example, stderr)
}

// parseFlags parses args and returns the exit status to use when parsing
// ended the command, or -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string) int { return cli.Parse(fs, args, exitUsage) }
