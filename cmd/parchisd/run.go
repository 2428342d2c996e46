package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/hw/direct"
	"github.com/parchis-table/parchis/hw/leds"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/hw/tiles"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/source"
)

func runRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("run", l.Pick("-config FILE", "-config FICHERO"), l.Pick(
		"Runs the real table: the site sensors, lights and dice camera the configuration\nnames, the referee and its journal, and the live feed. Meant to run under\nsystemd (config/parchisd.service): it reports ready and feeds the watchdog.",
		"Pone en marcha la mesa real: los sensores de las casillas, las luces y la\ncámara del dado que nombra la configuración, el árbitro y su diario, y la\nemisión en directo. Pensada para systemd (config/parchisd.service): avisa\ncuando está lista y alimenta el watchdog."),
		"  parchisd run -config /etc/parchisd/parchisd.yaml", stderr)
	cfgPath := fs.String("config", "", l.Pick("configuration `FILE` (required)", "`FICHERO` de configuración (obligatorio)"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if *cfgPath == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, l.Pick("parchisd run: want -config FILE and no arguments", "parchisd run: se espera -config FICHERO y ningún argumento"))
		return exitUsage
	}
	cfg, err := config.LoadAndCheckDaemonFile(*cfgPath)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd run: %s\n", l.Say(err.Error()))
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runTable(ctx, cfg, newLogger(cfg, stderr)); err != nil {
		fmt.Fprintf(stderr, "parchisd run: %s\n", l.Say(err.Error()))
		return exitFail
	}
	return exitOK
}

// loadLayout reads the configured board layout, or the standard one.
func loadLayout(cfg *config.Daemon) (*config.Layout, error) {
	if cfg.Layout == "" {
		return config.DefaultLayout(), nil
	}
	f, err := os.Open(cfg.Layout)
	if err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	defer f.Close()
	lay, err := config.LoadLayout(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Layout, err)
	}
	return lay, nil
}

// runTable runs the table on the configured hardware until ctx ends.
func runTable(ctx context.Context, cfg *config.Daemon, log *slog.Logger) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lay, err := loadLayout(cfg)
	if err != nil {
		return err
	}
	if cfg.Sensors.Backend != "sim" || cfg.Lights.Backend != "sim" {
		if _, err := host.Init(); err != nil {
			return fmt.Errorf("host: %w", err)
		}
	}
	scanner, err := openSensors(cfg, lay)
	if err != nil {
		return err
	}
	wo := hw.DefaultWatchOpts
	wo.Poll, wo.Logger = cfg.Sensors.Poll.D(), log.With("part", "sensors")
	wo.Debounce.Settle = cfg.Sensors.Settle.D()
	sensors, err := hw.NewWatcher(scanner, &wo)
	if err != nil {
		return err
	}
	lights, err := openLights(ctx, cfg, lay)
	if err != nil {
		return err
	}
	throws := make(chan referee.Input, 4)
	dice, err := cameraReader(cfg.Camera)
	if err != nil {
		return err
	}
	frames, err := openCamera(ctx, cfg)
	if err != nil {
		return err
	}
	d, err := start(ctx, cfg, log, scanner.Caps(), lights)
	if err != nil {
		return err
	}
	defer d.wait()
	defer cancel()
	go func() {
		if err := sensors.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("sensors stopped", "err", err)
			cancel()
		}
	}()
	go watchDice(ctx, cfg, dice, frames, throws, d.metrics, log.With("part", "camera"))
	// Re-check the board against the game resumed from the journal.
	snap := sensors.Snapshot()
	d.input(referee.Input{At: time.Now(), Kind: referee.InputBoard, Board: snap})
	sdNotify("READY=1")
	log.Info("table ready", "event", cfg.Event, "table", cfg.Table, "sensors", cfg.Sensors.Backend)
	watchdog := watchdogTicker()
	grace := newGraceTimer()
	defer grace.stop()
	// What a full disk held back is tried again every second.
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	for {
		grace.arm(d.table)
		select {
		case <-ctx.Done():
			sdNotify("STOPPING=1")
			return nil
		case <-watchdog:
			sdNotify("WATCHDOG=1")
		case at := <-grace.C():
			if _, err := d.input(referee.Input{At: at, Kind: referee.InputTimer}); err != nil {
				return err
			}
		case <-retry.C:
			d.retry()
		case c := <-sensors.Changes():
			if c.Err != nil {
				d.metrics.sensorError()
				log.Error("sensors cannot be read", "err", c.Err)
				continue
			}
			if _, err := d.input(referee.Input{At: c.At, Kind: referee.InputBoard, Board: c.Snapshot}); err != nil {
				return err
			}
		case in := <-throws:
			if _, err := d.input(in); err != nil {
				return err
			}
		case req := <-d.commands():
			d.command(req, time.Now())
		case e := <-d.winChances():
			d.gotWinChance(e)
		case <-d.robots.Ready():
			d.robotChose()
		}
	}
}

func openSensors(cfg *config.Daemon, lay *config.Layout) (hw.Scanner, error) {
	switch cfg.Sensors.Backend {
	case "sim":
		return sim.NewBoard(nil), nil
	case "direct", "tiles":
		if cfg.Sensors.Backend == "tiles" && cfg.Sensors.Serial != "" {
			o := serial.DefaultOpts
			o.Baud = cfg.Sensors.Baud
			port, err := serial.Open(cfg.Sensors.Serial, &o)
			if err != nil {
				return nil, fmt.Errorf("sensors: %w", err)
			}
			// The port stays open for the daemon's life, as the I2C bus does.
			d, err := tiles.New(&tiles.Serial{Port: port}, lay, &tiles.DefaultOpts)
			if err != nil {
				port.Close()
				return nil, fmt.Errorf("sensors: %s: %w", cfg.Sensors.Serial, err)
			}
			return d, nil
		}
		bus, err := i2creg.Open(cfg.Sensors.I2CBus)
		if err != nil {
			return nil, fmt.Errorf("sensors: I2C bus %q: %w", cfg.Sensors.I2CBus, err)
		}
		if cfg.Sensors.Backend == "tiles" {
			return tiles.New(&tiles.I2C{Bus: bus}, lay, &tiles.DefaultOpts)
		}
		var irq gpio.PinIn
		if cfg.Sensors.IRQPin != "" {
			if irq = gpioreg.ByName(cfg.Sensors.IRQPin); irq == nil {
				return nil, fmt.Errorf("sensors: no GPIO named %q", cfg.Sensors.IRQPin)
			}
		}
		return direct.New(bus, irq, lay, &direct.DefaultOpts)
	}
	return nil, fmt.Errorf("sensors: unknown backend %q", cfg.Sensors.Backend)
}

func openLights(ctx context.Context, cfg *config.Daemon, lay *config.Layout) (hw.Lights, error) {
	if cfg.Lights.Backend == "sim" {
		return sim.NewLights(), nil
	}
	port, err := spireg.Open(cfg.Lights.SPIPort)
	if err != nil {
		return nil, fmt.Errorf("lights: SPI port %q: %w", cfg.Lights.SPIPort, err)
	}
	strip, err := leds.New(port, lay, &leds.DefaultOpts)
	if err != nil {
		return nil, err
	}
	go strip.Run(ctx)
	return strip, nil
}

// openCamera starts the configured frame source.
func openCamera(ctx context.Context, cfg *config.Daemon) (source.Source, error) {
	c := cfg.Camera
	switch c.Source {
	case "files":
		return source.NewDir(c.Dir, float64(c.FPS))
	case "rpicam":
		cmd := exec.CommandContext(ctx, "sh", "-c", c.Command)
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, fmt.Errorf("camera: %w", err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("camera: starting %q: %w", c.Command, err)
		}
		go cmd.Wait()
		return source.NewYUV420(out, source.YUV420Opts{Width: c.Width, Height: c.Height, Rate: float64(c.FPS)})
	}
	return nil, fmt.Errorf("camera: source %q works only in parchisd sim", c.Source)
}

// cameraReader returns the die reader of the configuration, with the
// camera's calibration (the tray, the die's size, the empty tray's frame)
// when it names one.
func cameraReader(c config.Camera) (vision.DieReader, error) {
	var cal vision.Calibration
	var bg image.Image
	if c.Calibration != "" {
		var err error
		if cal, bg, err = loadCalibration(c.Calibration); err != nil {
			return nil, err
		}
	}
	return newDieReader(c, cal, bg)
}

// loadCalibration reads a calibration file and the empty tray's frame it
// names (a path relative to the file's folder).
func loadCalibration(path string) (vision.Calibration, image.Image, error) {
	cal, err := vision.LoadCalibration(path)
	if err != nil {
		return vision.Calibration{}, nil, fmt.Errorf("camera.calibration %s: %w", path, err)
	}
	if cal.Background == "" {
		return cal, nil, nil
	}
	bg, err := source.DecodeImage(cal.Background)
	if err != nil {
		return vision.Calibration{}, nil, fmt.Errorf("camera.calibration %s: background: %w", path, err)
	}
	return cal, bg, nil
}

// newDieReader returns the die reader of the camera's config, for a
// calibration (the zero one: the whole frame, any die size) and the empty
// tray's frame bg (nil: none).
func newDieReader(c config.Camera, cal vision.Calibration, bg image.Image) (vision.DieReader, error) {
	lo := learned.Opts{Tray: cal.Tray.Rectangle(), DieSize: cal.DieSize, Background: bg}
	if c.Model != "" {
		m, err := learned.LoadModel(c.Model)
		if err != nil {
			return nil, fmt.Errorf("camera.model: %w", err)
		}
		lo.Model = m
	}
	if c.Profile != "" {
		p, err := learned.LoadProfile(c.Profile, lo.Model)
		if err != nil {
			return nil, fmt.Errorf("camera.profile: %w", err)
		}
		lo.Profile = p
	}
	return learned.NewReader(&lo), nil
}

// watchDice reads frames until ctx ends or the source does, and sends
// every throw the watcher reports that rd reads.
func watchDice(ctx context.Context, cfg *config.Daemon, rd vision.DieReader, frames source.Source, out chan<- referee.Input, m *metrics, log *slog.Logger) {
	w := vision.NewWatcher(rd, &vision.WatchOpts{Rest: cfg.Camera.Rest.D()})
	start := time.Now()
	for ctx.Err() == nil {
		f, err := frames.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				log.Error("camera stopped", "err", err)
			}
			return
		}
		m.frame()
		for _, e := range w.Feed(f.Gray, f.At) {
			in := table.ThrowInput(e)
			in.At = start.Add(f.At)
			m.read(in)
			select {
			case out <- in:
			case <-ctx.Done():
				return
			}
		}
	}
}

// graceTimer wakes the table's loop when the referee's grace time ends
// with no other input, so that a board left wrong is flagged on time. The
// timer input it leads to is journaled like any other, with the deadline
// as its time, so a replay flags at the same moment.
type graceTimer struct {
	t        *time.Timer
	deadline time.Time
	c        chan time.Time
}

func newGraceTimer() *graceTimer {
	g := &graceTimer{t: time.NewTimer(time.Hour), c: make(chan time.Time, 1)}
	g.t.Stop()
	return g
}

// arm sets the timer to the table's deadline, if it has one.
func (g *graceTimer) arm(t *table.Table) {
	dl, ok := t.Deadline()
	if !ok {
		g.t.Stop()
		g.deadline = time.Time{}
		return
	}
	if dl.Equal(g.deadline) {
		return
	}
	g.deadline = dl
	g.t.Stop()
	g.t = time.AfterFunc(time.Until(dl), func() {
		select {
		case g.c <- dl:
		default:
		}
	})
}

// C delivers the deadline that has come.
func (g *graceTimer) C() <-chan time.Time { return g.c }

func (g *graceTimer) stop() { g.t.Stop() }
