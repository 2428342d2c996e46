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
	d.result = nil
	if err := d.certify(verdict(judgeKey, "marta", broadcast.VerdictCertified, "")); err == nil {
		t.Error("a verdict with no result waiting was accepted")
	}
}
