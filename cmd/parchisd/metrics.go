package main

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// metrics counts what the table does, for Prometheus (text format 0.0.4,
// written by hand: a few counters need no client library).
type metrics struct {
	mu      sync.Mutex
	started time.Time
	inputs  map[string]uint64
	events  map[string]uint64 // by type, and infractions by rule
	seq     uint64
	games   uint64
	alerts  int
	// estimates counts the win chances published; playouts their
	// playouts.
	estimates, playouts uint64
}

// winChance counts a published win chance made of n playouts.
func (m *metrics) winChance(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.estimates++
	m.playouts += uint64(n)
}

// setAlerts sets how many things need a judge's or an operator's
// attention.
func (m *metrics) setAlerts(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.alerts = n
}

func newMetrics() *metrics {
	return &metrics{started: time.Now(), inputs: map[string]uint64{}, events: map[string]uint64{}}
}

var inputNames = map[referee.InputKind]string{
	referee.InputBoard: "board", referee.InputThrow: "throw", referee.InputStart: "start", referee.InputOpening: "opening",
	referee.InputSetup: "setup", referee.InputJudgeSet: "judge_set", referee.InputTimer: "timer",
}

// Update is the sink that counts.
func (m *metrics) Update(u *table.Update) error {
	if u.Flushed || u.Input.Kind == 0 {
		return nil // counted when held; or no input (the state redone)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inputs[inputNames[u.Input.Kind]]++
	for _, e := range u.Events {
		key := e.Type
		if e.Rule != "" {
			key += "\x00" + e.Rule
		}
		m.events[key]++
		m.seq = e.Seq
		if e.Type == "result" {
			m.games++
		}
	}
	return nil
}

func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	fmt.Fprintf(w, "# HELP parchisd_uptime_seconds Seconds since the daemon started.\n# TYPE parchisd_uptime_seconds gauge\nparchisd_uptime_seconds %.0f\n", time.Since(m.started).Seconds())
	fmt.Fprintf(w, "# HELP parchisd_event_seq Number of the last event.\n# TYPE parchisd_event_seq gauge\nparchisd_event_seq %d\n", m.seq)
	fmt.Fprintf(w, "# HELP parchisd_alerts Things that need a judge's or an operator's attention (the status topic's alerts).\n# TYPE parchisd_alerts gauge\nparchisd_alerts %d\n", m.alerts)
	fmt.Fprintf(w, "# HELP parchisd_games_total Games finished.\n# TYPE parchisd_games_total counter\nparchisd_games_total %d\n", m.games)
	fmt.Fprintf(w, "# HELP parchisd_win_chances_total Win chances estimated and published.\n# TYPE parchisd_win_chances_total counter\nparchisd_win_chances_total %d\n", m.estimates)
	fmt.Fprintf(w, "# HELP parchisd_win_chance_playouts_total Playouts of the win chances published.\n# TYPE parchisd_win_chance_playouts_total counter\nparchisd_win_chance_playouts_total %d\n", m.playouts)
	fmt.Fprintf(w, "# HELP parchisd_inputs_total Inputs handed to the referee, by kind.\n# TYPE parchisd_inputs_total counter\n")
	for _, k := range sortedKeys(m.inputs) {
		fmt.Fprintf(w, "parchisd_inputs_total{kind=%q} %d\n", k, m.inputs[k])
	}
	fmt.Fprintf(w, "# HELP parchisd_events_total Events, by type and infraction rule.\n# TYPE parchisd_events_total counter\n")
	for _, k := range sortedKeys(m.events) {
		typ, rule := k, ""
		for i := range k {
			if k[i] == 0 {
				typ, rule = k[:i], k[i+1:]
			}
		}
		fmt.Fprintf(w, "parchisd_events_total{type=%q,rule=%q} %d\n", typ, rule, m.events[k])
	}
}

func sortedKeys(m map[string]uint64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
