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
	"github.com/parchis-table/parchis/internal/spanish"
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

const tilesAboutES = `Muestra o ajusta los umbrales de clasificación de las placas de sensores por su
línea RS-485, al montar la mesa. Los umbrales son desviaciones respecto a la
referencia vacía de una casilla, en las cuentas de 12 bits de las placas (5 V
entre 4096): desde ONE un sensor lee una ficha, desde TWO dos fichas, y una
lectura solo vuelve atrás cuando la desviación pasa HYSTERESIS más allá de su
umbral. Cada placa los guarda en su EEPROM: sobreviven a reinicios y a
reprogramaciones.

  show        escribe de cada placa su dirección, número de arranque (cambia
              en cada reinicio), canales, umbrales y colores
  calibrate   ajusta umbrales (-set), colores (-colours) o nuevas referencias
              vacías (-empty) de las placas nombradas (-addr o -all), y
              escribe lo que responde cada placa

La línea sale de -config (sensors.serial, sensors.baud; las placas son las de
su disposición) o de -serial. show pregunta a todas las placas de la
disposición salvo que -addr nombre algunas. Una placa que no responde se
nombra, y el estado de salida es 1; los valores erróneos se rechazan antes
de enviar nada (estado 2). Véase firmware/README.md.`

const tilesExample = `  parchisd tiles -config /etc/parchisd/parchisd.yaml show
  parchisd tiles -serial /dev/ttyAMA0 -addr 1 show
  parchisd tiles -config /etc/parchisd/parchisd.yaml calibrate -all -set 180,420,30
  parchisd tiles -serial /dev/ttyAMA0 calibrate -addr 3,4 -colours Y,R -empty`

// runTiles is parchisd tiles … show and parchisd tiles … calibrate.
func runTiles(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("tiles", l.Pick("[-config FILE | -serial DEV [-baud N] [-layout FILE]] [-timeout D]\n", "[-config FICHERO | -serial DISP [-baud N] [-layout FICHERO]] [-timeout D]\n")+
		"         show [-addr N,…]\n"+
		l.Pick("         calibrate -addr N,… | -all [-set ONE,TWO,HYSTERESIS] [-colours NORTH,SOUTH | -colours none] [-empty]",
			"         calibrate -addr N,… | -all [-set ONE,TWO,HYSTERESIS] [-colours NORTE,SUR | -colours none] [-empty]"),
		l.Pick(tilesAbout, tilesAboutES), tilesExample, stderr)
	cfgPath := fs.String("config", "", l.Pick("the daemon's configuration `FILE`: its sensors.serial, sensors.baud and layout", "el `FICHERO` de configuración del demonio: su sensors.serial, sensors.baud y disposición"))
	serialPath := fs.String("serial", "", l.Pick("serial port `DEV` of the tiles' RS-485 line (e.g. /dev/ttyAMA0)", "puerto serie `DISP` de la línea RS-485 de las placas (p. ej. /dev/ttyAMA0)"))
	baud := fs.Int("baud", serial.DefaultOpts.Baud, l.Pick("with -serial: the line's rate", "con -serial: la velocidad de la línea"))
	layoutPath := fs.String("layout", "", l.Pick("with -serial: the board layout `FILE` whose tiles -all and show ask", "con -serial: el `FICHERO` de disposición del tablero cuyas placas preguntan -all y show"))
	timeout := fs.Duration("timeout", serial.DefaultOpts.Timeout, l.Pick("how long to wait for a tile's answer, `D`; a tile is asked 3 times before it is reported", "cuánto esperar la respuesta de una placa, `D`; se pregunta 3 veces a una placa antes de informar de ella"))
	addrs := fs.String("addr", "", l.Pick("the tiles' addresses, comma-separated (e.g. 1,2,5)", "las `DIRECCIONES` de las placas, separadas por comas (p. ej. 1,2,5)"))
	all := fs.Bool("all", false, l.Pick("calibrate: every tile of the layout", "calibrate: todas las placas de la disposición"))
	set := fs.String("set", "", l.Pick("calibrate: the thresholds `ONE,TWO,HYSTERESIS`, with HYSTERESIS < ONE < TWO ≤ 4095 (the tiles' default: 180,420,30)",
		"calibrate: los umbrales `ONE,TWO,HYSTERESIS`, con HYSTERESIS < ONE < TWO ≤ 4095 (los de fábrica de las placas: 180,420,30)"))
	colours := fs.String("colours", "", l.Pick("calibrate: `NORTH,SOUTH`, the colour of the pieces whose magnet has its north pole down, and of those with the south pole down (Y, B, R, G; e.g. Y,R); none when the magnets are not fitted by colour",
		"calibrate: `NORTE,SUR`, el color de las fichas cuyo imán tiene el polo norte abajo, y el de las que tienen abajo el sur (Y, B, R, G; p. ej. Y,R); none si los imanes no van por colores"))
	empty := fs.Bool("empty", false, l.Pick("calibrate: the tiles take their next scan as the empty baselines (clear the board first)", "calibrate: las placas toman su siguiente lectura como referencias vacías (antes, despeje el tablero)"))
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
		format = tilesErrorsES.In(l, format)
		for i, v := range a {
			if err, ok := v.(error); ok {
				a[i] = l.Say(err.Error())
			}
		}
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
		fmt.Fprintf(stderr, "parchisd tiles: %s\n", l.Say(err.Error()))
		return exitFail
	}
	defer port.Close()
	s := &tiles.Setup{T: &tiles.Serial{Port: port}, Retries: 2}

	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	failed := 0
	fail := func(a uint8, err error) {
		failed++
		fmt.Fprintf(stderr, "parchisd tiles: %s\n", l.Say(err.Error()))
		var te *tiles.TileError
		if errors.As(err, &te) {
			err = te.Err
		}
		fmt.Fprintf(w, "%d\t%s\n", a, l.Say(err.Error()))
	}
	if action == "show" {
		fmt.Fprintln(w, l.Pick("tile\tboot\tchannels\tone\ttwo\thysteresis\tcolours", "placa\tarranque\tcanales\tone\ttwo\thysteresis\tcolores"))
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
		fmt.Fprintln(w, l.Pick("tile\tone\ttwo\thysteresis\tcolours\tbaselines", "placa\tone\ttwo\thysteresis\tcolores\treferencias"))
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
			base := l.Pick("kept", "las de antes")
			if *empty {
				base = l.Pick("taken from the next scan", "de la siguiente lectura")
			}
			fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%s\t%s\n", a, got.One, got.Two, got.Hysteresis, colourText(got), base)
		}
	}
	w.Flush()
	if failed > 0 {
		fmt.Fprintf(stderr, l.Pick("parchisd tiles: %d of %d tiles failed\n", "parchisd tiles: fallaron %d de %d placas\n"), failed, len(list))
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

// colourText says which colour each pole means, in the locale's
// language.
func colourText(c protocol.Calibration) string {
	l := spanish.LocaleLang()
	if !c.Colours {
		return l.Pick("not read", "no se leen")
	}
	north, south := engine.Colour(c.North), engine.Colour(c.South)
	if l == spanish.Spanish {
		return fmt.Sprintf("norte %s, sur %s", spanish.ColourNoun(north.String()), spanish.ColourNoun(south.String()))
	}
	return fmt.Sprintf("north %s, south %s", north.Name(), south.Name())
}

// tilesErrorsES says parchisd tiles' usage errors in Spanish, by their
// English format.
var tilesErrorsES = spanish.Forms{
	"want show or calibrate, not %q (parchisd tiles -h explains)": "se espera show o calibrate, no «%s» (parchisd tiles -h lo explica)",
	"unexpected argument %q":           "argumento de más «%s»",
	"want -config FILE or -serial DEV": "se espera -config FICHERO o -serial DISP",
	"-layout is for -serial; with -config the tiles are those of its layout": "-layout es para -serial; con -config las placas son las de su disposición",
	"-timeout %v: want %v…%v": "-timeout %v: ha de estar entre %v y %v",
	"show takes -addr only; -all, -set, -colours and -empty are for calibrate":                                                                    "show solo admite -addr; -all, -set, -colours y -empty son para calibrate",
	"calibrate: name the tiles with -addr N,… or -all":                                                                                            "calibrate: nombre las placas con -addr N,… o -all",
	"calibrate: nothing to set: give -set, -colours or -empty (show prints the thresholds)":                                                       "calibrate: nada que ajustar: indique -set, -colours o -empty (show escribe los umbrales)",
	"%s: sensors.backend %q, sensors.serial %q: the tiles are reached over their RS-485 line (backend tiles, serial /dev/…); or give -serial DEV": "%s: sensors.backend %q, sensors.serial %q: a las placas se llega por su línea RS-485 (backend tiles, serial /dev/…); o indique -serial DISP",
	"name the tiles with -addr N,…, or give the layout with -layout FILE":                                                                         "nombre las placas con -addr N,…, o indique la disposición con -layout FICHERO",
	"the layout has sensors of kind %q, not tiles: name the tiles with -addr N,…":                                                                 "la disposición tiene sensores de tipo %q, no placas: nombre las placas con -addr N,…",
}
