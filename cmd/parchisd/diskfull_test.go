package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/internal/testdisk"
	"github.com/parchis-table/parchis/internal/testnet"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// fill takes every free byte of the file system at dir, and returns a
// function that gives them back.
func fill(t *testing.T, dir string) func() {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling: %v", err)
			}
			break
		}
	}
	f.Close()
	return func() { os.Remove(path) }
}

// TestDiskFull_MidGameAndAtAGamesEnd_NothingLost fills the disk of a
// running parchisd sim in the middle of a game and keeps it full across a
// game's end. The table must go degraded — its status says so, its
// metrics count it — and play on in memory; once the space is back,
// every event the journals hold reaches the feed, numbered without a gap,
// each game that ended has its result saved, and the result offered
// after a restart is the newest game's.
func TestDiskFull_MidGameAndAtAGamesEnd_NothingLost(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon for half a minute")
	}
	t.Parallel()
	disk, ok := testdisk.Mount(t, 8<<20)
	if !ok {
		return
	}
	bin := buildDaemon(t)
	dir := filepath.Join(disk, "table")
	addr := testnet.Addr(t)
	metricsAddr := testnet.Addr(t)
	startTableBroker(t, addr)
	rec := &feedRecorder{events: map[uint64][]byte{}, results: make(chan uint64, 16), starts: make(chan uint64, 1)}
	var mu sync.Mutex
	var alerts [][]string
	var lastResult broadcast.Result
	sub := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("recorder"))
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer sub.Disconnect(0)
	prefix := broadcast.Prefix("club", "t1")
	sub.Subscribe(prefix+"#", 1, func(_ mqtt.Client, m mqtt.Message) {
		switch strings.TrimPrefix(m.Topic(), prefix) {
		case broadcast.TopicEvents:
			rec.add(m.Payload())
		case broadcast.TopicStatus:
			var s broadcast.Status
			if json.Unmarshal(m.Payload(), &s) == nil {
				mu.Lock()
				alerts = append(alerts, s.Alerts)
				mu.Unlock()
			}
		case broadcast.TopicResult:
			mu.Lock()
			lastResult = broadcast.Result{}
			json.Unmarshal(m.Payload(), &lastResult)
			mu.Unlock()
		}
	}).WaitTimeout(5 * time.Second)
	cfg := filepath.Join(t.TempDir(), "parchisd.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("event: club\ntable: t1\ndir: %s\nmqtt:\n  broker: tcp://%s\n  username: table\n  password: table secret\nbroker:\n  enabled: false\ndashboard:\n  enabled: false\nmetrics: %s\nsim:\n  render: false\n",
		dir, addr, metricsAddr)), 0o644)
	degradedSeen := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range alerts {
			if len(a) > 0 && strings.Contains(strings.Join(a, " "), "cannot be written") {
				return true
			}
		}
		return false
	}
	lastAlerts := func() []string {
		mu.Lock()
		defer mu.Unlock()
		if len(alerts) == 0 {
			return nil
		}
		return alerts[len(alerts)-1]
	}

	cmd, log, _ := startSimLogged(t, bin, "-config", cfg, "-speed", gameSpeed)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	time.Sleep(1500 * time.Millisecond)
	free := fill(t, disk)
	faultStart := rec.max()
	deadline := time.Now().Add(20 * time.Second)
	for !degradedSeen() && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if !degradedSeen() {
		free()
		t.Fatalf("the table never said the disk was full; log:\n%s", log.notable())
	}
	metricsDuring := httpGet(t, "http://"+metricsAddr+"/metrics")
	// Full across a game's end, and the next game's start: the feed holds
	// back what the journal cannot write, the metrics count what happened
	// (a game lasts 10 to 15 s at this speed; the next begins 6 ms after
	// its end).
	games := func() string {
		for line := range strings.Lines(httpGet(t, "http://"+metricsAddr+"/metrics")) {
			if strings.HasPrefix(line, "parchisd_games_total ") {
				return line
			}
		}
		return ""
	}
	before := games()
	for deadline := time.Now().Add(90 * time.Second); games() == before; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("no game ended within 90 s of the disk filling up (%q)", before)
			break
		}
	}
	time.Sleep(time.Second)
	during := rec.max()
	free()
	deadline = time.Now().Add(20 * time.Second)
	for len(lastAlerts()) > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if a := lastAlerts(); len(a) > 0 {
		t.Errorf("still degraded 20 s after the space came back: %q", a)
	}
	time.Sleep(500 * time.Millisecond)
	recovered := rec.max()
	if !strings.Contains(log.String(), "journal cannot be written") {
		t.Errorf("the journal never went degraded; log:\n%s", log.notable())
	}
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	<-done

	// A last run in which nobody plays delivers what is left, and offers
	// the last result.
	cmd, _, _ = startSimLogged(t, bin, "-config", cfg, "-speed", gameSpeed, "-pace", "10h")
	done = make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var want []referee.Event
	deadline = time.Now().Add(30 * time.Second)
	for {
		time.Sleep(300 * time.Millisecond)
		want = journalEvents(t, dir)
		if len(want) > 0 && rec.max() >= want[len(want)-1].Seq || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	<-done
	want = journalEvents(t, dir)

	if !strings.Contains(metricsDuring, "parchisd_alerts 1") && !strings.Contains(metricsDuring, "parchisd_alerts 2") {
		t.Errorf("metrics during the fault:\n%s", metricsDuring)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	lost, changed := 0, len(rec.changed)
	var results []uint64
	for i, e := range want {
		if e.Seq != uint64(i+1) {
			t.Fatalf("the journals' event %d is numbered %d", i+1, e.Seq)
		}
		if e.Type == referee.EventResult {
			results = append(results, e.Seq)
		}
		wb, _ := json.Marshal(e)
		got, ok := rec.events[e.Seq]
		switch {
		case !ok:
			if lost++; lost <= 5 {
				t.Errorf("event %d never reached the feed", e.Seq)
			}
		case !bytes.Equal(got, wb):
			if changed++; changed <= 5 {
				t.Errorf("event %d differs:\n feed    %s\n journal %s", e.Seq, got, wb)
			}
		}
	}
	endsInFault := 0
	for _, s := range results {
		if s > faultStart && s <= recovered {
			endsInFault++
		}
		if _, err := os.Stat(table.SavedGames(dir)[s] + ".json"); err != nil {
			t.Errorf("the game ended by event %d has no saved result: %v", s, err)
		}
	}
	if endsInFault == 0 {
		t.Errorf("no game ended while the disk was full (fault from event %d; results %v)", faultStart, results)
	}
	mu.Lock()
	offered := lastResult
	mu.Unlock()
	if offered.Result != "" && len(results) > 0 {
		var sg struct {
			RecordSHA string `json:"record"`
		}
		b, _ := os.ReadFile(table.SavedGames(dir)[results[len(results)-1]] + ".json")
		json.Unmarshal(b, &sg)
		if certify.RecordHash([]byte(sg.RecordSHA)) != offered.RecordSHA256 {
			t.Errorf("the result offered is not the newest game's (event %d)", results[len(results)-1])
		}
	}
	t.Logf("disk full after event %d (%d events reached the feed while full, %d in the burst once freed); %d games ended (%d while full); %d events in the journals, %d on the feed; %d lost, %d changed",
		faultStart, during-faultStart, recovered-during, len(results), endsInFault, len(want), len(rec.events), lost, changed)
}

// httpGet returns the body at url.
func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
