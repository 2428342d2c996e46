package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/internal/testnet"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// feedRecorder keeps every event a subscriber received, by number, and
// every number that arrived twice with a different event.
type feedRecorder struct {
	mu       sync.Mutex
	events   map[uint64][]byte
	changed  []uint64
	received int
	results  chan uint64
	starts   chan uint64
}

func (f *feedRecorder) add(payload []byte) {
	var e referee.Event
	if json.Unmarshal(payload, &e) != nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.received++
	if old, ok := f.events[e.Seq]; ok && !bytes.Equal(old, payload) {
		f.changed = append(f.changed, e.Seq)
	}
	f.events[e.Seq] = append([]byte(nil), payload...)
	ch := map[string]chan uint64{referee.EventResult: f.results, referee.EventStart: f.starts}[e.Type]
	if ch != nil {
		select {
		case ch <- e.Seq:
		default:
		}
	}
}

func (f *feedRecorder) max() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	var m uint64
	for s := range f.events {
		m = max(m, s)
	}
	return m
}

// journalEvents rebuilds every event of a table's journals, the archived
// games' in order and then the current one, as a restart replays them.
func journalEvents(t *testing.T, dir string) []referee.Event {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal"))
	slices.Sort(files)
	files = append(files, filepath.Join(dir, table.JournalName))
	var all []referee.Event
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tmp := t.TempDir()
		if err := os.WriteFile(filepath.Join(tmp, table.JournalName), b, 0o600); err != nil {
			t.Fatal(err)
		}
		tb, err := table.Open(table.Opts{Caps: hw.Caps{Counts: true, Colours: true}, Dir: tmp, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatalf("replaying %s: %v", f, err)
		}
		all = append(all, tb.Replayed()...)
		tb.Close()
	}
	return all
}

// TestRestart_KilledAnywhere_FeedEqualsJournal plays simulated games with
// parchisd sim publishing to a broker that stays up, and stops the daemon
// again and again — with SIGKILL or SIGTERM, at random moments and right
// after a game's end, while the journal is rotated — restarting it on the
// same directory each time. A subscriber that stays connected throughout
// must end with exactly the events the journals hold: numbered 1, 2, 3…
// without a gap, each the same as the journal's replay makes it, and no
// number ever carrying two different events.
func TestRestart_KilledAnywhere_FeedEqualsJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon many times")
	}
	t.Parallel()
	// 8 stops over two games in the test command; the 32 stops over eight
	// games with PARCHIS_TEST_LONG=1 (./test.sh -full).
	stops, ends := 8, 1
	if os.Getenv("PARCHIS_TEST_LONG") == "1" {
		stops, ends = 32, 3
	}
	bin := buildDaemon(t)
	dir := t.TempDir()
	addr := testnet.Addr(t)
	startTableBroker(t, addr)
	rec := &feedRecorder{events: map[uint64][]byte{}, results: make(chan uint64, 1), starts: make(chan uint64, 1)}
	sub := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + addr).SetClientID("recorder").SetCleanSession(false))
	if tok := sub.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscriber: %v", tok.Error())
	}
	defer sub.Disconnect(0)
	if tok := sub.Subscribe(broadcast.Prefix("club", "t1")+broadcast.TopicEvents, 1, func(_ mqtt.Client, m mqtt.Message) { rec.add(m.Payload()) }); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	cfg := filepath.Join(dir, "parchisd.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`event: club
table: t1
dir: %s
mqtt:
  broker: tcp://%s
  username: table
  password: table secret
broker:
  enabled: false
dashboard:
  enabled: false
sim:
  render: false
`, filepath.Join(dir, "table"), addr)), 0o644)

	rng := rand.New(rand.NewPCG(13, 13))
	var kills, terms, atEnd, afterNew, runs int
	stopAt := func(cmd *exec.Cmd, done chan error, sig syscall.Signal) {
		cmd.Process.Signal(sig)
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("the daemon did not stop within 20 s of %v", sig)
		}
	}
	for kills+terms < stops || atEnd < ends || afterNew < ends {
		runs++
		cmd, _, _ := startSimLogged(t, bin, "-config", cfg, "-speed", gameSpeed)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		sig := syscall.SIGKILL
		if runs%3 == 0 {
			sig = syscall.SIGTERM
		}
		// Every eighth run is stopped right after a game's end, while the
		// journal is rotated; every eighth another, soon after the next
		// game began in the same run.
		switch runs % 8 {
		case 0, 4:
			drain(rec.results)
			select {
			case <-rec.results:
			case <-time.After(90 * time.Second):
				// A game takes about 10 to 15 s at this speed on an idle
				// machine (the players count pieces out, pause, take
				// victims home); CI's two cores run other tests too, six
				// games' time is waited for. One that does not end has
				// stalled: its last events say where.
				evs := journalEvents(t, filepath.Join(dir, "table"))
				var last []string
				for _, e := range evs[max(0, len(evs)-4):] {
					b, _ := json.Marshal(e)
					last = append(last, string(b))
				}
				cmd.Process.Kill()
				<-done
				t.Fatalf("no game ended within 90 s (run %d); the journals' last events:\n%s", runs, strings.Join(last, "\n"))
			}
			if runs%8 == 0 {
				time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
				atEnd++
				break
			}
			drain(rec.starts)
			select {
			case <-rec.starts:
			case <-time.After(10 * time.Second):
				t.Fatal("no game began within 10 s of the last one's end")
			}
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
			afterNew++
		default:
			time.Sleep(time.Duration(100+rng.IntN(1400)) * time.Millisecond)
		}
		stopAt(cmd, done, sig)
		if sig == syscall.SIGKILL {
			kills++
		} else {
			terms++
		}
	}
	// A last run in which the players no longer act delivers whatever the
	// queue still holds.
	cmd, _, _ := startSimLogged(t, bin, "-config", cfg, "-speed", gameSpeed, "-pace", "10h")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var want []referee.Event
	deadline := time.Now().Add(30 * time.Second)
	for {
		time.Sleep(300 * time.Millisecond)
		want = journalEvents(t, filepath.Join(dir, "table"))
		if len(want) > 0 && rec.max() >= want[len(want)-1].Seq || time.Now().After(deadline) {
			break
		}
	}
	stopAt(cmd, done, syscall.SIGTERM)
	want = journalEvents(t, filepath.Join(dir, "table"))

	rec.mu.Lock()
	defer rec.mu.Unlock()
	lost, changed := 0, len(rec.changed)
	for i, e := range want {
		if e.Seq != uint64(i+1) {
			t.Fatalf("the journals' event %d is numbered %d", i+1, e.Seq)
		}
		wb, _ := json.Marshal(e)
		got, ok := rec.events[e.Seq]
		switch {
		case !ok:
			lost++
			if lost <= 5 {
				t.Errorf("event %d never reached the feed: %s", e.Seq, wb)
			}
		case !bytes.Equal(got, wb):
			changed++
			if changed <= 5 {
				t.Errorf("event %d differs:\n feed    %s\n journal %s", e.Seq, got, wb)
			}
		}
	}
	if extra := len(rec.events) - len(want); extra > 0 {
		t.Errorf("the feed has %d events the journals do not", extra)
	}
	if len(rec.changed) > 0 {
		t.Errorf("numbers that carried two different events: %v", rec.changed[:min(10, len(rec.changed))])
	}
	games := table.SavedGames(filepath.Join(dir, "table"))
	t.Logf("%d runs: %d SIGKILL, %d SIGTERM, %d right after a game's end, %d soon after the next began; %d games, %d events in the journals, %d received (%d again); %d lost, %d changed",
		runs, kills, terms, atEnd, afterNew, len(games), len(want), len(rec.events), rec.received-len(rec.events), lost, changed)
	if len(games) < atEnd+afterNew {
		t.Errorf("%d games saved, fewer than the %d games seen ending", len(games), atEnd+afterNew)
	}
}

// gameSpeed is the -speed of the tests that stop the daemon or fill its
// disk in the middle of games, the most it takes: a game lasts 10 to 15 s
// on an idle machine (15 to 25 s at -speed 500), and these tests wait
// for games to end.
const gameSpeed = "1000"

// drain empties a channel of signals.
func drain(c chan uint64) {
	for len(c) > 0 {
		<-c
	}
}

// startTableBroker starts an embedded broker on addr, standing for the
// club's: the user "table" (password "table secret") writes the feed of
// table t1 of event club, anyone reads. It stops when the test ends.
func startTableBroker(t *testing.T, addr string) {
	t.Helper()
	hash, err := broadcast.HashPassword("table secret")
	if err != nil {
		t.Fatal(err)
	}
	b, err := broadcast.NewBroker(broadcast.BrokerOpts{TCPAddr: addr, WSAddr: "off", AllowAnonymous: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Users:  []broadcast.User{{Name: "table", Password: hash, Role: broadcast.RoleTable, Event: "club", Table: "t1"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
}
