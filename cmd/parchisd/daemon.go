package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/internal/version"
	"github.com/parchis-table/parchis/judges"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/robot"
	"github.com/parchis-table/parchis/table"
	"github.com/parchis-table/parchis/tablescript"
)

// daemon holds what the table daemon runs, whatever its hardware: the
// table (journal and referee) with its sinks, the live feed, the embedded
// broker and dashboard, and the game's result for certification.
type daemon struct {
	cfg     *config.Daemon
	log     *slog.Logger
	table   *table.Table
	pub     *broadcast.Publisher
	key     ed25519.PrivateKey
	lights  hw.Lights
	metrics *metrics
	dash    *judges.Server
	judges  broadcast.Judges

	// result is the last game's result, signed, one of judging's results
	// (published on the result topic until the next game); resultSeq the
	// number of its result event.
	result    *broadcast.Result
	resultSeq uint64
	// judging holds the round of the judges' last new-game and the results
	// waiting for their verdict, kept in DIR/judging.json; judgingErr says
	// why that file cannot be written, if it cannot.
	judging    judging
	judgingErr error
	// feedHeld are events the feed's queue could not take (a full disk),
	// oldest first, queued again at the next event or Retry; feedErr says
	// why.
	feedHeld []referee.Event
	feedErr  error
	// robots are the robot partners of the game: the configuration's,
	// or those of the judges' last new-game command; after a restart,
	// those the journal gives the game in play.
	robots *robot.Seats
	// stopRobots stops the robots' thinking goroutine; ctx is the
	// daemon's.
	stopRobots context.CancelFunc
	ctx        context.Context
	// live estimates each new position's win chance off the table's
	// goroutine; winChance is its last estimate, posted the position last
	// handed to it.
	live      *bots.Live
	winChance *bots.LiveEstimate
	posted    engine.Position
	// shownAlerts are the alerts last shown.
	shownAlerts []string
	alertsShown bool
	// background work to wait for before the daemon exits
	wg sync.WaitGroup
}

// loadConfig reads the configuration file, or the defaults when path is
// empty.
func loadConfig(path string) (*config.Daemon, error) {
	if path == "" {
		return config.DefaultDaemon(), nil
	}
	return config.LoadAndCheckDaemonFile(path)
}

func newLogger(cfg *config.Daemon, w io.Writer) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(cfg.Log.Level))
	o := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, o))
	}
	return slog.New(slog.NewTextHandler(w, o))
}

// start brings up everything but the hardware: the table's key, the
// embedded broker, the live feed, the dashboard, the metrics endpoint, and
// the table itself with its journal replayed. extra sinks come after the
// standard ones.
func start(ctx context.Context, cfg *config.Daemon, log *slog.Logger, caps hw.Caps, lights hw.Lights, extra ...table.Sink) (*daemon, error) {
	d := &daemon{cfg: cfg, log: log, lights: lights, metrics: newMetrics(), judges: broadcast.Judges{}}
	robots, err := robot.New(cfg.Bots, 1)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	d.ctx = ctx
	d.seat(robots)
	if err := os.MkdirAll(cfg.Dir, 0o750); err != nil {
		return nil, fmt.Errorf("dir: %w", err)
	}
	key, err := certify.LoadOrCreateKey(filepath.Join(cfg.Dir, "table.key"))
	if err != nil {
		return nil, err
	}
	d.key = key
	// Organisers register this key with the judges' dashboards
	// (parchis-judges -table-keys) so that nobody else can pass for the table.
	log.Info("table key", "table", cfg.Event+"/"+cfg.Table, "public_key", certify.PublicKeyString(key))
	for _, j := range cfg.Judges {
		d.judges[j.Name] = j.PublicKey
	}
	mqttUser, mqttPass := cfg.MQTT.Username, cfg.MQTT.Password
	dashUser, dashPass := "", ""
	if cfg.Broker.Enabled {
		users := brokerUsers(cfg)
		// The table and the dashboard running here log in to the embedded
		// broker with accounts made for this run.
		if mqttUser == "" {
			mqttUser, mqttPass = "table-"+cfg.Event+"-"+cfg.Table, randomPassword()
			u, err := brokerUser(mqttUser, mqttPass, broadcast.RoleTable, cfg.Event, cfg.Table)
			if err != nil {
				return nil, err
			}
			users = append(users, u)
		}
		if cfg.Dashboard.Enabled {
			dashUser, dashPass = "dashboard", randomPassword()
			u, err := brokerUser(dashUser, dashPass, broadcast.RoleJudge, "", "")
			if err != nil {
				return nil, err
			}
			users = append(users, u)
		}
		b, err := broadcast.NewBroker(broadcast.BrokerOpts{
			TCPAddr: cfg.Broker.TCP, WSAddr: cfg.Broker.WebSocket,
			TLS:   broadcast.TLSFiles{CA: cfg.Broker.CA, Cert: cfg.Broker.Cert, Key: cfg.Broker.Key},
			Users: users, AllowAnonymous: cfg.Broker.Anonymous, Logger: log.With("part", "broker"),
			Limits: broadcast.Limits{MaxPacket: cfg.Broker.MaxPacket, MaxClients: cfg.Broker.MaxClients,
				MaxClientsPerAddr: cfg.Broker.MaxClientsPerAddr, MaxInflight: cfg.Broker.MaxInflight, MaxQueued: cfg.Broker.MaxQueued},
		})
		if err != nil {
			return nil, err
		}
		if err := b.Start(ctx); err != nil {
			return nil, fmt.Errorf("broker: %w", err)
		}
		log.Info("broker listening", "tcp", cfg.Broker.TCP, "websocket", cfg.Broker.WebSocket)
	}
	if cfg.Dashboard.Enabled {
		var dashJudges []judges.Judge
		if cfg.Dashboard.Judges != "" {
			if dashJudges, err = judges.LoadJudges(cfg.Dashboard.Judges); err != nil {
				return nil, fmt.Errorf("dashboard.judges: %w", err)
			}
		}
		tableKeys := map[string]string{}
		if cfg.Dashboard.TableKeys != "" {
			if tableKeys, err = judges.LoadTableKeys(cfg.Dashboard.TableKeys); err != nil {
				return nil, fmt.Errorf("dashboard.table_keys: %w", err)
			}
		}
		tableKeys[cfg.Event+"/"+cfg.Table] = certify.PublicKeyString(key)
		dash, err := judges.New(judges.Opts{
			Broker: cfg.MQTT.Broker, Username: dashUser, Password: dashPass, Judges: dashJudges, TableKeys: tableKeys,
			CertFile: cfg.Dashboard.Cert, KeyFile: cfg.Dashboard.Key,
			DemoKeyFile: filepath.Join(cfg.Dir, "demo-judge.key"),
			Addr:        cfg.Dashboard.Addr, Lang: cfg.Dashboard.Lang, Logger: log.With("part", "dashboard"),
		})
		if err != nil {
			return nil, fmt.Errorf("dashboard: %w", err)
		}
		d.dash = dash
		// The dashboard's judges may certify this table's results; a judge
		// configured for the table keeps the key given there.
		for name, k := range dash.JudgeKeys() {
			if _, ok := d.judges[name]; !ok {
				d.judges[name] = k
			}
		}
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			if err := dash.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("dashboard stopped", "err", err)
			}
		}()
		scheme := "http"
		if cfg.Dashboard.Cert != "" {
			scheme = "https"
		}
		log.Info("dashboard", "url", scheme+"://"+cfg.Dashboard.Addr)
	}
	if cfg.MQTT.Broker != "" {
		pub, err := broadcast.New(broadcast.Opts{
			Broker: cfg.MQTT.Broker, Username: mqttUser, Password: mqttPass,
			TLS:      broadcast.TLSFiles{CA: cfg.MQTT.CA, Cert: cfg.MQTT.Cert, Key: cfg.MQTT.Key},
			QueueDir: filepath.Join(cfg.Dir, "feed"), Event: cfg.Event, Table: cfg.Table,
			Versions: map[string]string{"parchisd": version.Get().Version, "rules": "RULES.md", "feed": broadcast.Version},
			Judges:   d.judges, Logger: log.With("part", "feed"),
		})
		if err != nil {
			return nil, err
		}
		d.pub = pub
		d.metrics.watchFeed(pub.Connected, pub.Pending)
		d.wg.Add(1)
		// The queue is closed in wait, after the table: an input handled
		// as the daemon stops still has its events queued.
		go func() {
			defer d.wg.Done()
			pub.Run(ctx)
		}()
	}
	if cfg.WinChance.Playouts > 0 && d.pub != nil {
		// The playouts share the cores the table's goroutine leaves: on a
		// Pi 4, three.
		d.live = bots.NewLive(cfg.WinChance.Playouts, min(3, runtime.NumCPU()-1), 1)
		// A position that stands less than this is not estimated: people
		// leave each one for seconds, but a simulated table at many times
		// real speed would keep a core busy on positions nobody sees.
		d.live.Settle = func(ctx context.Context) bool {
			select {
			case <-ctx.Done():
				return false
			case <-time.After(winChanceSettle):
				return true
			}
		}
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			d.live.Run(ctx)
		}()
	}
	if cfg.Metrics != "" {
		if err := d.serveMetrics(ctx, cfg.Metrics); err != nil {
			return nil, err
		}
	}
	// The results of earlier games come back before the table opens: a
	// game whose end it saves as it opens joins them.
	d.loadJudging()
	sinks := []table.Sink{table.SinkFunc(d.showLights), table.SinkFunc(d.feed), d.metrics}
	d.table, err = table.Open(table.Opts{
		OnJournalSync: d.metrics.journalSync,
		Caps:          caps, Grace: cfg.Referee.Grace.D(), Dir: cfg.Dir, Sinks: append(sinks, extra...),
		OnGameEnd: d.gameEnd, Logger: log.With("part", "table"),
		Table: cfg.Table, RecordTags: d.recordTags,
	})
	if err != nil {
		return nil, err
	}
	if levels, ok := d.table.Robots(); ok {
		// The robot partners the game was started with, not the
		// configuration's: a judge may have seated others.
		robots, err := robot.NewByColour(levels, 1)
		if err != nil {
			return nil, fmt.Errorf("robot partners in the journal: %w", err)
		}
		d.seat(robots)
		r := d.table.Referee()
		d.showLights(&table.Update{Lights: r.Lights(), Position: r.Position()})
	}
	if d.pub != nil && d.pub.LastSeq() > d.table.Referee().Seq() {
		// The feed had events the journal no longer has (it was damaged):
		// numbers go on after them, never giving one twice.
		if err := d.table.NumberFrom(d.pub.LastSeq()); err != nil {
			return nil, err
		}
	}
	d.resendReplayed()
	d.showAlerts()
	// A game that ended before a restart still awaits its judge.
	if end, ok, err := d.table.Finished(); err != nil {
		log.Error("the last game's result cannot be read back", "err", err)
	} else if ok {
		d.gameEnd(end)
	}
	d.publishResults()
	d.publishState(time.Now())
	return d, nil
}

func randomPassword() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func brokerUser(name, password string, role broadcast.Role, event, table string) (broadcast.User, error) {
	h, err := broadcast.HashPassword(password)
	if err != nil {
		return broadcast.User{}, err
	}
	return broadcast.User{Name: name, Password: h, Role: role, Event: event, Table: table}, nil
}

// brokerUsers are the embedded broker's accounts the configuration lists.
func brokerUsers(cfg *config.Daemon) []broadcast.User {
	var users []broadcast.User
	for _, u := range cfg.Broker.Users {
		users = append(users, broadcast.User{Name: u.Name, Password: u.Password, Role: broadcast.Role(u.Role), Event: u.Event, Table: u.Table})
	}
	return users
}

// showLights is the sink that drives the board's lights. While the game
// needs a judge's check, the tray blinks white.
func (d *daemon) showLights(u *table.Update) error {
	if d.lights == nil {
		return nil
	}
	lights := d.robots.Lights(u.Lights, &u.Position)
	if len(d.alerts()) > 0 {
		f := *lights
		for i := range f.Tray {
			f.Tray[i] = board.Light{Colour: colourCheck, Pattern: board.Blink}
		}
		return d.lights.Show(&f)
	}
	return d.lights.Show(lights)
}

// colourCheck is the tray's blinking while a judge must check the game.
var colourCheck = board.RGB{R: 255, G: 255, B: 255}

// alerts are what needs a judge's or an operator's attention now.
func (d *daemon) alerts() []string {
	var a []string
	if d.table != nil && d.table.Check() != "" {
		a = append(a, d.table.Check())
	}
	if d.table != nil {
		if n, err := d.table.Degraded(); err != nil {
			a = append(a, fmt.Sprintf("the journal cannot be written (%v): the game goes on in memory, %d inputs held", err, n))
		}
	}
	if d.feedErr != nil {
		a = append(a, fmt.Sprintf("the feed's queue cannot be written (%v): %d events held", d.feedErr, len(d.feedHeld)))
	}
	if d.judgingErr != nil {
		a = append(a, fmt.Sprintf("the judging file cannot be written (%v): the round and %d results waiting are kept in memory", d.judgingErr, d.waitingCount()))
	}
	return a
}

// showAlerts puts the alerts on the status topic and the lights, when
// they changed.
func (d *daemon) showAlerts() {
	a := d.alerts()
	if d.alertsShown && slices.Equal(a, d.shownAlerts) {
		return
	}
	d.shownAlerts, d.alertsShown = a, true
	if d.pub != nil {
		d.pub.SetAlerts(a)
	}
	if d.lights != nil && d.table != nil {
		d.showLights(&table.Update{Lights: d.table.Referee().Lights(), Position: d.table.Referee().Position()})
	}
	d.metrics.setAlerts(len(a))
}

// feed is the sink that publishes every event and the state.
//
// A game's end makes the last result an older one: it leaves the feed at
// once, even before the new one is saved (a full disk may delay that).
// Events of inputs not yet journaled (Held) wait for their inputs to be
// (Flushed); events the queue cannot take wait in memory, in order.
func (d *daemon) feed(u *table.Update) error {
	if d.pub == nil || u.Replayed {
		return nil
	}
	for _, e := range u.Events {
		if e.Type == referee.EventResult && d.result != nil && e.Seq > d.resultSeq {
			d.result = nil
			d.pub.ClearResult()
		}
	}
	if u.Held {
		return nil
	}
	d.feedHeld = append(d.feedHeld, u.Events...)
	// Events the queue cannot take wait in memory (logged once, shown
	// in the alerts): not a failure of this update.
	if d.flushFeed() == nil && len(u.Events) > 0 {
		at := u.Input.At
		if u.Flushed {
			at = time.Now()
		}
		d.publishState(at)
	}
	return nil
}

// flushFeed queues the events held for the feed, in order.
func (d *daemon) flushFeed() error {
	for len(d.feedHeld) > 0 {
		if err := d.pub.Event(d.feedHeld[0]); err != nil {
			if d.feedErr == nil {
				d.log.Error("the feed's queue cannot be written: events wait in memory", "err", err)
			}
			d.feedErr = err
			return err
		}
		d.feedHeld = d.feedHeld[1:]
	}
	if d.feedErr != nil {
		d.log.Info("the feed's queue written again")
		d.feedErr = nil
		d.publishState(time.Now())
	}
	return nil
}

// retry tries again what a full disk held back: the journal's inputs and
// the feed's events. The daemon's loops call it every second.
func (d *daemon) retry() {
	d.table.Retry()
	if d.pub != nil && len(d.feedHeld) > 0 {
		d.flushFeed()
	}
	if d.judgingErr != nil {
		d.saveJudging()
	}
	d.showAlerts()
}

// resendReplayed queues the events the journal's replay rebuilt that the
// feed had not yet queued: those of an input journaled just before a
// crash.
func (d *daemon) resendReplayed() {
	if d.pub == nil {
		return
	}
	last := d.pub.LastSeq()
	for _, e := range d.table.Replayed() {
		if e.Seq > last {
			if err := d.pub.Event(e); err != nil {
				d.log.Error("requeueing a replayed event", "seq", e.Seq, "err", err)
			}
		}
	}
}

func (d *daemon) publishState(at time.Time) {
	if d.pub == nil {
		return
	}
	r := d.table.Referee()
	pos := r.Position()
	s := broadcast.NewState(d.cfg.Event, d.cfg.Table, r.Seq(), pos, r.Players(), r.LastThrow(), d.robots.Lights(r.Lights(), &pos), r.Mismatch(), at)
	if levels := d.robots.Levels(); len(levels) > 0 {
		s.Robots = levels
	}
	if e := d.winChance; e != nil && e.Position == pos {
		lo, hi := e.Interval(engine.PairYR)
		s.WinChance = &broadcast.WinChance{Seq: e.Seq, YR: e.Chance(engine.PairYR), BG: e.Chance(engine.PairBG), YRLow: lo, YRHigh: hi, Playouts: e.Playouts}
	}
	if err := d.pub.State(s); err != nil {
		d.log.Error("state", "err", err)
	}
	if d.live != nil && r.Game() != nil && d.posted != pos {
		// A new position: estimated on the estimator's goroutine, which
		// drops the estimate of the one before if it is still running.
		d.posted = pos
		d.live.Post(pos, r.Seq())
	}
}

// winChanceSettle is how long a position must stand before its win chance
// is estimated.
const winChanceSettle = 100 * time.Millisecond

// seat makes robots the game's robot partners, with a goroutine of their
// own to think on, and stops the one of those they replace.
func (d *daemon) seat(robots *robot.Seats) {
	if d.stopRobots != nil {
		d.stopRobots()
	}
	ctx, cancel := context.WithCancel(d.ctx)
	d.robots, d.stopRobots = robots, cancel
	if levels := robots.Levels(); len(levels) > 0 {
		d.log.Info("robot partners seated", "robots", levels)
	}
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		robots.Run(ctx)
	}()
}

// robotChose redraws the lights and the state once a robot that thinks on
// its own goroutine has chosen its move.
func (d *daemon) robotChose() {
	r := d.table.Referee()
	d.showLights(&table.Update{Lights: r.Lights(), Position: r.Position()})
	d.publishState(time.Now())
}

// winChances delivers the estimator's finished estimates (nil without
// one: a case on it never fires).
func (d *daemon) winChances() <-chan bots.LiveEstimate {
	if d.live == nil {
		return nil
	}
	return d.live.Results()
}

// gotWinChance publishes an estimate of the table's current position
// again with the state; one of a position left behind is dropped.
func (d *daemon) gotWinChance(e bots.LiveEstimate) {
	if e.Position != d.table.Referee().Position() {
		return
	}
	d.winChance = &e
	d.metrics.winChance(e.Playouts)
	d.publishState(time.Now())
}

// gameEnd signs the finished game's result and publishes it for the
// judges, after the results still waiting.
func (d *daemon) gameEnd(g table.GameEnd) {
	res := &broadcast.Result{
		Event: d.cfg.Event, Table: d.cfg.Table, Position: g.Position.String(),
		Players: broadcast.Players(g.Players), Record: string(g.Record),
		RecordSHA256: certify.RecordHash(g.Record), JournalHead: g.JournalHead.String(), Time: g.Time,
	}
	if w, ok := g.Position.Winner(); ok {
		res.Result = w.String()
	}
	res.Sign(d.key)
	d.result, d.resultSeq = d.keepResult(res), g.Seq
	d.log.Info("game over", "result", res.Result, "record_sha256", res.RecordSHA256, "saved", g.File, "waiting", d.waitingCount())
	if d.pub != nil {
		if err := d.pub.Result(*d.result); err != nil {
			d.log.Error("result", "err", err)
		}
		d.publishResults()
	}
}

// command carries out a judge's command in the table's goroutine and
// answers it.
func (d *daemon) command(req broadcast.Request, now time.Time) {
	c := req.Command
	log := d.log.With("command", c.Type, "id", c.ID, "judge", c.Judge)
	var seq uint64
	var err error
	if at := d.table.Referee().Seq(); (c.Type == broadcast.CmdNewGame || c.Type == broadcast.CmdCorrect) && c.Signature != "" && c.AtSeq != at {
		// Signed commands name the event the judge saw: one that comes
		// after the game moved on is not carried out (nor can it be
		// replayed later).
		err := fmt.Errorf("the game is at event %d, the judge saw event %d: look at the table again", at, c.AtSeq)
		log.Warn("command refused", "err", err)
		if err := req.Answer(0, err); err != nil {
			log.Warn("reply not sent", "err", err)
		}
		return
	}
	switch c.Type {
	case broadcast.CmdNewGame:
		starter, perr := engine.ParseColour(c.Starter)
		if perr != nil {
			err = perr
			break
		}
		var names [engine.NumColours]string
		for k, v := range c.Players {
			if col, perr := engine.ParseColour(k); perr == nil {
				names[col] = v
			}
		}
		robots := d.robots
		if c.Bots != nil {
			if robots, err = robot.New(c.Bots, 1); err != nil {
				break
			}
		} else if robots, err = robot.New(d.cfg.Bots, 1); err != nil {
			break
		}
		// The robots sit down before the game starts, so that its first
		// lights already show their moves.
		old := d.robots
		d.seat(robots)
		if err = d.journalRobots(); err == nil {
			seq, err = d.input(referee.Input{At: now, Kind: referee.InputStart, Starter: starter, Players: names, Judge: c.Judge})
		}
		if err != nil {
			d.seat(old)
			break
		}
		if d.result != nil {
			// The judges start the next game: the last result leaves the
			// result topic (it is kept in DIR/games); while it waits for a
			// verdict it stays on its own.
			d.result = nil
			d.pub.ClearResult()
		}
		d.newRound(c.Round)
	case broadcast.CmdCorrect:
		pos, perr := engine.ParsePPN(c.Position)
		if perr != nil {
			err = perr
			break
		}
		seq, err = d.input(referee.Input{At: now, Kind: referee.InputJudgeSet, Position: pos, Judge: c.Judge})
	case broadcast.CmdCertify, broadcast.CmdReject:
		err = d.certify(c)
	default:
		err = fmt.Errorf("unknown command %q", c.Type)
	}
	if err != nil {
		log.Warn("command failed", "err", err)
	} else {
		log.Info("command done", "seq", seq)
		if (c.Type == broadcast.CmdNewGame || c.Type == broadcast.CmdCorrect) && d.table.Check() != "" {
			// A judge has set the game right: the check is done.
			if err := d.table.ClearCheck(); err != nil {
				log.Error("clearing the judge's check", "err", err)
			}
			log.Info("judge's check done", "judge", c.Judge)
			d.showAlerts()
		}
	}
	if err := req.Answer(seq, err); err != nil {
		log.Warn("reply not sent", "err", err)
	}
}

// journalRobots journals the robot partners seated now as those of the
// next game to start, so that a restart seats them again.
func (d *daemon) journalRobots() error {
	_, err := d.table.Step(tablescript.Step{Verb: tablescript.VerbRobots, Robots: d.robots.ByColour()}, "")
	return err
}

// input hands one input to the table and returns the number of its last
// event.
func (d *daemon) input(in referee.Input) (uint64, error) {
	events, err := d.table.Handle(in, "")
	if err != nil {
		return 0, err
	}
	if len(events) == 0 {
		return 0, nil
	}
	return events[len(events)-1].Seq, nil
}

// recordTags are the header tags of a finished game's record that the
// table's configuration and the judges give: Event, Table and Round.
func (d *daemon) recordTags() []engine.Tag {
	return []engine.Tag{{Key: "Event", Value: d.cfg.Event}, {Key: "Table", Value: d.cfg.Table}, {Key: "Round", Value: d.judging.Round}}
}

// serveMetrics serves the Prometheus metrics on addr until ctx ends.
func (d *daemon) serveMetrics(ctx context.Context, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	srv := &http.Server{Handler: d.metrics, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln)
	go func() { <-ctx.Done(); srv.Close() }()
	d.log.Info("metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return nil
}

// commands returns the judges' commands channel (nil without a feed).
func (d *daemon) commands() <-chan broadcast.Request {
	if d.pub == nil {
		return nil
	}
	return d.pub.Commands()
}

// wait waits for the background work to stop after ctx has ended, and
// closes the table.
//
// The feed's queue is closed last: the loops may still hand the table an
// input after ctx has ended (a tick ready at the same time), and closing
// the table journals what it held; their events must reach the queue, or
// they would be lost to the feed once the journal is rotated.
func (d *daemon) wait() {
	d.wg.Wait()
	if err := d.table.Close(); err != nil {
		d.log.Error("closing the journal", "err", err)
	}
	if d.pub != nil {
		if err := d.pub.Close(); err != nil {
			d.log.Error("closing the feed's queue", "err", err)
		}
	}
}
