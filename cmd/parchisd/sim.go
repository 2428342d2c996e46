package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/robot"
	"github.com/parchis-table/parchis/simtable"
	"github.com/parchis-table/parchis/table"
	"github.com/parchis-table/parchis/termboard"
	"github.com/parchis-table/parchis/vision"
)

func runSim(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("sim", l.Pick("[-config FILE] [flags]", "[-config FICHERO] [opciones]"), l.Pick(
		"Runs the simulated table: four simulated players throw a die under a synthetic\ncamera read by the real recogniser and move pieces on an in-memory board read\nthrough the real debouncing; the referee, journal, lights, embedded broker and\njudges' dashboard run as on a real table. Open the dashboard's address in a\nbrowser to watch the game live.",
		"Pone en marcha la mesa simulada: cuatro jugadores simulados tiran un dado\nbajo una cámara sintética que lee el reconocedor real y mueven fichas en un\ntablero en memoria leído con el filtrado real de los sensores; el árbitro,\nel diario, las luces, el broker incorporado y el panel de los jueces\nfuncionan como en una mesa real. Abra la dirección del panel en un\nnavegador para seguir la partida en directo."),
		"  parchisd sim\n  parchisd sim -games 1 -speed 50 -render=false -dir /tmp/sim", stderr)
	cfgPath := fs.String("config", "", l.Pick("configuration `FILE` (default: the built-in defaults)", "`FICHERO` de configuración (si no, la configuración incorporada)"))
	dir := fs.String("dir", "", l.Pick("keep the journal and games in `DIR` (overrides the config)", "guarda el diario y las partidas en `CARPETA` (manda sobre la configuración)"))
	var games optionalInt
	fs.Var(&games, "games", l.Pick("stop after `N` games (default: the config's sim.games; 0 for ever)", "para tras `N` partidas (si no, sim.games de la configuración; 0 sin fin)"))
	pace := fs.Duration("pace", 0, l.Pick("time between two actions of the players (default: the config's sim.pace)", "tiempo entre dos acciones de los jugadores (si no, sim.pace de la configuración)"))
	seed := fs.Uint64("seed", 0, l.Pick("seed of the simulated players (default: the config's sim.seed)", "semilla de los jugadores simulados (si no, sim.seed de la configuración)"))
	render := fs.Bool("render", true, l.Pick("draw the board and its lights in the terminal (when the config allows)", "dibuja el tablero y sus luces en el terminal (si la configuración lo permite)"))
	speed := fs.Float64("speed", 1, l.Pick("run the simulated time this many times faster than real time", "el tiempo simulado corre estas veces más rápido que el real"))
	tour := fs.Bool("tour", false, l.Pick("play one short scripted game that stages every infraction, explained, in DIR/tour", "juega una partida corta guionizada que escenifica cada infracción, explicada, en CARPETA/tour"))
	lang := fs.String("lang", string(langFromEnv()), l.Pick("language of the words under the board, es or en (from LANG when not given)", "idioma de los textos bajo el tablero, es o en (si no, el de LANG)"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "parchisd sim: %s\n", unexpected(fs.Arg(0)))
		return exitUsage
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd sim: %s\n", l.Say(err.Error()))
		return exitUsage
	}
	if *dir != "" {
		cfg.Dir = *dir
	}
	if games.set {
		if games.n < 0 {
			fmt.Fprintf(stderr, l.Pick("parchisd sim: -games %d: want 0 (for ever) or more\n", "parchisd sim: -games %d: ha de ser 0 (sin fin) o más\n"), games.n)
			return exitUsage
		}
		cfg.Sim.Games = games.n
	}
	if *pace > 0 {
		cfg.Sim.Pace = config.Duration(*pace)
	}
	if *seed != 0 {
		cfg.Sim.Seed = *seed
	}
	cfg.Sim.Render = cfg.Sim.Render && *render
	words, err := termboard.ParseLang(*lang)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd sim: -lang: %s\n", l.Say(err.Error()))
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *speed <= 0 || *speed > 1000 {
		fmt.Fprintf(stderr, l.Pick("parchisd sim: -speed %v: want more than 0 and at most 1000\n", "parchisd sim: -speed %v: ha de ser mayor que 0 y como mucho 1000\n"), *speed)
		return exitUsage
	}
	if err := simulate(ctx, cfg, simOpts{speed: *speed, lang: words, tour: *tour}, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "parchisd sim: %s\n", l.Say(err.Error()))
		return exitFail
	}
	return exitOK
}

// optionalInt is an int flag that knows whether it was given. Its help
// says its default in words alone: the flag package shows no default for
// a value whose String is that of the zero value ("").
type optionalInt struct {
	n   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New(spanish.Pick("want a whole number", "se espera un número entero"))
	}
	o.n, o.set = n, true
	return nil
}

// simOpts are the simulation's settings that are not the daemon's.
type simOpts struct {
	// speed runs the simulated time this many times faster.
	speed float64
	// lang is the language of the words under the board.
	lang termboard.Lang
	// tour plays the tour instead of simulated players.
	tour bool
}

// simulate runs the simulated table until ctx ends or the configured
// number of games is played; or the tour, until ctx ends.
func simulate(ctx context.Context, cfg *config.Daemon, so simOpts, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	speed := so.speed
	if so.tour {
		// Every tour starts afresh, apart from the simulated games.
		cfg.Dir = filepath.Join(cfg.Dir, "tour")
		if err := os.RemoveAll(cfg.Dir); err != nil {
			return fmt.Errorf("tour: %w", err)
		}
	}
	logw, logFile := stderr, ""
	if cfg.Sim.Render {
		// The terminal shows the board; the log goes to a file.
		if err := os.MkdirAll(cfg.Dir, 0o750); err != nil {
			return fmt.Errorf("data folder: %w", err)
		}
		logFile = logPath(cfg)
		f, err := os.OpenFile(logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
		if err != nil {
			return fmt.Errorf("log: %w", err)
		}
		defer f.Close()
		logw = f
	}
	if err := writeBanner(stdout, cfg, logFile, so.lang, so.tour); err != nil {
		return err
	}
	log := newLogger(cfg, logw)
	lights := sim.NewLights()
	var drv *simtable.Driver
	scr := newScreen(stdout, so.lang, headerLines(cfg, logFile, so.lang, so.tour))
	// Without the drawing, the tour's words are lines of text.
	scr.board = scr.board && cfg.Sim.Render
	var sinks []table.Sink
	if cfg.Sim.Render {
		var pieces board.Snapshot
		sinks = append(sinks, table.SinkFunc(func(u *table.Update) error {
			switch {
			case drv != nil:
				pieces = drv.Board.Pieces()
			case !so.tour:
				return nil
			case u.Input.Kind == referee.InputBoard:
				// The tour's pieces are where its script puts them.
				pieces = u.Input.Board
			}
			events := u.Events
			if u.Flushed {
				// Shown when they happened; now only on disk too.
				events = nil
			}
			return scr.draw(&pieces, u.Lights, u.Position.String(), events)
		}))
	}
	d, err := start(ctx, cfg, log, board.Caps{Counts: true, Colours: true}, lights, sinks...)
	if err != nil {
		return err
	}
	defer d.wait()
	defer cancel()
	if so.tour {
		log.Info("simulated table ready", "tour", true, "event", cfg.Event, "table", cfg.Table)
		t := &tourer{d: d, scr: scr, lang: so.lang, speed: speed, pause: time.Duration(float64(tourPause) / speed), ending: tourEnding(cfg, so.lang)}
		return t.play(ctx)
	}
	opts := simtable.DefaultOpts
	opts.Seed, opts.Mistakes, opts.Handling, opts.Pace, opts.Epoch = cfg.Sim.Seed, cfg.Sim.Mistakes, cfg.Sim.Handling, cfg.Sim.Pace.D(), simEpoch(d.table, time.Now())
	opts.Bot, opts.Robots = cfg.Sim.Bot, func() *robot.Seats { return d.robots }
	// the synthetic camera's die size stands for a calibration
	if opts.Reader, err = newDieReader(cfg.Camera, vision.Calibration{DieSize: opts.Camera.DieSize}, nil); err != nil {
		return err
	}
	drv = simtable.NewDriver(d.table, opts)
	var names [engine.NumColours]string
	copy(names[:], cfg.Sim.Players)
	played := 0
	newGame := func() error {
		starter := engine.Colour((cfg.Sim.Seed + uint64(played)) % engine.NumColours)
		if err := d.journalRobots(); err != nil {
			return err
		}
		_, err := drv.Start(starter, names)
		return err
	}
	if pos := d.table.Referee().Position(); d.table.Referee().Game() != nil && pos.Phase() != engine.PhaseEnd {
		if _, err := drv.Resume(); err != nil {
			return err
		}
		log.Info("resuming the game in the journal", "position", pos.String())
	} else if err := newGame(); err != nil {
		return err
	}
	sdNotify("READY=1")
	log.Info("simulated table ready", "event", cfg.Event, "table", cfg.Table)
	tick := time.NewTicker(time.Duration(float64(opts.Frame) / speed))
	defer tick.Stop()
	watchdog := watchdogTicker()
	// What a full disk held back is tried again every second.
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	var over time.Time
	for {
		select {
		case <-ctx.Done():
			sdNotify("STOPPING=1")
			return nil
		case <-watchdog:
			sdNotify("WATCHDOG=1")
		case <-retry.C:
			d.retry()
		case req := <-d.commands():
			d.command(req, drv.At())
		case e := <-d.winChances():
			d.gotWinChance(e)
		case <-d.robots.Ready():
			d.robotChose()
		case <-tick.C:
			if _, err := drv.Tick(); err != nil {
				return err
			}
			pos := d.table.Referee().Position()
			switch {
			case pos.Phase() != engine.PhaseEnd:
				over = time.Time{}
			case over.IsZero():
				over = time.Now()
				played++
				if cfg.Sim.Games > 0 && played >= cfg.Sim.Games {
					log.Info("games played", "games", played)
					return nil
				}
			case time.Since(over) > time.Duration(float64(10*cfg.Sim.Pace.D()+2*time.Second)/speed):
				// The result has been shown: the next game.
				if err := newGame(); err != nil {
					return err
				}
			}
		}
	}
}

// simEpoch is when the simulation's clock starts: now, or the time of the
// journal's last input when that is later. The simulated clock runs faster
// than real time, so a journal written by an earlier run holds times
// ahead of the wall clock; starting again from now would give the referee
// inputs timed before those it has seen, and a grace it began in the last
// run would end only once the clock has caught up, the game stuck until
// then (a board left wrong never flagged, its player waiting for the
// lights).
func simEpoch(t *table.Table, now time.Time) time.Time {
	if last := t.LastInput(); last.After(now) {
		return last
	}
	return now
}
