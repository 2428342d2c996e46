package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/table"
)

// frameRecorder keeps the last frame shown.
type frameRecorder struct{ last board.Frame }

func (f *frameRecorder) Show(fr *board.Frame) error { f.last = *fr; return nil }

// While a judge must check the game the tray blinks white, whatever the
// referee shows; once checked, the referee's lights are back.
func TestLights_JudgeCheck_TrayBlinksWhite(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, table.CheckName), []byte("journal damaged\n"), 0o640)
	tb, err := table.Open(table.Opts{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	lights := &frameRecorder{}
	d := &daemon{table: tb, lights: lights, metrics: newMetrics()}
	d.showAlerts()
	for i, l := range lights.last.Tray {
		if l.Pattern != board.Blink || l.Colour != colourCheck {
			t.Fatalf("tray light %d shows %+v while a judge must check the game", i, l)
		}
	}
	if err := d.table.ClearCheck(); err != nil {
		t.Fatal(err)
	}
	d.showAlerts()
	if lights.last.Tray != tb.Referee().Lights().Tray {
		t.Errorf("once checked the tray shows %+v, not the referee's %+v", lights.last.Tray, tb.Referee().Lights().Tray)
	}
}

// A journal damaged in the middle is raised to the judges: the table's
// status carries the alert, the dashboard shows it and the metrics count
// it.
func TestSim_DamagedJournal_RaisedToJudges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon twice")
	}
	bin := buildDaemon(t)
	dir := t.TempDir()
	metricsAddr := freeAddr(t)
	cfg, broker, dash := simConfig(t, dir, "", "metrics: "+metricsAddr)
	cmd, _ := startSim(t, bin, "-config", cfg, "-speed", "50")
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	path := filepath.Join(dir, table.JournalName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	off := 0
	for range 3 {
		_, n, err := journal.DecodeRecord(data[off:])
		if err != nil {
			t.Fatalf("journal too short: %v", err)
		}
		off += n
	}
	data[off+9] ^= 0x20
	os.WriteFile(path, data, 0o600)

	cmd, _ = startSim(t, bin, "-config", cfg, "-speed", "50")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	status := make(chan broadcast.Status, 4)
	cli := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("alert-viewer"))
	if tok := cli.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer cli.Disconnect(0)
	cli.Subscribe(broadcast.Prefix("local", "1")+broadcast.TopicStatus, 1, func(_ mqtt.Client, m mqtt.Message) {
		var s broadcast.Status
		if json.Unmarshal(m.Payload(), &s) == nil {
			status <- s
		}
	}).WaitTimeout(5 * time.Second)
	select {
	case s := <-status:
		if len(s.Alerts) != 1 || !strings.Contains(s.Alerts[0], "damaged at byte") {
			t.Errorf("status alerts %q", s.Alerts)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no status")
	}
	get := func(url string) string {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp, err := http.Get(url)
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 {
					return string(b)
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s: %v", url, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for page := ""; !strings.Contains(page, "needs a judge&#39;s check"); page = get("http://" + dash + "/?lang=en") {
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard does not show the alert:\n%.3000s", page)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if m := get("http://" + metricsAddr + "/metrics"); !strings.Contains(m, "parchisd_alerts 1") {
		t.Errorf("metrics without the alert:\n%s", m)
	}
}
