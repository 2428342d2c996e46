package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
	"github.com/parchis-table/parchis/tablescript"
)

func runScript(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("script", "[-journal DIR] [-sensors KIND] FILE | -",
		"Feeds a table script (DESIGN.md) to the referee, as the sensors and the camera\nwould, and prints one JSON event a line: seq, type, position (PPN after the\nevent), and move or rule. A lift without a colour from a site of several colours\nlifts the colour the script next places elsewhere, else the side to move's.\nWith -journal, inputs are journaled in DIR as the daemon does: run again after\na crash, it replays the journal, prints every event again from the first, and\ngoes on from the first line not journaled.",
		"  parchisd script referee/testdata/scripts/kill.script\n  {\"seq\":1,\"type\":\"start\",…}", stderr)
	dir := fs.String("journal", "", "journal the inputs in `DIR` and resume from it")
	sensors := fs.String("sensors", "colours", "what the sensors tell: presence, counts or colours")
	pace := fs.Duration("pace", 0, "wait this long before each line (to replay a game at a watchable speed)")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "parchisd script: want one FILE, or - for standard input")
		return exitUsage
	}
	caps, ok := parseCaps(*sensors)
	if !ok {
		fmt.Fprintf(stderr, "parchisd script: bad -sensors %q: want presence, counts or colours\n", *sensors)
		return exitUsage
	}
	in := stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "parchisd script: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	emit := func(e referee.Event) error { return enc.Encode(e) }
	t, err := table.Open(table.Opts{Caps: caps, Dir: *dir, Logger: slog.New(slog.NewTextHandler(stderr, nil))})
	if err != nil {
		fmt.Fprintf(stderr, "parchisd script: %v\n", err)
		return exitFail
	}
	defer t.Close()
	for _, e := range t.Replayed() {
		emit(e)
	}
	// Resume after the last script line the journal holds.
	skip := 0
	if n, ok := strings.CutPrefix(t.Note(), "line "); ok {
		skip, _ = strconv.Atoi(n)
	}
	// The whole script is read first: a lift without a colour looks at
	// what the script places next. Times never go backwards, the lines
	// resumed after included, and a line too long is refused with its
	// number (tablescript.ReadAll).
	sc, err := tablescript.ReadAll(in)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd script: %v\n", err)
		return exitUsage
	}
	for i, l := range sc.Lines {
		err := l.Err
		if err == nil && l.OK && l.N > skip {
			time.Sleep(*pace)
			t.SetAhead(sc.Ahead(i))
			var events []referee.Event
			events, err = t.Step(l.Step, "line "+strconv.Itoa(l.N))
			for _, e := range events {
				emit(e)
			}
			w.Flush()
		}
		if err != nil {
			w.Flush()
			var se *tablescript.Error
			if !errors.As(err, &se) {
				err = &tablescript.Error{Line: l.N, Text: l.Text, Err: err}
			}
			fmt.Fprintf(stderr, "parchisd script: %s: %v\n", fs.Arg(0), err)
			return exitUsage
		}
	}
	return exitOK
}

func parseCaps(s string) (board.Caps, bool) {
	switch s {
	case "presence":
		return board.Caps{}, true
	case "counts":
		return board.Caps{Counts: true}, true
	case "colours":
		return board.Caps{Counts: true, Colours: true}, true
	}
	return board.Caps{}, false
}
