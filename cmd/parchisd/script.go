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
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
	"github.com/parchis-table/parchis/tablescript"
)

func runScript(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("script", l.Pick("[-journal DIR] [-sensors KIND] FILE | -", "[-journal CARPETA] [-sensors TIPO] FICHERO | -"), l.Pick(
		"Feeds a table script (DESIGN.md) to the referee, as the sensors and the camera\nwould, and prints one JSON event a line: seq, type, position (PPN after the\nevent), and move or rule. A lift without a colour from a site of several colours\nlifts the colour the script next places elsewhere, else the side to move's.\nWith -journal, inputs are journaled in DIR as the daemon does: run again after\na crash, it replays the journal, prints every event again from the first, and\ngoes on from the first line not journaled.",
		"Pasa un guion de mesa (DESIGN.md) al árbitro, como lo harían los sensores y la\ncámara, y escribe un evento JSON por línea: seq, type, position (PPN tras el\nevento), y move o rule. Levantar sin color de una casilla con varios colores\nlevanta el color que el guion coloca después en otra, si no el de quien tiene\nel turno. Con -journal, las entradas se apuntan en el diario de CARPETA como\nhace el demonio: si se vuelve a ejecutar tras una caída, reproduce el diario,\nescribe de nuevo cada evento desde el primero y sigue desde la primera línea\nque no estaba en el diario."),
		"  parchisd script referee/testdata/scripts/kill.script\n  {\"seq\":1,\"type\":\"start\",…}", stderr)
	dir := fs.String("journal", "", l.Pick("journal the inputs in `DIR` and resume from it", "apunta las entradas en el diario de `CARPETA` y continúa desde él"))
	sensors := fs.String("sensors", "colours", l.Pick("what the sensors tell: presence, counts or colours", "lo que dicen los sensores: presence (presencia), counts (cuántas) o colours (colores)"))
	pace := fs.Duration("pace", 0, l.Pick("wait this long before each line (to replay a game at a watchable speed)", "espera esto antes de cada línea (para reproducir una partida a un ritmo que se pueda seguir)"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, l.Pick("parchisd script: want one FILE, or - for standard input", "parchisd script: falta un FICHERO, o - para la entrada estándar"))
		return exitUsage
	}
	caps, ok := parseCaps(*sensors)
	if !ok {
		fmt.Fprintf(stderr, l.Pick("parchisd script: bad -sensors %q: want presence, counts or colours\n", "parchisd script: -sensors «%s» no válido: presence, counts o colours\n"), *sensors)
		return exitUsage
	}
	in := stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "parchisd script: %s\n", l.Say(err.Error()))
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
		fmt.Fprintf(stderr, "parchisd script: %s\n", l.Say(err.Error()))
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
		fmt.Fprintf(stderr, "parchisd script: %s\n", l.Say(err.Error()))
		return exitUsage
	}
	for i, line := range sc.Lines {
		err := line.Err
		if err == nil && line.OK && line.N > skip {
			time.Sleep(*pace)
			t.SetAhead(sc.Ahead(i))
			var events []referee.Event
			events, err = t.Step(line.Step, "line "+strconv.Itoa(line.N))
			for _, e := range events {
				emit(e)
			}
			w.Flush()
		}
		if err != nil {
			w.Flush()
			var se *tablescript.Error
			if !errors.As(err, &se) {
				err = &tablescript.Error{Line: line.N, Text: line.Text, Err: err}
			}
			fmt.Fprintf(stderr, "parchisd script: %s: %s\n", fs.Arg(0), l.Say(err.Error()))
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
