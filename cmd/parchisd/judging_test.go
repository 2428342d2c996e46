package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/referee"
)

// runningDaemon is a daemon started in the test's process, with its
// embedded broker, handling the judges' commands and the test's inputs on
// one goroutine as parchisd's loops do.
type runningDaemon struct {
	d    *daemon
	do   chan func()
	stop func()
}

func startDaemon(t *testing.T, cfgPath string) *runningDaemon {
	t.Helper()
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dashboard.Enabled, cfg.WinChance.Playouts = false, 0
	ctx, cancel := context.WithCancel(context.Background())
	d, err := start(ctx, cfg, slog.New(slog.DiscardHandler), board.Caps{Counts: true, Colours: true}, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	r := &runningDaemon{d: d, do: make(chan func())}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case req := <-d.commands():
				d.command(req, time.Now())
			case f := <-r.do:
				f()
			}
		}
	}()
	var once sync.Once
	r.stop = func() {
		once.Do(func() {
			cancel()
			<-done
			d.wait()
		})
	}
	t.Cleanup(r.stop)
	return r
}

// playToTheEnd plays a game's last moves at the table (a position set up
// near its end, as the referee's tests do).
func (r *runningDaemon) playToTheEnd(t *testing.T) {
	t.Helper()
	errc := make(chan error)
	r.do <- func() {
		f, err := os.Open("../../referee/testdata/scripts/end.script")
		if err == nil {
			defer f.Close()
			err = r.d.table.RunScript(f, func(referee.Event) error { return nil })
		}
		errc <- err
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// resultsOnFeed returns the results a dashboard connecting now is given
// retained, by record hash.
func resultsOnFeed(t *testing.T, broker string) map[string]*broadcast.Result {
	t.Helper()
	prefix := broadcast.Prefix("local", "1") + broadcast.TopicResults
	var mu sync.Mutex
	got := map[string]*broadcast.Result{}
	cli := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID(fmt.Sprintf("late-%d", time.Now().UnixNano())))
	if tok := cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("viewer cannot connect: %v", tok.Error())
	}
	defer cli.Disconnect(0)
	tok := cli.Subscribe(prefix+"+", 1, func(_ mqtt.Client, m mqtt.Message) {
		var r broadcast.Result
		if err := json.Unmarshal(m.Payload(), &r); err != nil || !m.Retained() {
			return
		}
		mu.Lock()
		got[strings.TrimPrefix(m.Topic(), prefix)] = &r
		mu.Unlock()
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	return got
}

// wantOnFeed waits until the feed holds exactly the results named, by
// hash, each with its verdict ("" waiting), and returns them.
func wantOnFeed(t *testing.T, broker, what string, want map[string]string) map[string]*broadcast.Result {
	t.Helper()
	var got map[string]*broadcast.Result
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		got = resultsOnFeed(t, broker)
		ok := len(got) == len(want)
		for h, v := range want {
			r := got[h]
			if r == nil || r.RecordSHA256 != h || r.Verify() != nil || (r.Certification == nil) != (v == "") || r.Certification != nil && r.Certification.Verdict != v {
				ok = false
			}
		}
		if ok {
			return got
		}
	}
	var have []string
	for h, r := range got {
		v := "waiting"
		if r.Certification != nil {
			v = r.Certification.Verdict
		}
		have = append(have, short(h)+" "+v)
	}
	t.Fatalf("%s: the feed has results %v, want %d (%v)", what, have, len(want), want)
	return nil
}

// Two games finish at a table; the first is certified only after the
// second has finished and a third begun, and over two restarts of the
// daemon:
// each result waits on its own retained topic, each verdict reaches the
// result it names, and bad verdicts (an unknown result, a second verdict,
// one naming another result than it was signed for) are answered with an
// error. The round the judges named survives the restart into the record.
func TestJudging_TwoResultsQueued_VerdictsReachTheirOwn_AcrossRestarts(t *testing.T) {
	dir := t.TempDir()
	cfg, broker, _, marta := judgeConfig(t, dir, "")
	players := map[string]string{"Y": "Ana", "B": "Bea", "R": "Rui", "G": "Gil"}
	newGame := func(j *judgeClient, id, round string) {
		t.Helper()
		r := j.command(t, marta, broadcast.Command{ID: id, Type: broadcast.CmdNewGame, Judge: "marta", Players: players, Starter: "Y", Round: round})
		if !r.OK {
			t.Fatalf("new game %s: %+v", round, r)
		}
	}
	verdict := func(on *broadcast.Result, v, named string) broadcast.Command {
		typ, reason := broadcast.CmdCertify, ""
		if v == broadcast.VerdictRejected {
			typ, reason = broadcast.CmdReject, "se movió una ficha sin tirar"
		}
		c := on.Certify(marta, broadcast.Certification{Verdict: v, Judge: "marta", Reason: reason, Time: time.Now().UTC()})
		return broadcast.Command{ID: "v", Type: typ, Judge: "marta", Certification: &c, RecordSHA256: named}
	}

	tbl := startDaemon(t, cfg)
	j := connectJudge(t, broker, "marta", "s3cret")
	newGame(j, "g1", "Ronda 1")
	tbl.playToTheEnd(t)
	first := tbl.d.result
	if first == nil || !strings.Contains(first.Record, `[Round "Ronda 1"]`) {
		t.Fatalf("the first game's result: %+v", first)
	}
	h1 := first.RecordSHA256
	wantOnFeed(t, broker, "after the first game", map[string]string{h1: ""})
	newGame(j, "g2", "Ronda 2")
	wantOnFeed(t, broker, "the second game begun", map[string]string{h1: ""})

	// A restart in the middle of the second game.
	j.cli.Disconnect(0)
	tbl.stop()
	tbl = startDaemon(t, cfg)
	j = connectJudge(t, broker, "marta", "s3cret")
	wantOnFeed(t, broker, "restarted in the second game", map[string]string{h1: ""})
	tbl.playToTheEnd(t)
	second := tbl.d.result
	if second == nil || second.RecordSHA256 == h1 {
		t.Fatalf("the second game's result: %+v", second)
	}
	if !strings.Contains(second.Record, `[Round "Ronda 2"]`) {
		t.Errorf("the round was lost in the restart: the second record's header is\n%s", second.Record[:strings.Index(second.Record, "\n\n")])
	}
	h2 := second.RecordSHA256
	got := wantOnFeed(t, broker, "after the second game", map[string]string{h1: "", h2: ""})
	older := got[h1]
	// The verdicts come while a third game is played.
	newGame(j, "g3", "Ronda 3")
	wantOnFeed(t, broker, "the third game begun", map[string]string{h1: "", h2: ""})

	unknown := strings.Repeat("0f", 32)
	for _, tc := range []struct {
		name string
		cmd  broadcast.Command
		want string // in the reply's error; "" for done
	}{
		{"the older result certified", verdict(older, broadcast.VerdictCertified, h1), ""},
		{"a second verdict on it", verdict(older, broadcast.VerdictRejected, h1), "is already certified by marta"},
		{"a verdict naming an unknown result", verdict(older, broadcast.VerdictCertified, unknown), "no result " + unknown},
		{"a verdict on one result naming the other", verdict(older, broadcast.VerdictRejected, h2), "does not verify"},
		{"a verdict naming no result", verdict(older, broadcast.VerdictCertified, ""), "missing record_sha256"},
	} {
		tc.cmd.ID = strings.ReplaceAll(tc.name, " ", "-")
		r := j.command(t, marta, tc.cmd)
		if tc.want == "" && !r.OK || tc.want != "" && (r.OK || !strings.Contains(r.Error, tc.want)) {
			t.Errorf("%s: reply %+v, want %q", tc.name, r, tc.want)
		}
	}
	wantOnFeed(t, broker, "the older certified", map[string]string{h1: broadcast.VerdictCertified, h2: ""})
	if _, err := os.Stat(filepath.Join(dir, "games", "result-"+short(h1)+".json")); err != nil {
		t.Errorf("the older verdict is not kept beside the games: %v", err)
	}
	if r := j.command(t, marta, verdict(second, broadcast.VerdictRejected, h2)); !r.OK {
		t.Fatalf("the newer rejected: %+v", r)
	}
	wantOnFeed(t, broker, "both decided", map[string]string{h1: broadcast.VerdictCertified, h2: broadcast.VerdictRejected})

	// Decided results stay on the feed over a restart, until the next game.
	j.cli.Disconnect(0)
	tbl.stop()
	tbl = startDaemon(t, cfg)
	j = connectJudge(t, broker, "marta", "s3cret")
	wantOnFeed(t, broker, "restarted after the verdicts", map[string]string{h1: broadcast.VerdictCertified, h2: broadcast.VerdictRejected})
	if r := j.command(t, marta, verdict(older, broadcast.VerdictRejected, h1)); r.OK || !strings.Contains(r.Error, "already certified") {
		t.Errorf("a second verdict after the restart: %+v", r)
	}
	newGame(j, "g4", "Ronda 4")
	wantOnFeed(t, broker, "the next game begun", map[string]string{})
}
