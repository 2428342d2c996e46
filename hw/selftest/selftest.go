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
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		// To the flag set's output at the time: cli.Parse points it at
		// standard output for a help asked for.
		w := fs.Output()
		fmt.Fprintf(w, "usage: %s [-sim] [-layout FILE] [-i2c BUS | -serial TTY [-baud N]] [-spi PORT] [-step D]\n\n%s\n\nflags:\n", prog, checkAbout)
		fs.PrintDefaults()
		fmt.Fprintf(w, "\nexample:\n%s\n", strings.ReplaceAll(checkExample, "parchis check", prog))
	}
	simulate := fs.Bool("sim", false, "check the simulated table instead of the hardware")
	layoutFile := fs.String("layout", "", "board layout file (default: the standard layout)")
	i2cName := fs.String("i2c", "", "I2C bus of the expanders or tiles (default: the first)")
	spiName := fs.String("spi", "", "SPI port of the LED strip (default: the first)")
	irqName := fs.String("irq", "GPIO17", "GPIO of the expanders' shared interrupt line")
	serialPath := fs.String("serial", "", "serial port of the tiles' RS-485 line (e.g. /dev/ttyAMA0); default: tiles on the I2C bus")
	baud := fs.Int("baud", serial.DefaultOpts.Baud, "with -serial: the line's rate")
	step := fs.Duration("step", 150*time.Millisecond, "how long each LED stays lit")
	pieces := fs.String("pieces", "", "with -sim: pieces on the board, SITE:COLOURS,… (e.g. 5:Y,12:YB)")
	missing := fs.String("missing", "", "with -sim: expander addresses that do not answer, comma-separated (e.g. 0x25)")
	if st := cli.Parse(fs, args, ExitUsage); st >= 0 {
		return st
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", prog, fs.Arg(0))
		return ExitUsage
	}
	if !*simulate && (*pieces != "" || *missing != "") {
		fmt.Fprintln(stderr, prog+": -pieces and -missing need -sim")
		return ExitUsage
	}
	so := serial.DefaultOpts
	so.Baud = *baud
	if *serialPath == "" {
		baudSet := false
		fs.Visit(func(f *flag.Flag) { baudSet = baudSet || f.Name == "baud" })
		if baudSet {
			fmt.Fprintln(stderr, prog+": -baud needs -serial")
			return ExitUsage
		}
	} else {
		if *simulate {
			fmt.Fprintln(stderr, prog+": -serial checks real tiles; -sim emulates expanders only")
			return ExitUsage
		}
		if err := so.Validate(); err != nil {
			fmt.Fprintf(stderr, "%s: -baud: %v\n", prog, err)
			return ExitUsage
		}
	}
	lay := config.DefaultLayout()
	if *layoutFile != "" {
		f, err := os.Open(*layoutFile)
		if err != nil {
			fmt.Fprintf(stderr, prog+": %v\n", err)
			return ExitUsage
		}
		lay, err = config.LoadLayout(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, prog+": %s: %v\n", *layoutFile, err)
			return ExitUsage
		}
	}

	if *serialPath != "" && lay.Sensors.Kind != config.SensorsTiles {
		fmt.Fprintf(stderr, "%s: -serial is for tiles; the layout has sensors of kind %q\n", prog, lay.Sensors.Kind)
		return ExitUsage
	}

	var h Hardware
	if *simulate {
		b := sim.NewBoard(nil)
		if err := placePieces(b, *pieces); err != nil {
			fmt.Fprintf(stderr, prog+": -pieces: %v\n", err)
			return ExitUsage
		}
		exp := sim.NewExpanders(b, lay)
		for _, a := range strings.Split(*missing, ",") {
			if a == "" {
				continue
			}
			n, err := strconv.ParseUint(a, 0, 16)
			if err != nil {
				fmt.Fprintf(stderr, prog+": -missing: bad address %q\n", a)
				return ExitUsage
			}
			exp.Remove(uint16(n))
		}
		h.Bus, h.Strip = exp, &spitest.Record{}
		*step = 0
		if lay.Sensors.Kind == config.SensorsTiles {
			fmt.Fprintln(stderr, prog+": -sim emulates expanders only; use a direct layout")
			return ExitUsage
		}
		lay.Sensors.Kind = config.SensorsDirect
	} else {
		if _, err := host.Init(); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n  %s\n", prog, err, hostHint)
			return ExitMissing
		}
		if *serialPath != "" {
			p, err := serial.Open(*serialPath, &so)
			if err != nil {
				fmt.Fprintf(stdout, "MISSING serial port %q for the tiles: %v\n  %s\n", *serialPath, err, serialHint(*serialPath, err))
				return ExitMissing
			}
			defer p.Close()
			h.Tiles = &tiles.Serial{Port: p}
		} else {
			b, err := i2creg.Open(*i2cName)
			if err != nil {
				fmt.Fprintf(stdout, "MISSING I2C bus %q: %v\n  %s\n", *i2cName, err, i2cHint(*i2cName))
				return ExitMissing
			}
			defer b.Close()
			h.Bus = b
		}
		if p, err := spireg.Open(*spiName); err != nil {
			fmt.Fprintf(stdout, "MISSING SPI port %q for the LED strip: %v\n  %s\n", *spiName, err, spiHint(*spiName))
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
				fmt.Fprintf(out, "MISSING expander %#02x: %v\n  %s\n", o.Addr, errors.Unwrap(err), expanderHint(o.Addr, h.BusName))
				ok = false
			} else {
				fmt.Fprintf(out, "found   expander %#02x\n", o.Addr)
			}
		}
		if ok {
			d, err := direct.New(bus, irq, lay, &direct.DefaultOpts)
			if err != nil {
				fmt.Fprintf(out, "MISSING sensors: %v\n  %s\n", err, scanHint)
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
			fmt.Fprintf(out, "MISSING sensors: %v\n  %s\n", err, scanHint)
		}
		for _, a := range lay.Devices() {
			if te := bad[a]; te != nil {
				fmt.Fprintf(out, "MISSING tile %d: %v\n  %s\n", a, te.Err, tileHint(a, h.Tiles != nil))
			} else {
				fmt.Fprintf(out, "found   tile %d\n", a)
			}
		}
		if err != nil {
			ok = false
		} else {
			sc = d
		}
	default:
		fmt.Fprintf(out, "MISSING sensors: layout kind %q has no hardware to check\n  set sensors.kind in the layout to direct or tiles\n", lay.Sensors.Kind)
		ok = false
	}

	if port == nil {
		ok = false
	} else if n, err := lightEach(lay, port, step); err != nil {
		fmt.Fprintf(out, "MISSING LED strip: %v\n  %s\n", err, stripHint)
		ok = false
	} else {
		fmt.Fprintf(out, "lit     %d LEDs in turn (%s, %d sites and %d tray lights)\n", n, lay.LEDs.Kind, engine.NumSites, board.TrayLights)
	}

	if sc != nil {
		var s board.Snapshot
		if err := sc.Scan(context.Background(), &s); err != nil {
			fmt.Fprintf(out, "MISSING sensor reading: %v\n  %s\n", err, scanHint)
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
			fmt.Fprintf(out, "occupied %s\n", strings.Join(occ, " "))
		}
	}
	if !ok {
		fmt.Fprintln(out, "check: something is missing")
		return ExitMissing
	}
	fmt.Fprintln(out, "check: all found")
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
