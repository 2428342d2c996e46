package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// A judge's verdict names its result by the record's hash among those
// waiting; it is checked against the table's judges, kept beside the
// saved games and in the judging file, and final. A verdict naming a
// result the table does not have, or one already decided, is refused with
// an error saying so.
func TestCertify_VerdictCheckedSavedAndFinal(t *testing.T) {
	_, tableKey, _ := ed25519.GenerateKey(rand.Reader)
	_, judgeKey, _ := ed25519.GenerateKey(rand.Reader)
	_, strangerKey, _ := ed25519.GenerateKey(rand.Reader)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "games"), 0o750)
	newResult := func(winner, record string) *broadcast.Result {
		r := &broadcast.Result{Event: "local", Table: "1", Result: winner, Position: "YG:YYYY,RG:RRRR Y end 0 - Y",
			Record: record, Time: time.Unix(1764412345, 0).UTC()}
		r.Sign(tableKey)
		return r
	}
	older, newer := newResult("YR", "[Event \"local\"]\n[Round \"1\"]\n"), newResult("BG", "[Event \"local\"]\n[Round \"2\"]\n")
	d := &daemon{cfg: &config.Daemon{Dir: dir}, log: slog.New(slog.DiscardHandler), key: tableKey,
		judges: broadcast.Judges{"marta": certify.PublicKeyString(judgeKey)}}
	d.judging.Results = []*broadcast.Result{older, newer}
	d.result = newer
	verdict := func(on *broadcast.Result, key ed25519.PrivateKey, v, named string) broadcast.Command {
		typ, reason := broadcast.CmdCertify, ""
		if v == broadcast.VerdictRejected {
			typ, reason = broadcast.CmdReject, "second thoughts"
		}
		c := on.Certify(key, broadcast.Certification{Verdict: v, Judge: "marta", Reason: reason, Time: on.Time.Add(time.Minute)})
		return broadcast.Command{ID: "x", Type: typ, Judge: "marta", Certification: &c, RecordSHA256: named}
	}
	unknown := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name string
		cmd  broadcast.Command
		want string // in the error; "" for done
	}{
		{"signed with another key", verdict(older, strangerKey, broadcast.VerdictCertified, older.RecordSHA256), "not among the trusted"},
		{"naming an unknown result", verdict(older, judgeKey, broadcast.VerdictCertified, unknown), "no result abababababababab at this table: waiting are " + older.RecordSHA256[:16] + ", " + newer.RecordSHA256[:16]},
		{"naming the other result", verdict(older, judgeKey, broadcast.VerdictCertified, newer.RecordSHA256), "does not verify"},
		{"the older one, while a newer waits", verdict(older, judgeKey, broadcast.VerdictCertified, older.RecordSHA256), ""},
		{"a second verdict on the older one", verdict(older, judgeKey, broadcast.VerdictRejected, older.RecordSHA256), "the result " + older.RecordSHA256[:16] + " is already certified by marta"},
		{"the newer one rejected", verdict(newer, judgeKey, broadcast.VerdictRejected, newer.RecordSHA256), ""},
		{"the newer one again", verdict(newer, judgeKey, broadcast.VerdictCertified, newer.RecordSHA256), "already rejected by marta"},
	} {
		err := d.certify(tc.cmd)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if c := older.Certification; c == nil || c.Verdict != broadcast.VerdictCertified {
		t.Errorf("the older result's verdict: %+v", c)
	}
	if c := d.result.Certification; c == nil || c.Verdict != broadcast.VerdictRejected || d.result != newer {
		t.Errorf("the last game's verdict: %+v", c)
	}
	saved, _ := filepath.Glob(filepath.Join(dir, "games", "result-*.json"))
	if len(saved) != 2 {
		t.Fatalf("saved verdicts: %v", saved)
	}
	// The judging file has both verdicts, as a restart reads it back.
	d2 := &daemon{cfg: d.cfg, log: d.log, key: tableKey, judges: d.judges}
	d2.loadJudging()
	if len(d2.judging.Results) != 2 || d2.waitingCount() != 0 || d2.judging.Results[0].RecordSHA256 != older.RecordSHA256 {
		t.Errorf("read back: %d results, %d waiting", len(d2.judging.Results), d2.waitingCount())
	}
	// A verdict that cannot be kept on disk is not given.
	waiting := newResult("YR", "[Event \"local\"]\n[Round \"3\"]\n")
	d3 := &daemon{cfg: &config.Daemon{Dir: filepath.Join(dir, "missing")}, log: d.log, judges: d.judges}
	d3.judging.Results = []*broadcast.Result{waiting}
	if err := d3.certify(verdict(waiting, judgeKey, broadcast.VerdictCertified, waiting.RecordSHA256)); err == nil || waiting.Certification != nil {
		t.Errorf("a verdict that could not be saved: %v, %+v", err, waiting.Certification)
	}
	d3.judging.Results = nil
	if err := d3.certify(verdict(waiting, judgeKey, broadcast.VerdictCertified, waiting.RecordSHA256)); err == nil || !strings.Contains(err.Error(), "no result is waiting") {
		t.Errorf("a verdict with no result waiting: %v", err)
	}
}

// A game that ended before a restart is read back with its result, and
// the verdict a judge gave it before the restart is kept.
func TestRestart_FinishedGameAndVerdictKept(t *testing.T) {
	_, tableKey, _ := ed25519.GenerateKey(rand.Reader)
	_, judgeKey, _ := ed25519.GenerateKey(rand.Reader)
	dir := t.TempDir()
	judges := broadcast.Judges{"marta": certify.PublicKeyString(judgeKey)}
	newDaemon := func() *daemon {
		d := &daemon{cfg: &config.Daemon{Dir: dir}, log: slog.New(slog.DiscardHandler), key: tableKey, judges: judges}
		d.loadJudging()
		var err error
		d.table, err = table.Open(table.Opts{Caps: hw.Caps{Counts: true, Colours: true}, Dir: dir, OnGameEnd: d.gameEnd})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.table.Close() })
		if end, ok, err := d.table.Finished(); err != nil {
			t.Fatal(err)
		} else if ok {
			d.gameEnd(end)
		}
		return d
	}
	d := newDaemon()
	f, err := os.Open("../../referee/testdata/scripts/end.script")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := d.table.RunScript(f, func(referee.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if d.result == nil || d.result.Result != "YR" {
		t.Fatalf("no result after the game: %+v", d.result)
	}
	c := d.result.Certify(judgeKey, broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: "marta", Time: d.result.Time})
	if err := d.certify(broadcast.Command{Type: broadcast.CmdCertify, Judge: "marta", Certification: &c, RecordSHA256: d.result.RecordSHA256}); err != nil {
		t.Fatal(err)
	}
	first := *d.result
	d.table.Close()

	d2 := newDaemon()
	if d2.result == nil {
		t.Fatal("the finished game's result is gone after a restart")
	}
	if d2.result.RecordSHA256 != first.RecordSHA256 || d2.result.TableSignature != first.TableSignature {
		t.Errorf("result after restart %s (signature %s), want %s (%s)", d2.result.RecordSHA256, d2.result.TableSignature, first.RecordSHA256, first.TableSignature)
	}
	if d2.result.Certification == nil || d2.result.Certification.Signature != c.Signature {
		t.Fatalf("the verdict is gone after a restart: %+v", d2.result.Certification)
	}
	if err := d2.result.Verify(); err != nil {
		t.Error(err)
	}
}

// The results a table shows are bounded: past maxResults, the oldest
// decided one leaves first, then the oldest waiting; the file keeps what
// is shown, in order.
func TestKeepResult_BoundedOldestDecidedFirst(t *testing.T) {
	_, tableKey, _ := ed25519.GenerateKey(rand.Reader)
	_, judgeKey, _ := ed25519.GenerateKey(rand.Reader)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "games"), 0o750)
	d := &daemon{cfg: &config.Daemon{Dir: dir}, log: slog.New(slog.DiscardHandler), key: tableKey,
		judges: broadcast.Judges{"marta": certify.PublicKeyString(judgeKey)}}
	var all []*broadcast.Result
	for i := range maxResults + 2 {
		r := &broadcast.Result{Event: "local", Table: "1", Result: "YR", Record: fmt.Sprintf("[Round \"%d\"]\n", i), Time: time.Unix(int64(i), 0).UTC()}
		r.Sign(tableKey)
		if i == 5 {
			c := r.Certify(judgeKey, broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: "marta", Time: r.Time})
			r.Certification = &c
		}
		all = append(all, d.keepResult(r))
	}
	want := append(slices.Clone(all[1:5]), all[6:]...)
	d2 := &daemon{cfg: d.cfg, log: d.log, key: tableKey, judges: d.judges}
	d2.loadJudging()
	for _, got := range [][]*broadcast.Result{d.judging.Results, d2.judging.Results} {
		if len(got) != maxResults {
			t.Fatalf("%d results kept, want %d", len(got), maxResults)
		}
		for i := range got {
			if got[i].RecordSHA256 != want[i].RecordSHA256 {
				t.Fatalf("result %d is %s, want %s", i, got[i].Record, want[i].Record)
			}
		}
	}
}
