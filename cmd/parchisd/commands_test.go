package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/referee"
)

// judgeClient is a judge's MQTT connection to a table's command topics.
type judgeClient struct {
	cli     mqtt.Client
	prefix  string
	mu      sync.Mutex
	replies map[string]broadcast.Reply
	events  []referee.Event
	online  bool
	// stateSeq is the number of the last event the table's state includes.
	stateSeq uint64
}

func connectJudge(t *testing.T, broker, user, password string) *judgeClient {
	t.Helper()
	j := &judgeClient{prefix: broadcast.Prefix("local", "1"), replies: map[string]broadcast.Reply{}}
	o := mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID("judge-" + user).SetUsername(user).SetPassword(password)
	j.cli = mqtt.NewClient(o)
	if tok := j.cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("judge cannot connect: %v", tok.Error())
	}
	t.Cleanup(func() { j.cli.Disconnect(100) })
	tok := j.cli.Subscribe(j.prefix+"#", 1, func(_ mqtt.Client, m mqtt.Message) {
		j.mu.Lock()
		defer j.mu.Unlock()
		switch strings.TrimPrefix(m.Topic(), j.prefix) {
		case broadcast.TopicReply:
			var r broadcast.Reply
			if json.Unmarshal(m.Payload(), &r) == nil {
				j.replies[r.ID] = r
			}
		case broadcast.TopicEvents:
			var e referee.Event
			if json.Unmarshal(m.Payload(), &e) == nil {
				j.events = append(j.events, e)
			}
		case broadcast.TopicStatus:
			var st broadcast.Status
			j.online = json.Unmarshal(m.Payload(), &st) == nil && st.Status == "online"
		case broadcast.TopicState:
			var st broadcast.State
			if json.Unmarshal(m.Payload(), &st) == nil {
				j.stateSeq = st.Seq
			}
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	// Commands reach the table only once it is connected and listening.
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		j.mu.Lock()
		online := j.online
		j.mu.Unlock()
		if online {
			return j
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the table is not online on the feed")
	return nil
}

// send publishes a command (raw JSON) and waits for the table's reply.
func (j *judgeClient) send(t *testing.T, typ, id, payload string) broadcast.Reply {
	t.Helper()
	j.cli.Publish(j.prefix+broadcast.TopicCmd+typ, 1, false, payload).WaitTimeout(5 * time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		j.mu.Lock()
		r, ok := j.replies[id]
		j.mu.Unlock()
		if ok {
			return r
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no reply to %s %s", typ, id)
	return broadcast.Reply{}
}

// command signs c with key as seen at the newest event the judge has,
// sends it and waits for the reply. The simulated players keep playing: a
// command refused because the game moved on is sent again, as a judge
// would after looking again.
func (j *judgeClient) command(t *testing.T, key ed25519.PrivateKey, c broadcast.Command) broadcast.Reply {
	t.Helper()
	id := c.ID
	for try := 0; ; try++ {
		c.AtSeq = j.lastSeq()
		c.ID = fmt.Sprintf("%s.%d", id, try)
		c.Sign("local", "1", key)
		b, _ := json.Marshal(c)
		r := j.send(t, c.Type, c.ID, string(b))
		if !strings.Contains(r.Error, "look at the table again") || try == 20 {
			return r
		}
	}
}

// lastSeq is the number of the newest event the judge has seen, or that
// the table's state includes (a judge who connected after it).
func (j *judgeClient) lastSeq() uint64 {
	j.mu.Lock()
	defer j.mu.Unlock()
	if n := len(j.events); n > 0 {
		return max(j.events[n-1].Seq, j.stateSeq)
	}
	return j.stateSeq
}

func (j *judgeClient) event(seq uint64) (referee.Event, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, e := range j.events {
		if e.Seq == seq {
			return e, true
		}
	}
	return referee.Event{}, false
}

// TestSim_JudgeCommands sends a judge's commands to a running parchisd
// sim: a correction and a new game are carried out and answered with the
// number of the event they made; malformed commands, and commands from a
// judge the table does not know, are answered with an error and change
// nothing.
func TestSim_JudgeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	bin := buildDaemon(t)
	dir := t.TempDir()
	_, pedro, _ := ed25519.GenerateKey(rand.Reader)
	cfg, broker, _, marta := judgeConfig(t, dir, "")
	cmd, log, _ := startSimLogged(t, bin, "-config", cfg, "-speed", "5")
	defer func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() }()
	j := connectJudge(t, broker, "marta", "s3cret")

	players := map[string]string{"Y": "Ana", "B": "Bea", "R": "Carla", "G": "Dani"}
	cases := []struct {
		typ, id, payload string
		// cmd, when set, is signed with key as of the newest event seen
		// instead of sending payload.
		cmd            *broadcast.Command
		key            ed25519.PrivateKey
		ok             bool
		errWant, event string
	}{
		{"correct", "c1", "", &broadcast.Command{ID: "c1", Type: "correct", Judge: "marta", Position: "5:Y,22:B Y throw 0 - Y"}, marta, true, "", referee.EventCorrection},
		{"correct", "c2", `{"id":"c2","type":"correct","judge":"marta","position":"5:Y Q throw 0 - Y"}`, nil, nil, false, "field 2", ""},
		{"correct", "c3", "", &broadcast.Command{ID: "c3", Type: "correct", Judge: "pedro", Position: "- Y throw 0 - Y"}, pedro, false, "unauthorised", ""},
		{"correct", "c4", `{"id":"c4","type":"correct","judge":"marta","position":"- Y throw 0 - Y"}`, nil, nil, false, "not signed", ""},
		{"correct", "c5", "", &broadcast.Command{ID: "c5", Type: "correct", Judge: "marta", Position: "- Y throw 0 - Y"}, pedro, false, "not among the trusted", ""},
		{"new-game", "n1", "", &broadcast.Command{ID: "n1", Type: "new-game", Judge: "marta", Starter: "R", Players: players, Round: "2"}, marta, true, "", referee.EventStart},
		{"new-game", "n3", "", &broadcast.Command{ID: "n3", Type: "new-game", Judge: "marta", Starter: "R", Players: players, Round: "2\n[Event \"x\"]"}, marta, false, "round", ""},
		{"new-game", "n2", `{"id":"n2","type":"new-game","judge":"marta","starter":"X","players":{"Y":"Ana"}}`, nil, nil, false, "starter", ""},
		{"certify", "k1", `{"id":"k1","type":"certify","judge":"marta"}`, nil, nil, false, "certification", ""},
		{"certify", "", `{"id":"k2","type":"certify"`, nil, nil, false, "", ""},
	}
	// A command signed as of an event long gone is refused: the game
	// moved on since the judge looked (and it cannot be replayed).
	waitEvents := time.Now().Add(10 * time.Second)
	for j.lastSeq() < 3 && time.Now().Before(waitEvents) {
		time.Sleep(10 * time.Millisecond)
	}
	stale := broadcast.Command{ID: "s1", Type: "correct", Judge: "marta", Position: "- Y throw 0 - Y", AtSeq: 1}
	stale.Sign("local", "1", marta)
	b, _ := json.Marshal(stale)
	if r := j.send(t, "correct", "s1", string(b)); r.OK || !strings.Contains(r.Error, "look at the table again") {
		t.Errorf("stale command: reply %+v, want refused as the game moved on", r)
	}
	for _, tc := range cases {
		var r broadcast.Reply
		if tc.cmd != nil {
			r = j.command(t, tc.key, *tc.cmd)
		} else {
			r = j.send(t, tc.typ, tc.id, tc.payload)
		}
		if r.OK != tc.ok || (tc.errWant != "" && !strings.Contains(r.Error, tc.errWant)) || (!tc.ok && r.Error == "") {
			t.Errorf("%s: reply %+v, want ok %v and an error with %q", tc.id, r, tc.ok, tc.errWant)
			continue
		}
		if tc.event == "" {
			if r.Seq != 0 {
				t.Errorf("%s: a refused command made event %d", tc.id, r.Seq)
			}
			continue
		}
		deadline := time.Now().Add(5 * time.Second)
		var e referee.Event
		for ok := false; !ok && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			e, ok = j.event(r.Seq)
		}
		// The command's event, or the one before it when the board
		// check followed it.
		if e.Type != tc.event {
			found := false
			for s := r.Seq; s > 0 && s+3 > r.Seq; s-- {
				if e2, ok := j.event(s); ok && e2.Type == tc.event {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: reply seq %d is event %+v, want a %s", tc.id, r.Seq, e, tc.event)
			}
		}
	}
	if !strings.Contains(log.String(), "command refused") {
		t.Errorf("refused commands are not logged:\n%s", log.String())
	}
}

// parchisd run on a configuration whose hardware is simulated starts,
// says it is ready, and stops cleanly; a configuration naming hardware
// this machine lacks fails with an error that names it.
func TestRun_StartsAndStops_OrNamesMissingHardware(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	bin := buildDaemon(t)
	dir := t.TempDir()
	frames := filepath.Join(dir, "frames")
	os.MkdirAll(frames, 0o755)
	cfg, _, _ := simConfig(t, dir, "", "sensors:\n  backend: sim\nlights:\n  backend: sim\ncamera:\n  source: files\n  dir: "+frames)
	cmd := exec.Command(bin, "run", "-config", cfg)
	log := &logBuf{}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			log.add(sc.Text())
		}
		done <- cmd.Wait()
	}()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(log.String(), "table ready") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "table ready") {
		cmd.Process.Kill()
		t.Fatalf("parchisd run not ready:\n%s", log.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := <-done; err != nil {
		t.Errorf("parchisd run stopped with %v:\n%s", err, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "table.key")); err != nil {
		t.Errorf("no table key made: %v", err)
	}

	bad := []struct {
		extra, want string
		exit        int
	}{
		{"sensors:\n  backend: direct\n  i2c_bus: \"7\"", `I2C bus "7"`, exitFail},
		{"sensors:\n  backend: sim\nlights:\n  backend: spi\n  spi_port: /dev/spidev9.9", `SPI port "/dev/spidev9.9"`, exitFail},
		// A folder the configuration names is checked with it.
		{"sensors:\n  backend: sim\nlights:\n  backend: sim\ncamera:\n  source: files\n  dir: " + filepath.Join(dir, "none"), "camera.dir", exitUsage},
	}
	for _, tc := range bad {
		cfg, _, _ := simConfig(t, t.TempDir(), "", tc.extra)
		out, err := exec.Command(bin, "run", "-config", cfg).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.exit || !strings.Contains(string(out), tc.want) {
			t.Errorf("%q: %v\n%s\nwant exit %d naming %q", tc.extra, err, out, tc.exit, tc.want)
		}
	}
	out, err := exec.Command(bin, "run", "-config", filepath.Join(dir, "missing.yaml")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "missing.yaml") {
		t.Errorf("missing configuration: %v\n%s", err, out)
	}
}
