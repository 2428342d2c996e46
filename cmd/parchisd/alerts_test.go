package main

import (
	"encoding/json"
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

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/internal/testnet"
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
	t.Parallel()
	bin := buildDaemon(t)
	dir := t.TempDir()
	metricsAddr := testnet.Addr(t)
	cfg, broker, dash, marta := judgeConfig(t, dir, "metrics: "+metricsAddr+"\n")
	cmd, _ := startSim(t, bin, "-config", cfg, "-speed", "50")
	path := filepath.Join(dir, table.JournalName)
	// Until the journal holds a few records: a busy machine starts the
	// daemon slowly. The fourth is damaged below, and at least one must
	// follow it for the damage to be in the middle.
	records := func() int {
		data, _ := os.ReadFile(path)
		n := 0
		for off := 0; ; n++ {
			_, m, err := journal.DecodeRecord(data[off:])
			if err != nil {
				return n
			}
			off += m
		}
	}
	for deadline := time.Now().Add(30 * time.Second); records() < 5 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
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
	// The viewer subscribes on every connection: the embedded broker
	// restarts with the daemon.
	var mu sync.Mutex
	var statuses []broadcast.Status
	onStatus := func(_ mqtt.Client, m mqtt.Message) {
		var st broadcast.Status
		if json.Unmarshal(m.Payload(), &st) == nil {
			mu.Lock()
			statuses = append(statuses, st)
			mu.Unlock()
		}
	}
	cli := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("alert-viewer").
		SetOnConnectHandler(func(c mqtt.Client) { c.Subscribe(broadcast.Prefix("local", "1")+broadcast.TopicStatus, 1, onStatus) }))
	if tok := cli.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	defer cli.Disconnect(0)
	// lastStatus is the newest status received.
	lastStatus := func() (broadcast.Status, bool) {
		mu.Lock()
		defer mu.Unlock()
		if len(statuses) == 0 {
			return broadcast.Status{}, false
		}
		return statuses[len(statuses)-1], true
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, ok := lastStatus()
		if ok && len(st.Alerts) == 1 && strings.Contains(st.Alerts[0], "damaged at byte") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no status with the alert: last %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	get := func(url string) string {
		t.Helper()
		until := time.Now().Add(10 * time.Second)
		for {
			resp, err := http.Get(url)
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode == 200 {
					return string(b)
				}
			}
			if time.Now().After(until) {
				t.Fatalf("GET %s: %v", url, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	deadline = time.Now().Add(10 * time.Second)
	for page := ""; !strings.Contains(page, "needs a judge&#39;s check"); page = get("http://" + dash + "/?lang=en") {
		if time.Now().After(deadline) {
			t.Fatalf("the dashboard does not show the alert:\n%.3000s", page)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if m := get("http://" + metricsAddr + "/metrics"); !strings.Contains(m, "parchisd_alerts 1") {
		t.Errorf("metrics without the alert:\n%s", m)
	}
	// Still raised after a restart: a judge has not checked yet.
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, table.CheckName)); err != nil {
		t.Fatalf("the judge's check is not kept across a restart: %v", err)
	}
	cmd, _ = startSim(t, bin, "-config", cfg, "-speed", "50")
	// A judge corrects the position: the check is done.
	j := connectJudge(t, broker, "marta", "s3cret")
	deadline = time.Now().Add(10 * time.Second)
	for j.lastSeq() == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if r := j.command(t, marta, broadcast.Command{ID: "c1", Type: "correct", Judge: "marta", Position: "5:Y,22:B Y throw 0 - Y"}); !r.OK {
		t.Fatalf("correction refused: %+v", r)
	}
	deadline = time.Now().Add(10 * time.Second)
	for !strings.Contains(get("http://"+metricsAddr+"/metrics"), "parchisd_alerts 0") {
		if time.Now().After(deadline) {
			t.Fatal("the alert stays after a judge's correction")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := os.Stat(filepath.Join(dir, table.CheckName)); err == nil {
		t.Error("the judge's check is still recorded after a correction")
	}
	deadline = time.Now().Add(10 * time.Second)
	for {
		st, _ := lastStatus()
		if st.Status == "online" && len(st.Alerts) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the status still carries alerts after a correction: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
