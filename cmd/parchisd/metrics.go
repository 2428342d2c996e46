package main

import (
	"net/http"
	"runtime"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/parchis-table/parchis/internal/version"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// DefaultMetricsAddr is where the packaged configuration serves the
// metrics: beside node_exporter (9100) on the same Pi, not on its port.
const DefaultMetricsAddr = "127.0.0.1:9469"

// metrics is the daemon's health for Prometheus: what the table does
// (inputs, events, games, alerts), how its parts are (the broker
// connection, the feed's queue, the sensors, the camera, the journal's
// fsyncs), which build runs, and the Go runtime and process collectors.
// Each daemon has its own registry, so that tests can run several.
type metrics struct {
	reg *prometheus.Registry

	inputs       *prometheus.CounterVec
	events       *prometheus.CounterVec
	seq          prometheus.Gauge
	games        prometheus.Counter
	alerts       prometheus.Gauge
	sensorErrors prometheus.Counter
	frames       prometheus.Counter
	reads        *prometheus.CounterVec
	fsync        prometheus.Histogram
	// estimates counts the win chances published; playouts their
	// playouts.
	estimates, playouts prometheus.Counter
}

func newMetrics() *metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) { reg.MustRegister(c) }
	m := &metrics{
		reg: reg,
		inputs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parchisd_inputs_total",
			Help: "Inputs handed to the referee, by kind."}, []string{"kind"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parchisd_events_total",
			Help: "Events, by type and infraction rule."}, []string{"type", "rule"}),
		seq: prometheus.NewGauge(prometheus.GaugeOpts{Name: "parchisd_event_seq",
			Help: "Number of the last event."}),
		games: prometheus.NewCounter(prometheus.CounterOpts{Name: "parchisd_games_total",
			Help: "Games finished."}),
		alerts: prometheus.NewGauge(prometheus.GaugeOpts{Name: "parchisd_alerts",
			Help: "Things that need a judge's or an operator's attention (the status topic's alerts)."}),
		sensorErrors: prometheus.NewCounter(prometheus.CounterOpts{Name: "parchisd_sensor_scan_errors_total",
			Help: "Scans of the site sensors that failed (a loose cable, a dead expander or tile)."}),
		frames: prometheus.NewCounter(prometheus.CounterOpts{Name: "parchisd_camera_frames_total",
			Help: "Frames read from the dice camera."}),
		reads: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "parchisd_camera_reads_total",
			Help: "Throws the dice camera read, by what it made of them (value, edge, none, multi, unsure, suspicious)."}, []string{"read"}),
		fsync: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "parchisd_journal_fsync_seconds",
			Help:    "Time the journal's fsyncs took (every accepted throw, move and judge's action waits for one).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}),
		estimates: prometheus.NewCounter(prometheus.CounterOpts{Name: "parchisd_win_chances_total",
			Help: "Win chances estimated and published."}),
		playouts: prometheus.NewCounter(prometheus.CounterOpts{Name: "parchisd_win_chance_playouts_total",
			Help: "Playouts of the win chances published."}),
	}
	for _, c := range []prometheus.Collector{m.inputs, m.events, m.seq, m.games, m.alerts, m.sensorErrors, m.frames, m.reads, m.fsync, m.estimates, m.playouts} {
		f(c)
	}
	in := version.Get()
	bi := prometheus.NewGauge(prometheus.GaugeOpts{Name: "parchis_build_info",
		Help: "Always 1; the labels say which build runs.",
		ConstLabels: prometheus.Labels{"version": in.Version, "revision": in.Revision, "goversion": in.GoVersion,
			"goarch": runtime.GOARCH, "program": "parchisd"}})
	bi.Set(1)
	f(bi)
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watchFeed adds the live feed's health: whether it is connected to its
// broker, and how many events wait in its on-disk queue.
func (m *metrics) watchFeed(connected func() bool, pending func() int) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parchisd_broker_connected",
			Help: "1 while the live feed is connected to its MQTT broker, else 0."},
			func() float64 {
				if connected() {
					return 1
				}
				return 0
			}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "parchisd_feed_queue_depth",
			Help: "Events waiting in the feed's on-disk queue for the broker."},
			func() float64 { return float64(pending()) }),
	)
}

// setAlerts sets how many things need a judge's or an operator's
// attention.
func (m *metrics) setAlerts(n int) { m.alerts.Set(float64(n)) }

// sensorError counts a failed scan of the sensors.
func (m *metrics) sensorError() { m.sensorErrors.Inc() }

// frame counts a frame from the camera.
func (m *metrics) frame() { m.frames.Inc() }

// read counts a throw the camera read.
func (m *metrics) read(in referee.Input) { m.reads.WithLabelValues(in.Throw.String()).Inc() }

// winChance counts a published win chance made of n playouts.
func (m *metrics) winChance(n int) {
	m.estimates.Inc()
	m.playouts.Add(float64(n))
}

// journalSync records how long a journal fsync took.
func (m *metrics) journalSync(d time.Duration) { m.fsync.Observe(d.Seconds()) }

var inputNames = map[referee.InputKind]string{
	referee.InputBoard: "board", referee.InputThrow: "throw", referee.InputStart: "start", referee.InputOpening: "opening",
	referee.InputSetup: "setup", referee.InputJudgeSet: "judge_set", referee.InputTimer: "timer",
}

// Update is the sink that counts.
func (m *metrics) Update(u *table.Update) error {
	if u.Flushed || u.Input.Kind == 0 {
		return nil // counted when held; or no input (the state redone)
	}
	m.inputs.WithLabelValues(inputNames[u.Input.Kind]).Inc()
	for _, e := range u.Events {
		m.events.WithLabelValues(e.Type, e.Rule).Inc()
		m.seq.Set(float64(e.Seq))
		if e.Type == "result" {
			m.games.Inc()
		}
	}
	return nil
}

func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}).ServeHTTP(w, r)
}
