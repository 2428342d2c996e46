package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"log/slog"
	"os"
	"path/filepath"
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

// A judge's verdict on a result is checked against the table's judges,
// kept beside the saved games, and final.
func TestCertify_VerdictCheckedSavedAndFinal(t *testing.T) {
	_, tableKey, _ := ed25519.GenerateKey(rand.Reader)
	_, judgeKey, _ := ed25519.GenerateKey(rand.Reader)
	_, strangerKey, _ := ed25519.GenerateKey(rand.Reader)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "games"), 0o750)
	res := &broadcast.Result{Event: "local", Table: "1", Result: "YR", Position: "YG:YYYY,RG:RRRR Y end 0 - Y",
		Record: "[Event \"local\"]\n", Time: time.Unix(1764412345, 0).UTC()}
	res.Sign(tableKey)
	d := &daemon{cfg: &config.Daemon{Dir: dir}, log: slog.New(slog.DiscardHandler), result: res,
		judges: broadcast.Judges{"marta": certify.PublicKeyString(judgeKey)}}
	verdict := func(key ed25519.PrivateKey, judge, v, reason string) broadcast.Command {
		typ := broadcast.CmdCertify
		if v == broadcast.VerdictRejected {
			typ = broadcast.CmdReject
		}
		c := res.Certify(key, broadcast.Certification{Verdict: v, Judge: judge, Reason: reason, Time: res.Time.Add(time.Minute)})
		return broadcast.Command{ID: "x", Type: typ, Judge: judge, Certification: &c}
	}
	if err := d.certify(verdict(strangerKey, "marta", broadcast.VerdictCertified, "")); err == nil {
		t.Fatal("a certification signed with another key was accepted")
	}
	if err := d.certify(verdict(judgeKey, "marta", broadcast.VerdictCertified, "")); err != nil {
		t.Fatal(err)
	}
	if d.result.Certification == nil || d.result.Certification.Judge != "marta" {
		t.Fatalf("certification not kept: %+v", d.result.Certification)
	}
	saved, _ := filepath.Glob(filepath.Join(dir, "games", "result-*.json"))
	if len(saved) != 1 {
		t.Fatalf("saved certified results: %v", saved)
	}
	err := d.certify(verdict(judgeKey, "marta", broadcast.VerdictRejected, "second thoughts"))
	if err == nil || !strings.Contains(err.Error(), "already certified by marta") {
		t.Fatalf("a second verdict: %v", err)
	}
	if d.result.Certification.Verdict != broadcast.VerdictCertified {
		t.Errorf("the verdict changed to %s", d.result.Certification.Verdict)
	}
	// A verdict that cannot be kept on disk is not given.
	d2 := &daemon{cfg: &config.Daemon{Dir: filepath.Join(dir, "missing")}, log: d.log, result: res, judges: d.judges}
	if err := d2.certify(verdict(judgeKey, "marta", broadcast.VerdictCertified, "")); err == nil || d2.result.Certification != nil {
		t.Errorf("a verdict that could not be saved: %v, %+v", err, d2.result.Certification)
	}
	d.result = nil
	if err := d.certify(verdict(judgeKey, "marta", broadcast.VerdictCertified, "")); err == nil {
		t.Error("a verdict with no result waiting was accepted")
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
			d.loadCertified()
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
	if err := d.certify(broadcast.Command{Type: broadcast.CmdCertify, Judge: "marta", Certification: &c}); err != nil {
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
