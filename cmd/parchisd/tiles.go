package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles"
)

const tilesAbout = `Shows or sets the sensor tiles' classification thresholds over their RS-485
line, at bring-up. The thresholds are deviations from a site's empty
baseline, in the tiles' 12-bit counts (5 V over 4096): from ONE a sensor
reads one piece, from TWO two pieces, and a reading changes back only once
the deviation is HYSTERESIS past its threshold. Each tile stores them in
its EEPROM: they survive resets and reflashing.

  show        prints each tile's address, boot number (it changes at every
              reset), channels, thresholds and colours
  calibrate   sets thresholds (-set), colours (-colours) or new empty
              baselines (-empty) of the tiles named (-addr or -all), and
              prints what each tile answers with

The line comes from -config (sensors.serial, sensors.baud; the tiles are
the layout's) or from -serial. show asks every tile of the layout unless
-addr names some. A tile that does not answer is named, and the exit
status is 1; bad values are refused before anything is sent (exit 2).
See firmware/README.md.`

const tilesExample = `  parchisd tiles -config /etc/parchisd/parchisd.yaml show
  parchisd tiles -serial /dev/ttyAMA0 -addr 1 show
  parchisd tiles -config /etc/parchisd/parchisd.yaml calibrate -all -set 180,420,30
  parchisd tiles -serial /dev/ttyAMA0 calibrate -addr 3,4 -colours Y,R -empty`

// runTiles is parchisd tiles … show and parchisd tiles … calibrate.
func runTiles(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("tiles", "[-config FILE | -serial DEV [-baud N] [-layout FILE]] [-timeout D]\n"+
		"         show [-addr N,…]\n"+
		"         calibrate -addr N,… | -all [-set ONE,TWO,HYSTERESIS] [-colours NORTH,SOUTH | -colours none] [-empty]",
		tilesAbout, tilesExample, stderr)
	cfgPath := fs.String("config", "", "the daemon's configuration `FILE`: its sensors.serial, sensors.baud and layout")
	serialPath := fs.String("serial", "", "serial port `DEV` of the tiles' RS-485 line (e.g. /dev/ttyAMA0)")
	baud := fs.Int("baud", serial.DefaultOpts.Baud, "with -serial: the line's rate")
	layoutPath := fs.String("layout", "", "with -serial: the board layout `FILE` whose tiles -all and show ask")
	timeout := fs.Duration("timeout", serial.DefaultOpts.Timeout, "how long to wait for a tile's answer, `D`; a tile is asked 3 times before it is reported")
	addrs := fs.String("addr", "", "the tiles' addresses, comma-separated (e.g. 1,2,5)")
	all := fs.Bool("all", false, "calibrate: every tile of the layout")
	set := fs.String("set", "", "calibrate: the thresholds `ONE,TWO,HYSTERESIS`, with HYSTERESIS < ONE < TWO ≤ 4095 (the tiles' default: 180,420,30)")
	colours := fs.String("colours", "", "calibrate: `NORTH,SOUTH`, the colour of the pieces whose magnet has its north pole down, and of those with the south pole down (Y, B, R, G; e.g. Y,R); none when the magnets are not fitted by colour")
	empty := fs.Bool("empty", false, "calibrate: the tiles take their next scan as the empty baselines (clear the board first)")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	action := fs.Arg(0)
	if fs.NArg() > 0 { // flags may follow the action too
		if st := parseFlags(fs, fs.Args()[1:]); st >= 0 {
			return st
		}
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "parchisd tiles: "+format+"\n", a...)
		return exitUsage
	}
	switch {
	case action != "show" && action != "calibrate":
		return usage("want show or calibrate, not %q (parchisd tiles -h explains)", action)
	case fs.NArg() > 0:
		return usage("unexpected argument %q", fs.Arg(0))
	case (*cfgPath == "") == (*serialPath == ""):
		return usage("want -config FILE or -serial DEV")
	case *cfgPath != "" && *layoutPath != "":
		return usage("-layout is for -serial; with -config the tiles are those of its layout")
	case *timeout < serial.MinTimeout || *timeout > serial.MaxTimeout:
		return usage("-timeout %v: want %v…%v", *timeout, serial.MinTimeout, serial.MaxTimeout)
	case action == "show" && (*all || *set != "" || *colours != "" || *empty):
		return usage("show takes -addr only; -all, -set, -colours and -empty are for calibrate")
	case action == "calibrate" && (*addrs == "") == !*all:
		return usage("calibrate: name the tiles with -addr N,… or -all")
	case action == "calibrate" && *set == "" && *colours == "" && !*empty:
		return usage("calibrate: nothing to set: give -set, -colours or -empty (show prints the thresholds)")
	}
	thresholds, err := parseThresholds(*set)
	if err != nil {
		return usage("-set %s: %v", *set, err)
	}
	colour, err := parseColours(*colours)
	if err != nil {
		return usage("-colours %s: %v", *colours, err)
	}

	so := serial.DefaultOpts
	so.Baud, so.Timeout = *baud, *timeout
	lay := (*config.Layout)(nil)
	path := *serialPath
	if *cfgPath != "" {
		cfg, err := loadConfig(*cfgPath)
		if err != nil {
			return usage("%v", err)
		}
		if cfg.Sensors.Backend != "tiles" || cfg.Sensors.Serial == "" {
			return usage("%s: sensors.backend %q, sensors.serial %q: the tiles are reached over their RS-485 line (backend tiles, serial /dev/…); or give -serial DEV", *cfgPath, cfg.Sensors.Backend, cfg.Sensors.Serial)
		}
		path, so.Baud = cfg.Sensors.Serial, cfg.Sensors.Baud
		if lay, err = loadLayout(cfg); err != nil {
			return usage("%v", err)
		}
	} else if *layoutPath != "" {
		if lay, err = loadLayout(&config.Daemon{Layout: *layoutPath}); err != nil {
			return usage("%v", err)
		}
	}
	if err := so.Validate(); err != nil {
		return usage("%v", err)
	}

	var list []uint8
	if *addrs != "" {
		if list, err = parseAddrs(*addrs); err != nil {
			return usage("-addr %s: %v", *addrs, err)
		}
	} else {
		switch {
		case lay == nil:
			return usage("name the tiles with -addr N,…, or give the layout with -layout FILE")
		case lay.Sensors.Kind != config.SensorsTiles:
			return usage("the layout has sensors of kind %q, not tiles: name the tiles with -addr N,…", lay.Sensors.Kind)
		}
		list = lay.Devices()
	}

	port, err := serial.Open(path, &so)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd tiles: %v\n", err)
		return exitFail
	}
	defer port.Close()
	s := &tiles.Setup{T: &tiles.Serial{Port: port}, Retries: 2}

	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	failed := 0
	fail := func(a uint8, err error) {
		failed++
		fmt.Fprintf(stderr, "parchisd tiles: %v\n", err)
		var te *tiles.TileError
		if errors.As(err, &te) {
			err = te.Err
		}
		fmt.Fprintf(w, "%d\t%v\n", a, err)
	}
	if action == "show" {
		fmt.Fprintln(w, "tile\tboot\tchannels\tone\ttwo\thysteresis\tcolours")
		for _, a := range list {
			st, err := s.Status(a)
			if err != nil {
				fail(a, err)
				continue
			}
			c := st.Calibration
			fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%d\t%d\t%s\n", a, st.Boot, st.Channels, c.One, c.Two, c.Hysteresis, colourText(c))
		}
	} else {
		fmt.Fprintln(w, "tile\tone\ttwo\thysteresis\tcolours\tbaselines")
		for _, a := range list {
			c := protocol.Calibration{}
			if thresholds == nil || colour == nil {
				if c, err = s.Calibration(a); err != nil {
					fail(a, err)
					continue
				}
			}
			if thresholds != nil {
				c.One, c.Two, c.Hysteresis = thresholds.One, thresholds.Two, thresholds.Hysteresis
			}
			if colour != nil {
				c.Colours, c.North, c.South = colour.Colours, colour.North, colour.South
			}
			got, err := s.Calibrate(a, c, *empty)
			if err != nil {
				fail(a, err)
				continue
			}
			base := "kept"
			if *empty {
				base = "taken from the next scan"
			}
			fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%s\t%s\n", a, got.One, got.Two, got.Hysteresis, colourText(got), base)
		}
	}
	w.Flush()
	if failed > 0 {
		fmt.Fprintf(stderr, "parchisd tiles: %d of %d tiles failed\n", failed, len(list))
		return exitFail
	}
	return exitOK
}

// parseThresholds reads ONE,TWO,HYSTERESIS; nil when s is empty.
func parseThresholds(s string) (*protocol.Calibration, error) {
	if s == "" {
		return nil, nil
	}
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return nil, errors.New("want three numbers, ONE,TWO,HYSTERESIS (e.g. 180,420,30)")
	}
	var v [3]uint16
	for i, x := range f {
		n, err := strconv.ParseUint(strings.TrimSpace(x), 10, 16)
		if err != nil || n > 4095 {
			return nil, fmt.Errorf("%q is not a count of 0…4095", x)
		}
		v[i] = uint16(n)
	}
	c := &protocol.Calibration{One: v[0], Two: v[1], Hysteresis: v[2]}
	switch {
	case c.One >= c.Two:
		return nil, fmt.Errorf("ONE (%d) must be below TWO (%d)", c.One, c.Two)
	case c.Hysteresis >= c.One:
		return nil, fmt.Errorf("HYSTERESIS (%d) must be below ONE (%d)", c.Hysteresis, c.One)
	}
	return c, nil
}

// parseColours reads NORTH,SOUTH colour letters, or none; nil when s is
// empty.
func parseColours(s string) (*protocol.Calibration, error) {
	switch s {
	case "":
		return nil, nil
	case "none":
		return &protocol.Calibration{}, nil
	}
	n, so, ok := strings.Cut(s, ",")
	if !ok {
		return nil, errors.New("want NORTH,SOUTH colour letters (Y, B, R, G; e.g. Y,R) or none")
	}
	north, err := engine.ParseColour(strings.TrimSpace(n))
	if err != nil {
		return nil, fmt.Errorf("north: %w", err)
	}
	south, err := engine.ParseColour(strings.TrimSpace(so))
	if err != nil {
		return nil, fmt.Errorf("south: %w", err)
	}
	if north == south {
		return nil, fmt.Errorf("north and south are both %s: a tile could not tell the pieces apart", north.Name())
	}
	return &protocol.Calibration{Colours: true, North: uint8(north), South: uint8(south)}, nil
}

// parseAddrs reads comma-separated tile addresses.
func parseAddrs(s string) ([]uint8, error) {
	var out []uint8
	seen := map[uint64]bool{}
	for _, x := range strings.Split(s, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(x), 10, 8)
		if err != nil || n < protocol.MinAddr || n > protocol.MaxAddr {
			return nil, fmt.Errorf("%q is not a tile address (%d…%d)", x, protocol.MinAddr, protocol.MaxAddr)
		}
		if seen[n] {
			return nil, fmt.Errorf("tile %d named twice", n)
		}
		seen[n] = true
		out = append(out, uint8(n))
	}
	return out, nil
}

// colourText says which colour each pole means.
func colourText(c protocol.Calibration) string {
	if !c.Colours {
		return "not read"
	}
	return fmt.Sprintf("north %s, south %s", engine.Colour(c.North).Name(), engine.Colour(c.South).Name())
}
