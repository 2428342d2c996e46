package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/simtable"
	"github.com/parchis-table/parchis/table"
)

func runSim(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("sim", "[-config FILE] [flags]",
		"Runs the simulated table: four simulated players throw a die under a synthetic\ncamera read by the real recogniser and move pieces on an in-memory board read\nthrough the real debouncing; the referee, journal, lights, embedded broker and\njudges' dashboard run as on a real table. Open the dashboard's address in a\nbrowser to watch the game live.",
		"  parchisd sim\n  parchisd sim -games 1 -speed 50 -render=false -dir /tmp/sim", stderr)
	cfgPath := fs.String("config", "", "configuration `FILE` (default: the built-in defaults)")
	dir := fs.String("dir", "", "keep the journal and games in `DIR` (overrides the config)")
	games := fs.Int("games", -1, "stop after this many games (default: the config's sim.games; 0 for ever)")
	pace := fs.Duration("pace", 0, "time between two actions of the players (default: the config's sim.pace)")
	seed := fs.Uint64("seed", 0, "seed of the simulated players (default: the config's sim.seed)")
	render := fs.Bool("render", true, "draw the board and its lights in the terminal (when the config allows)")
	speed := fs.Float64("speed", 1, "run the simulated time this many times faster than real time")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "parchisd sim: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd sim: %v\n", err)
		return exitUsage
	}
	if *dir != "" {
		cfg.Dir = *dir
	}
	if *games >= 0 {
		cfg.Sim.Games = *games
	}
	if *pace > 0 {
		cfg.Sim.Pace = config.Duration(*pace)
	}
	if *seed != 0 {
		cfg.Sim.Seed = *seed
	}
	cfg.Sim.Render = cfg.Sim.Render && *render
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *speed <= 0 || *speed > 1000 {
		fmt.Fprintf(stderr, "parchisd sim: -speed %v: want more than 0 and at most 1000\n", *speed)
		return exitUsage
	}
	if err := simulate(ctx, cfg, *speed, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "parchisd sim: %v\n", err)
		return exitFail
	}
	return exitOK
}

// simulate runs the simulated table until ctx ends or the configured
// number of games is played.
func simulate(ctx context.Context, cfg *config.Daemon, speed float64, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	logw := stderr
	if cfg.Sim.Render {
		// The terminal shows the board; the log goes to a file.
		if err := os.MkdirAll(cfg.Dir, 0o750); err != nil {
			return err
		}
		f, err := os.OpenFile(cfg.Dir+"/parchisd.log", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o640)
		if err != nil {
			return err
		}
		defer f.Close()
		logw = f
	}
	log := newLogger(cfg, logw)
	lights := sim.NewLights()
	var drv *simtable.Driver
	screen := &screen{w: stdout}
	var sinks []table.Sink
	if cfg.Sim.Render {
		sinks = append(sinks, table.SinkFunc(func(u *table.Update) error {
			if drv == nil {
				return nil
			}
			return screen.draw(drv, u)
		}))
	}
	d, err := start(ctx, cfg, log, board.Caps{Counts: true, Colours: true}, lights, sinks...)
	if err != nil {
		return err
	}
	defer d.wait()
	defer cancel()
	opts := simtable.DefaultOpts
	opts.Seed, opts.Mistakes, opts.Handling, opts.Pace, opts.Epoch = cfg.Sim.Seed, cfg.Sim.Mistakes, cfg.Sim.Handling, cfg.Sim.Pace.D(), time.Now()
	drv = simtable.NewDriver(d.table, opts)
	var names [engine.NumColours]string
	copy(names[:], cfg.Sim.Players)
	played := 0
	newGame := func() error {
		starter := engine.Colour((cfg.Sim.Seed + uint64(played)) % engine.NumColours)
		_, err := drv.Start(starter, names)
		return err
	}
	if pos := d.table.Referee().Position(); d.table.Referee().Game() != nil && pos.Phase() != engine.PhaseEnd {
		drv.Resume()
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

// screen draws the simulated board and its lights in the terminal, at
// most a few times a second.
type screen struct {
	w      io.Writer
	last   time.Time
	recent []string
}

func (s *screen) draw(drv *simtable.Driver, u *table.Update) error {
	for _, e := range u.Events {
		if u.Flushed {
			break // shown when they happened
		}
		line := fmt.Sprintf("%5d %-10s %s %s%s%s %s", e.Seq, e.Type, e.Colour, e.Throw, e.Move, rulePart(e), e.Detail)
		s.recent = append(s.recent, strings.TrimSpace(line))
	}
	if n := len(s.recent); n > 8 {
		s.recent = s.recent[n-8:]
	}
	if time.Since(s.last) < 150*time.Millisecond && len(u.Events) == 0 {
		return nil
	}
	s.last = time.Now()
	snap := drv.Board.Pieces()
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	sim.Render(&b, &snap, u.Lights, sim.RenderOpts{Colour: true})
	fmt.Fprintf(&b, "\nposition: %s\n\n", u.Position.String())
	for _, l := range s.recent {
		b.WriteString(l + "\n")
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}

func rulePart(e referee.Event) string {
	if e.Rule == "" {
		return ""
	}
	return " [" + e.Rule + "]"
}
