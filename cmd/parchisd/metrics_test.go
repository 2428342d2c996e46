package main

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// TestMetrics_HealthAndBuild: the endpoint has the table's counts, the
// health of every part (feed, sensors, camera, journal), the build, and
// the Go and process collectors, in Prometheus' text format.
func TestMetrics_HealthAndBuild(t *testing.T) {
	m := newMetrics()
	m.watchFeed(func() bool { return true }, func() int { return 7 })
	m.Update(&table.Update{Input: referee.Input{Kind: referee.InputThrow}, Events: []referee.Event{
		{Seq: 41, Type: "throw"}, {Seq: 42, Type: "infraction", Rule: "wrong-count"}}})
	m.setAlerts(2)
	m.sensorError()
	m.frame()
	m.frame()
	m.read(referee.Input{Kind: referee.InputThrow, Throw: referee.ThrowEdge})
	m.journalSync(3 * time.Millisecond)

	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)
	for _, want := range []string{
		`parchisd_inputs_total{kind="throw"} 1`,
		`parchisd_events_total{rule="wrong-count",type="infraction"} 1`,
		`parchisd_event_seq 42`,
		`parchisd_alerts 2`,
		`parchisd_broker_connected 1`,
		`parchisd_feed_queue_depth 7`,
		`parchisd_sensor_scan_errors_total 1`,
		`parchisd_camera_frames_total 2`,
		`parchisd_camera_reads_total{read="edge"} 1`,
		`parchisd_journal_fsync_seconds_count 1`,
		`parchisd_journal_fsync_seconds_bucket{le="0.005"} 1`,
		`parchis_build_info{goarch=`,
		`go_goroutines `,
		`process_start_time_seconds `,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", text)
	}
}

// TestPackagedConfig_RealTableAndMetricsPort: the configuration the
// package installs passes the daemon's own check, drives the real
// hardware, and serves the metrics on DefaultMetricsAddr, which is not
// node_exporter's 9100 (a Pi often runs it too).
func TestPackagedConfig_RealTableAndMetricsPort(t *testing.T) {
	if strings.HasSuffix(DefaultMetricsAddr, ":9100") {
		t.Fatalf("DefaultMetricsAddr = %s, node_exporter's port", DefaultMetricsAddr)
	}
	cfg, err := config.LoadAndCheckDaemonFile("../../packaging/parchisd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Metrics != DefaultMetricsAddr {
		t.Errorf("metrics: %q, want %q", cfg.Metrics, DefaultMetricsAddr)
	}
	if cfg.Sensors.Backend == "sim" || cfg.Lights.Backend == "sim" || cfg.Camera.Source == "sim" {
		t.Errorf("the packaged configuration simulates: sensors %s, lights %s, camera %s", cfg.Sensors.Backend, cfg.Lights.Backend, cfg.Camera.Source)
	}
	if cfg.Dir != "/var/lib/parchisd" {
		t.Errorf("dir %q, want the unit's StateDirectory /var/lib/parchisd", cfg.Dir)
	}
}
