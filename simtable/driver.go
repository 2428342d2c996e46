package simtable

import (
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/hw/sim"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/robot"
	"github.com/parchis-table/parchis/table"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
)

// Opts configures a simulated table.
type Opts struct {
	// Seed makes the players' throws and choices repeatable.
	Seed uint64
	// Mistakes gives each kind of mistake's rate per action (0…1).
	Mistakes map[string]float64
	// Handling gives each way of handling pieces its rate per action
	// (0…1): counting out, victims first, idle pieces lifted, pauses.
	Handling map[string]float64
	// Pace is the time between two physical actions of the players.
	Pace time.Duration
	// Frame is the time between two camera frames (and sensor scans).
	Frame time.Duration
	// Camera configures the synthetic camera.
	Camera CameraOpts
	// Debounce configures the sensors' debouncing.
	Debounce hw.DebounceOpts
	// Epoch is the time the simulation's clock starts at.
	Epoch time.Time
	// Bot is how the players choose their moves (a bots level: random,
	// greedy, mc, mc:N); empty plays greedy.
	Bot string
	// Robots, when set, returns the robot partners of the game in play:
	// their moves are shown on the lights, which the players read and
	// follow.
	Robots func() *robot.Seats
	// Reader reads the synthetic camera's frames; nil reads them with
	// the table's reader (vision/learned) at the camera's die size.
	Reader vision.DieReader
}

// DefaultOpts play at a human pace, with 25 frames a second.
var DefaultOpts = Opts{
	Seed: 1, Handling: DefaultHandling, Pace: 400 * time.Millisecond, Frame: 40 * time.Millisecond, Camera: DefaultCameraOpts,
	Debounce: hw.DebounceOpts{Integrate: 2, Settle: 80 * time.Millisecond},
	Epoch:    time.Unix(0, 0).UTC(), Bot: "greedy",
}

// Driver runs a simulated table: at each tick it lets the players act,
// scans the simulated board through the debouncer, shows the camera's frame
// to the die watcher, and hands what they report to the table, exactly as
// the daemon does with real sensors and a real camera. Time is given to
// Tick, so a test runs games as fast as the machine goes and the daemon
// runs them in real time.
type Driver struct {
	Table   *table.Table
	Board   *sim.Board
	Camera  *Camera
	Players *Players

	opts     Opts
	deb      *hw.Debouncer
	watch    *vision.Watcher
	raw      board.Snapshot
	now      time.Duration
	nextAct  time.Duration
	games    int
	lastSeen string
}

// NewDriver returns a driver for t, whose referee reads colour-aware
// sensors.
func NewDriver(t *table.Table, opts Opts) *Driver {
	b := sim.NewBoard(&sim.BoardOpts{})
	cam := NewCamera(opts.Camera)
	d := &Driver{
		Table: t, Board: b, Camera: cam,
		opts: opts,
	}
	d.seat(opts.Seed)
	rd := opts.Reader
	if rd == nil {
		rd = learned.NewReader(&learned.Opts{DieSize: opts.Camera.DieSize})
	}
	d.watch = vision.NewWatcher(rd, nil)
	start := board.Expected(&engine.Position{})
	d.deb = hw.NewDebouncer(&start, opts.Debounce)
	return d
}

// Now returns the simulation's clock.
func (d *Driver) Now() time.Duration { return d.now }

// Start puts every piece home and starts a game with starter.
func (d *Driver) Start(starter engine.Colour, players [engine.NumColours]string) ([]referee.Event, error) {
	pos := engine.NewPosition(starter)
	d.Board.SetAll(ptr(board.Expected(&pos)))
	d.raw = d.Board.Pieces()
	d.deb = hw.NewDebouncer(&d.raw, d.opts.Debounce)
	events, err := d.Table.Handle(referee.Input{At: d.at(), Kind: referee.InputStart, Starter: starter, Players: players}, "")
	if err != nil {
		return events, err
	}
	events = append([]referee.Event(nil), events...)
	more, err := d.Table.Handle(referee.Input{At: d.at(), Kind: referee.InputBoard, Board: d.raw}, "")
	return append(events, more...), err
}

func ptr[T any](v T) *T { return &v }

// seat seats new players, who choose as seed makes them.
func (d *Driver) seat(seed uint64) {
	d.Players = NewPlayers(d.Board, d.Camera, seed, d.opts.Mistakes, d.opts.Handling)
	level := d.opts.Bot
	if level == "" {
		level = "greedy"
	}
	if bot, err := bots.New(level, seed); err == nil {
		d.Players.Chooser = bot
	} else {
		// An unknown level was refused by the configuration already.
		d.Players.Chooser = bots.Greedy{}
	}
}

func (d *Driver) at() time.Time { return d.opts.Epoch.Add(d.now) }

// Tick advances the simulation by one frame: the players act when their
// pace allows, the board is scanned and debounced, the camera's frame is
// watched, and every stable change and throw goes to the table. It returns
// the events of this frame.
func (d *Driver) Tick() ([]referee.Event, error) {
	d.now += d.opts.Frame
	var events []referee.Event
	r := d.Table.Referee()
	// The board held still for the referee's grace time: tell it, as the
	// daemon's timer does, at the very time the grace ended.
	if dl, ok := d.Table.Deadline(); ok && !d.at().Before(dl) {
		ev, err := d.Table.Handle(referee.Input{At: dl, Kind: referee.InputTimer}, "")
		events = append(events, ev...)
		if err != nil {
			return events, err
		}
	}
	if d.now >= d.nextAct {
		d.nextAct = d.now + d.opts.Pace
		pos := r.Position()
		var robots *robot.Seats
		if d.opts.Robots != nil {
			robots = d.opts.Robots()
		}
		v := View{Pos: pos, Mismatch: r.Mismatch() != nil, Touched: r.Touched(), Lights: robots.Lights(r.Lights(), &pos), Robot: robots.Plays(pos.Turn())}
		if _, err := d.Players.Act(d.now, v); err != nil {
			return nil, err
		}
	}
	d.raw = d.Board.Pieces()
	if d.deb.Feed(d.at(), &d.raw) {
		ev, err := d.Table.Handle(referee.Input{At: d.at(), Kind: referee.InputBoard, Board: *d.deb.Stable()}, "")
		events = append(events, ev...)
		if err != nil {
			return events, err
		}
	}
	for _, e := range d.watch.Feed(d.Camera.Frame(d.now), d.now) {
		in := table.ThrowInput(e)
		in.At = d.at()
		ev, err := d.Table.Handle(in, "")
		events = append(events, ev...)
		if err != nil {
			return events, err
		}
	}
	for _, e := range events {
		if e.Type == referee.EventThrow && len(e.Throw) == 1 {
			d.Players.Thrown(int(e.Throw[0] - '0'))
		}
	}
	return events, nil
}

// At returns the simulation's clock as a time.
func (d *Driver) At() time.Time { return d.at() }

// Resume puts the pieces on the board as the table's game has them, to go
// on with a game replayed from the journal, and has the table re-check
// the board, as the daemon does with its sensors when it starts. Without
// that, the referee would keep the last board of the run that stopped (a
// piece put one square too far) while the players see every piece in
// place: each throw would be refused as early, the players would throw
// again, and the game would never go on.
//
// The players are seated again, seeded from the seed and the time of the
// journal's last input: players seeded alike at every restart would make
// the same choices each time, and runs shorter than what those choices
// take (a piece counted out twenty squares, throws until a 5 comes) would
// never get the game further.
func (d *Driver) Resume() ([]referee.Event, error) {
	d.seat(d.opts.Seed ^ uint64(d.Table.LastInput().UnixNano()))
	pos := d.Table.Referee().Position()
	b := board.Expected(&pos)
	d.Board.SetAll(&b)
	d.raw = b
	d.deb = hw.NewDebouncer(&d.raw, d.opts.Debounce)
	return d.Table.Handle(referee.Input{At: d.at(), Kind: referee.InputBoard, Board: d.raw}, "")
}
