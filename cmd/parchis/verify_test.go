package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

// playedRecord plays a random game to its end and returns its record.
func playedRecord(t *testing.T, seed uint64) ([]byte, *engine.Game) {
	t.Helper()
	rng := mrand.New(mrand.NewPCG(seed, seed))
	g := engine.NewGame(engine.NewPosition(engine.Yellow),
		engine.Tag{Key: "Event", Value: "club"}, engine.Tag{Key: "Date", Value: "2025.05.01"}, engine.Tag{Key: "Table", Value: "t1"},
		engine.Tag{Key: "Yellow", Value: "Ana"}, engine.Tag{Key: "Blue", Value: "Bea"}, engine.Tag{Key: "Red", Value: "Rui"}, engine.Tag{Key: "Green", Value: "Gil"})
	var ml engine.MoveList
	for n := 0; g.Pos.Phase() != engine.PhaseEnd; n++ {
		if n > engine.MaxGameActions {
			t.Fatal("game did not end")
		}
		if g.Pos.Phase() == engine.PhaseThrow {
			if _, err := g.Throw(1 + rng.IntN(6)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		g.Pos.LegalMoves(&ml)
		if _, err := g.Play(ml.At(rng.IntN(ml.Len()))); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	g.WriteTo(&b)
	return b.Bytes(), g
}

func key(t *testing.T) ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestVerify(t *testing.T) {
	setLang(t, "en_GB.UTF-8")
	record, g := playedRecord(t, 7)
	w, ok := g.Pos.Winner()
	if !ok {
		t.Skip("the random game ended without a winner")
	}
	tableKey, judgeKey := key(t), key(t)
	res := broadcast.Result{Event: "club", Table: "t1", Result: w.String(), Position: g.Pos.String(),
		Players: map[string]string{"Y": "Ana", "B": "Bea", "R": "Rui", "G": "Gil"},
		Record:  string(record), JournalHead: certify.Hash{9}.String(), Time: time.Date(2025, 5, 1, 20, 0, 0, 0, time.UTC)}
	res.Sign(tableKey)
	c := res.Certify(judgeKey, broadcast.Certification{Verdict: broadcast.VerdictCertified, Judge: "Ana", Time: res.Time.Add(time.Minute)})
	res.Certification = &c

	dir := t.TempDir()
	write := func(name string, v any) string {
		p := filepath.Join(dir, name)
		var b []byte
		switch v := v.(type) {
		case []byte:
			b = v
		default:
			b, _ = json.Marshal(v)
		}
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	judges := write("judges.json", broadcast.Judges{"Ana": certify.PublicKeyString(judgeKey)})
	otherJudges := write("other.json", broadcast.Judges{"Ana": certify.PublicKeyString(key(t))})
	good := write("result.json", res)
	recordFile := write("game.txt", record)
	otherRecord, _ := playedRecord(t, 8)
	otherRecordFile := write("other.txt", otherRecord)

	changed := func(name string, f func(r *broadcast.Result)) string {
		r := res
		c := *res.Certification
		r.Certification = &c
		f(&r)
		return write(name, r)
	}
	noRecord := changed("norecord.json", func(r *broadcast.Result) { r.Record = "" })
	wrongWinner := changed("winner.json", func(r *broadcast.Result) {
		r.Result = map[string]string{"YR": "BG", "BG": "YR"}[r.Result]
		r.Sign(tableKey)
		cc := r.Certify(judgeKey, *r.Certification)
		r.Certification = &cc
	})
	forgedCert := changed("forged.json", func(r *broadcast.Result) { r.Certification.Judge = "Bea" })
	resigned := changed("resigned.json", func(r *broadcast.Result) { r.Sign(key(t)) })

	tests := []struct {
		name string
		args []string
		code int
		want string // in stdout, or stderr for usage errors
	}{
		{"good with its record", []string{"-judges", judges, good}, 0, "verified"},
		{"good with the record file", []string{"-judges", judges, good, recordFile}, 0, "ok   record hash of"},
		{"good without judges", []string{good}, 1, "the judge's key is not checked"},
		{"good without judges, keys trusted", []string{"-trust-keys", good}, 0, "key not checked: -trust-keys"},
		{"table key and judges", []string{"-judges", judges, "-table-key", certify.PublicKeyString(tableKey), good}, 0, "verified"},
		{"another table key", []string{"-table-key", certify.PublicKeyString(key(t)), good}, 1, "FAIL table signature: made with key"},
		{"another record", []string{"-judges", judges, good, otherRecordFile}, 1, "FAIL record hash"},
		{"result without record, record given", []string{"-judges", judges, noRecord, recordFile}, 0, "verified"},
		{"result without record", []string{noRecord}, 1, "carries none"},
		{"record replays to another winner", []string{"-judges", judges, wrongWinner}, 1, "FAIL record replays to a win of"},
		{"certification altered", []string{forgedCert}, 1, "FAIL certification by \"Bea\""},
		{"judge not trusted", []string{"-judges", otherJudges, good}, 1, "not among the trusted"},
		{"signed by another table after certification", []string{resigned}, 1, "FAIL certification"},
		{"no arguments", nil, 2, "want RESULT.json"},
		{"unreadable", []string{filepath.Join(dir, "missing.json")}, 2, "no such file"},
		{"not a result", []string{recordFile}, 2, "neither a result nor a table's saved game"},
		{"help", []string{"--help"}, 0, "example:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runVerify(tt.args, strings.NewReader(""), &stdout, &stderr)
			out := stdout.String() + stderr.String()
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, want %d with %q in:\n%s", code, tt.code, tt.want, out)
			}
		})
	}

	// Every case said in Spanish too, checked as TestLang checks the
	// commands.
	for _, tt := range tests {
		t.Run(tt.name+" in Spanish", func(t *testing.T) {
			out := map[string]string{}
			for _, lang := range []string{"es_ES.UTF-8", "en_GB.UTF-8"} {
				setLang(t, lang)
				var stdout, stderr bytes.Buffer
				code := runVerify(tt.args, strings.NewReader(""), &stdout, &stderr)
				if code != tt.code {
					t.Errorf("%s: exit %d, want %d", lang, code, tt.code)
				}
				out[lang] = stdout.String() + stderr.String()
			}
			checkLanguages(t, out["es_ES.UTF-8"], out["en_GB.UTF-8"])
		})
	}

	t.Run("stdin", func(t *testing.T) {
		b, _ := os.ReadFile(good)
		var stdout, stderr bytes.Buffer
		if code := runVerify([]string{"-judges", judges, "-"}, bytes.NewReader(b), &stdout, &stderr); code != 0 {
			t.Errorf("exit %d:\n%s%s", code, stdout.String(), stderr.String())
		}
	})
}

// savedGameFiles plays the referee's end-of-game script on a table that
// keeps its games in a folder, and returns the saved game's path without
// extension (PATH.json, PATH.txt, PATH.journal).
func savedGameFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script, err := os.ReadFile("../../referee/testdata/scripts/end.script")
	if err != nil {
		t.Fatal(err)
	}
	var ends []table.GameEnd
	tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}, Dir: dir, Table: "3",
		OnGameEnd: func(e table.GameEnd) { ends = append(ends, e) }})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if err := tb.RunScript(bytes.NewReader(script), func(referee.Event) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(ends) != 1 {
		t.Fatalf("%d games ended", len(ends))
	}
	return strings.TrimSuffix(ends[0].File, ".json")
}

// parchis verify takes the snapshot saved beside each record: the record
// beside it replays to its end, and the archived journal ends with the
// head it names; a record changed or a journal cut fails.
func TestVerify_SavedGame(t *testing.T) {
	setLang(t, "en_GB.UTF-8")
	base := savedGameFiles(t)
	if !strings.HasSuffix(filepath.Base(base), "_3_1") {
		t.Errorf("saved game named %s, want YYYY-MM-DD_3_1", filepath.Base(base))
	}
	var stdout, stderr bytes.Buffer
	if st := run([]string{"verify", base + ".json"}, nil, &stdout, &stderr); st != exitOK {
		t.Fatalf("status %d\n%s%s", st, stdout.String(), stderr.String())
	}
	for _, want := range []string{"not signed", "is the saved game's", "record replays to the saved result: YR", ".journal: ", "verified"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
	// The record edited: it no longer is the saved one.
	rec, _ := os.ReadFile(base + ".txt")
	if err := os.WriteFile(base+".txt", bytes.Replace(rec, []byte("[Table"), []byte("[Tabla"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if st := run([]string{"verify", base + ".json"}, nil, &stdout, &stderr); st != exitRule || !strings.Contains(stdout.String(), "FAIL") {
		t.Errorf("edited record: status %d\n%s", st, stdout.String())
	}
	os.WriteFile(base+".txt", rec, 0o644)
	// The journal cut short: its head is not the one saved.
	j, _ := os.ReadFile(base + ".journal")
	os.WriteFile(base+".journal", j[:len(j)/2], 0o644)
	stdout.Reset()
	if st := run([]string{"verify", base + ".json"}, nil, &stdout, &stderr); st != exitRule {
		t.Errorf("cut journal: status %d\n%s", st, stdout.String())
	}
	// In Spanish.
	os.WriteFile(base+".journal", j, 0o644)
	setLang(t, "es_ES.UTF-8")
	stdout.Reset()
	if st := run([]string{"verify", base + ".json"}, nil, &stdout, &stderr); st != exitOK || !strings.Contains(stdout.String(), "verificado") || !strings.Contains(stdout.String(), "sin firma") {
		t.Errorf("in Spanish: status %d\n%s", st, stdout.String())
	}
	// Not a result nor a saved game.
	os.WriteFile(base+".other", []byte(`{"x":1}`), 0o644)
	stderr.Reset()
	if st := run([]string{"verify", base + ".other"}, nil, &stdout, &stderr); st != exitUsage || !strings.Contains(stderr.String(), "ni un resultado") {
		t.Errorf("not a result: status %d, %s", st, stderr.String())
	}
}
