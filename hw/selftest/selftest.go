// Package selftest checks a table's hardware: it finds the sensor
// expanders or tiles the layout names, lights each LED in turn, lists the
// occupied sites and reports what is missing. parchis check and parchisd
// check run it.
package selftest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/conn/v3/spi/spitest"
	"periph.io/x/host/v3"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/hw/direct"
	"github.com/parchis-table/parchis/hw/leds"
	"github.com/parchis-table/parchis/hw/mcp23017"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/hw/tiles"
	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/tablescript"
)

const checkAbout = `Checks the table's hardware: finds the sensor expanders or tiles the
layout names, lights each LED in turn (watch the board: every site lights
once, in layout order, then the tray), lists the occupied sites, and
reports what is missing. Exit status: 0 all found, 1 something missing,
2 bad usage.

Tiles are reached over the I2C bus, or with -serial over their RS-485 line
(the tty of the Pi's UART or of a USB adapter, at -baud, 8N1).

With -sim it runs against the simulated table: the layout's expanders are
emulated on an in-memory I2C bus, the strip on a recording SPI port.`

const checkExample = `  parchis check                                   the real table, default layout
  parchis check -layout /etc/parchis/layout.yaml -i2c 1 -spi SPI0.0
  parchis check -layout layout-tiles.yaml -serial /dev/ttyAMA0 -baud 230400
  parchis check -sim -pieces 5:Y,12:YB,YH:YYYY -missing 0x25`

// Exit statuses of Main.
const (
	ExitOK      = 0
	ExitMissing = 1
	ExitUsage   = 2
)

// Main runs the check as the command prog ("parchis check", "parchisd
// check") with its arguments, and returns the exit status: 0 all found,
// 1 something missing, 2 bad usage.
func Main(prog string, args []string, stdout, stderr io.Writer) int {
	lang := spanish.LocaleLang()
	tool, name, _ := strings.Cut(prog, " ")
	fs := cli.NewFlags(tool, name, lang.Pick("[-sim] [-layout FILE] [-i2c BUS | -serial TTY [-baud N]] [-spi PORT] [-step D]", "[-sim] [-layout FICHERO] [-i2c BUS | -serial TTY [-baud N]] [-spi PUERTO] [-step D]"),
		tr(checkAbout), strings.ReplaceAll(tr(checkExample), "parchis check", prog), stderr)
	simulate := fs.Bool("sim", false, lang.Pick("check the simulated table instead of the hardware", "comprueba la mesa simulada en vez del hardware"))
	layoutFile := fs.String("layout", "", lang.Pick("board layout file (default: the standard layout)", "`FICHERO` de disposición del tablero (si no, la disposición estándar)"))
	i2cName := fs.String("i2c", "", lang.Pick("I2C bus of the expanders or tiles (default: the first)", "`BUS` I2C de los expansores o las placas (si no, el primero)"))
	spiName := fs.String("spi", "", lang.Pick("SPI port of the LED strip (default: the first)", "`PUERTO` SPI de la tira de LED (si no, el primero)"))
	irqName := fs.String("irq", "GPIO17", lang.Pick("GPIO of the expanders' shared interrupt line", "GPIO de la línea de interrupción compartida de los expansores"))
	serialPath := fs.String("serial", "", lang.Pick("serial port of the tiles' RS-485 line (e.g. /dev/ttyAMA0); default: tiles on the I2C bus", "`TTY`: puerto serie de la línea RS-485 de las placas (p. ej. /dev/ttyAMA0); si no, placas en el bus I2C"))
	baud := fs.Int("baud", serial.DefaultOpts.Baud, lang.Pick("with -serial: the line's rate", "con -serial: la velocidad de la línea"))
	step := fs.Duration("step", 150*time.Millisecond, lang.Pick("how long each LED stays lit", "cuánto tiempo queda encendido cada LED"))
	pieces := fs.String("pieces", "", lang.Pick("with -sim: pieces on the board, SITE:COLOURS,… (e.g. 5:Y,12:YB)", "con -sim: `FICHAS` en el tablero, CASILLA:COLORES,… (p. ej. 5:Y,12:YB)"))
	missing := fs.String("missing", "", lang.Pick("with -sim: expander addresses that do not answer, comma-separated (e.g. 0x25)", "con -sim: `DIRECCIONES` de expansores que no responden, separadas por comas (p. ej. 0x25)"))
	if st := cli.Parse(fs, args, ExitUsage); st >= 0 {
		return st
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, tr("%s: unexpected argument %q\n"), prog, fs.Arg(0))
		return ExitUsage
	}
	if !*simulate && (*pieces != "" || *missing != "") {
		fmt.Fprintln(stderr, prog+tr(": -pieces and -missing need -sim"))
		return ExitUsage
	}
	so := serial.DefaultOpts
	so.Baud = *baud
	if *serialPath == "" {
		baudSet := false
		fs.Visit(func(f *flag.Flag) { baudSet = baudSet || f.Name == "baud" })
		if baudSet {
			fmt.Fprintln(stderr, prog+tr(": -baud needs -serial"))
			return ExitUsage
		}
	} else {
		if *simulate {
			fmt.Fprintln(stderr, prog+tr(": -serial checks real tiles; -sim emulates expanders only"))
			return ExitUsage
		}
		if err := so.Validate(); err != nil {
			fmt.Fprintf(stderr, tr("%s: -baud: %v\n"), prog, err)
			return ExitUsage
		}
	}
	lay := config.DefaultLayout()
	if *layoutFile != "" {
		f, err := os.Open(*layoutFile)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s\n", prog, lang.Say(err.Error()))
			return ExitUsage
		}
		lay, err = config.LoadLayout(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %s: %s\n", prog, *layoutFile, lang.Say(err.Error()))
			return ExitUsage
		}
	}

	if *serialPath != "" && lay.Sensors.Kind != config.SensorsTiles {
		fmt.Fprintf(stderr, tr("%s: -serial is for tiles; the layout has sensors of kind %q\n"), prog, lay.Sensors.Kind)
		return ExitUsage
	}

	var h Hardware
	if *simulate {
		b := sim.NewBoard(nil)
		if err := placePieces(b, *pieces); err != nil {
			fmt.Fprintf(stderr, "%s: -pieces: %s\n", prog, lang.Say(err.Error()))
			return ExitUsage
		}
		exp := sim.NewExpanders(b, lay)
		for _, a := range strings.Split(*missing, ",") {
			if a == "" {
				continue
			}
			n, err := strconv.ParseUint(a, 0, 16)
			if err != nil {
				fmt.Fprintf(stderr, prog+tr(": -missing: bad address %q\n"), a)
				return ExitUsage
			}
			exp.Remove(uint16(n))
		}
		h.Bus, h.Strip = exp, &spitest.Record{}
		*step = 0
		if lay.Sensors.Kind == config.SensorsTiles {
			fmt.Fprintln(stderr, prog+tr(": -sim emulates expanders only; use a direct layout"))
			return ExitUsage
		}
		lay.Sensors.Kind = config.SensorsDirect
	} else {
		if _, err := host.Init(); err != nil {
			fmt.Fprintf(stderr, tr("%s: %v\n  %s\n"), prog, err, tr(hostHint))
			return ExitMissing
		}
		if *serialPath != "" {
			p, err := serial.Open(*serialPath, &so)
			if err != nil {
				fmt.Fprintf(stdout, tr("MISSING serial port %q for the tiles: %v\n  %s\n"), *serialPath, err, serialHint(*serialPath, err))
				return ExitMissing
			}
			defer p.Close()
			h.Tiles = &tiles.Serial{Port: p}
		} else {
			b, err := i2creg.Open(*i2cName)
			if err != nil {
				fmt.Fprintf(stdout, tr("MISSING I2C bus %q: %v\n  %s\n"), *i2cName, err, i2cHint(*i2cName))
				return ExitMissing
			}
			defer b.Close()
			h.Bus = b
		}
		if p, err := spireg.Open(*spiName); err != nil {
			fmt.Fprintf(stdout, tr("MISSING SPI port %q for the LED strip: %v\n  %s\n"), *spiName, err, spiHint(*spiName))
		} else {
			defer p.Close()
			h.Strip = p
		}
		h.IRQ = gpioreg.ByName(*irqName)
		h.BusName = *i2cName
	}
	return Check(lay, h, *step, stdout)
}

// Hardware is what a check probes.
type Hardware struct {
	// Bus is the I2C bus of the expanders, or of the tiles when Tiles is
	// nil.
	Bus i2c.Bus
	// Tiles, when not nil, carries the tiles' requests instead of Bus:
	// their RS-485 line (tiles.Serial).
	Tiles tiles.Transport
	// Strip is the LED strip's SPI port; nil when it could not be opened
	// (the strip is then reported missing).
	Strip spi.Port
	// IRQ is the expanders' shared interrupt line, or nil.
	IRQ gpio.PinIn
	// BusName is the I2C bus's name, for the hints ("" for the first).
	BusName string
}

// Check probes the sensors and the strip the layout names, lighting each
// LED for step, prints the report to out and returns the exit status.
func Check(lay *config.Layout, h Hardware, step time.Duration, out io.Writer) int {
	bus, port, irq := h.Bus, h.Strip, h.IRQ
	ok := true
	var sc hw.Scanner
	switch lay.Sensors.Kind {
	case config.SensorsDirect:
		for _, d := range lay.Devices() {
			o := mcp23017.DefaultOpts
			o.Addr = 0x20 + uint16(d)
			if _, err := mcp23017.New(bus, &o); err != nil {
				fmt.Fprintf(out, tr("MISSING expander %#02x: %v\n  %s\n"), o.Addr, errors.Unwrap(err), expanderHint(o.Addr, h.BusName))
				ok = false
			} else {
				fmt.Fprintf(out, tr("found   expander %#02x\n"), o.Addr)
			}
		}
		if ok {
			d, err := direct.New(bus, irq, lay, &direct.DefaultOpts)
			if err != nil {
				fmt.Fprintf(out, tr("MISSING sensors: %v\n  %s\n"), err, tr(scanHint))
				ok = false
			} else {
				sc = d
			}
		}
	case config.SensorsTiles:
		t := h.Tiles
		if t == nil {
			t = &tiles.I2C{Bus: bus}
		}
		d, err := tiles.New(t, lay, &tiles.DefaultOpts)
		bad := tileErrors(err)
		if err != nil && len(bad) == 0 {
			fmt.Fprintf(out, tr("MISSING sensors: %v\n  %s\n"), err, tr(scanHint))
		}
		for _, a := range lay.Devices() {
			if te := bad[a]; te != nil {
				fmt.Fprintf(out, tr("MISSING tile %d: %v\n  %s\n"), a, te.Err, tileHint(a, h.Tiles != nil))
			} else {
				fmt.Fprintf(out, tr("found   tile %d\n"), a)
			}
		}
		if err != nil {
			ok = false
		} else {
			sc = d
		}
	default:
		fmt.Fprintf(out, tr("MISSING sensors: layout kind %q has no hardware to check\n  set sensors.kind in the layout to direct or tiles\n"), lay.Sensors.Kind)
		ok = false
	}

	if port == nil {
		ok = false
	} else if n, err := lightEach(lay, port, step); err != nil {
		fmt.Fprintf(out, tr("MISSING LED strip: %v\n  %s\n"), err, tr(stripHint))
		ok = false
	} else {
		fmt.Fprintf(out, tr("lit     %d LEDs in turn (%s, %d sites and %d tray lights)\n"), n, lay.LEDs.Kind, engine.NumSites, board.TrayLights)
	}

	if sc != nil {
		var s board.Snapshot
		if err := sc.Scan(context.Background(), &s); err != nil {
			fmt.Fprintf(out, tr("MISSING sensor reading: %v\n  %s\n"), err, tr(scanHint))
			ok = false
		} else {
			var occ []string
			for x, r := range s.Sites {
				if r.Count > 0 {
					occ = append(occ, fmt.Sprintf("%v:%d", engine.Site(x), r.Count))
				}
			}
			if len(occ) == 0 {
				occ = []string{"none"}
			}
			fmt.Fprintf(out, tr("occupied %s\n"), strings.Join(occ, " "))
		}
	}
	if !ok {
		fmt.Fprintln(out, tr("check: something is missing"))
		return ExitMissing
	}
	fmt.Fprintln(out, tr("check: all found"))
	return ExitOK
}

// tileErrors indexes the tiles named in err (tiles.New's joined errors) by
// address.
func tileErrors(err error) map[uint8]*tiles.TileError {
	m := map[uint8]*tiles.TileError{}
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var te *tiles.TileError
		if errors.As(err, &te) {
			m[te.Addr] = te
		}
	}
	if err != nil {
		walk(err)
	}
	return m
}

// lightEach lights every site's LED in turn, then each tray light, white,
// for step each, and leaves the strip off.
func lightEach(lay *config.Layout, port spi.Port, step time.Duration) (int, error) {
	strip, err := leds.New(port, lay, &leds.DefaultOpts)
	if err != nil {
		return 0, err
	}
	white := board.Light{Colour: board.RGB{R: 255, G: 255, B: 255}, Pattern: board.Steady}
	n := 0
	show := func(f *board.Frame) error {
		if err := strip.Show(f); err != nil {
			return err
		}
		n++
		time.Sleep(step)
		return nil
	}
	for s := range engine.NumSites {
		var f board.Frame
		f.Sites[s] = white
		if err := show(&f); err != nil {
			return n, fmt.Errorf("site %v: %w", engine.Site(s), err)
		}
	}
	for i := range board.TrayLights {
		var f board.Frame
		f.Tray[i] = white
		if err := show(&f); err != nil {
			return n, fmt.Errorf("tray light %d: %w", i, err)
		}
	}
	return n, strip.Halt()
}

// placePieces puts pieces on the simulated board, written as a table
// script's board: "5:Y,12:YB,YH:YYYY".
func placePieces(b *sim.Board, spec string) error {
	if spec == "" {
		return nil
	}
	snap, err := tablescript.ParseBoard(spec)
	if err != nil {
		return err
	}
	b.SetAll(&snap)
	return nil
}
