package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/referee"
)

var caps = board.Caps{Counts: true, Colours: true}

func script(t *testing.T, tb *Table, text string) []referee.Event {
	t.Helper()
	var events []referee.Event
	if err := tb.RunScript(strings.NewReader(text), func(e referee.Event) error { events = append(events, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return events
}

// endScript is the referee's table script of a game's last round: Yellow
// finishes, Blue and Green play, and YR win at the end of the round.
func endScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../referee/testdata/scripts/end.script")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const turns = `players Ana Bea Carla Dani
start Y
at 1 throw 5
at 2 lift YH
at 3 place 5 Y
at 4 throw 3
`

// A board left wrong is flagged when the daemon's timer input comes at the
// end of the grace time; the timer is journaled, so a table reopened on its
// journal flags it at the same moment, with the same events.
func TestTimer_JournaledAndReplayed(t *testing.T) {
	dir := t.TempDir()
	tb, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	events := script(t, tb, "setup 20:Y Y 4 0 - Y\nat 1 lift 20\nat 2 place 25 Y\n")
	for _, e := range events {
		if e.Type == referee.EventInfraction || e.Type == referee.EventMismatch {
			t.Fatalf("flagged within the grace time: %+v", e)
		}
	}
	dl, ok := tb.Deadline()
	if want := tablescriptEpoch(2.0 + 1.5); !ok || !dl.Equal(want) {
		t.Fatalf("deadline %v %v, want %v", dl, ok, want)
	}
	fired, err := tb.Handle(referee.Input{At: dl, Kind: referee.InputTimer}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(fired) != 2 || fired[0].Type != referee.EventMismatch || fired[1].Rule != referee.RuleWrongCount || !fired[1].Time.Equal(dl) {
		t.Fatalf("timer gave %+v, want a mismatch and a wrong-count at %v", fired, dl)
	}
	if _, ok := tb.Deadline(); ok {
		t.Error("a deadline remains after the timer")
	}
	want := append(append([]referee.Event(nil), events...), fired...)
	tb.Close()
	tb2, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tb2.Close()
	got := tb2.Replayed()
	if len(got) != len(want) {
		t.Fatalf("replay gave %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Seq != want[i].Seq || got[i].Type != want[i].Type || got[i].Rule != want[i].Rule || !got[i].Time.Equal(want[i].Time) {
			t.Errorf("replayed event %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func tablescriptEpoch(seconds float64) time.Time {
	return time.Unix(0, 0).UTC().Add(time.Duration(seconds * float64(time.Second)))
}

// A table reopened on its journal is where it was, with the same events.
func TestOpen_ReplaysJournal(t *testing.T) {
	dir := t.TempDir()
	tb, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	events := script(t, tb, turns)
	pos := tb.Referee().Position()
	tb.Close()

	var sunk int
	opened := false
	tb2, err := Open(Opts{Caps: caps, Dir: dir, Sinks: []Sink{SinkFunc(func(u *Update) error {
		if !opened && !u.Replayed {
			t.Error("an update of the replay is not marked replayed")
		}
		sunk += len(u.Events)
		return nil
	})}})
	if err != nil {
		t.Fatal(err)
	}
	opened = true
	defer tb2.Close()
	if got := tb2.Referee().Position(); got != pos {
		t.Errorf("replayed to %s, want %s", got.String(), pos.String())
	}
	if got := tb2.Referee().Players(); got != [4]string{"Ana", "Bea", "Carla", "Dani"} {
		t.Errorf("players %v", got)
	}
	if len(tb2.Replayed()) != len(events) || sunk != len(events) {
		t.Fatalf("replay gave %d events (%d to sinks), want %d", len(tb2.Replayed()), sunk, len(events))
	}
	for i := range events {
		a, _ := json.Marshal(events[i])
		b, _ := json.Marshal(tb2.Replayed()[i])
		if !bytes.Equal(a, b) {
			t.Errorf("event %d: replay %s, want %s", i+1, b, a)
		}
	}
	// The next event goes on from the last number.
	more, err := tb2.Handle(referee.Input{Kind: referee.InputThrow, Value: 2}, "")
	if err != nil || len(more) == 0 || more[0].Seq != uint64(len(events)+1) {
		t.Fatalf("next event %+v, %v; want seq %d", more, err, len(events)+1)
	}
}

// A journal with a damaged tail still opens: the tail is cut and the game
// resumes from the last intact input.
func TestOpen_DamagedTailCut(t *testing.T) {
	dir := t.TempDir()
	tb, _ := Open(Opts{Caps: caps, Dir: dir})
	script(t, tb, turns)
	tb.Close()
	path := filepath.Join(dir, JournalName)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{40, 0, 0, 0, 1, 2, 3, 4, 'a', 't'})
	f.Close()
	tb2, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tb2.Close()
	if pos := tb2.Referee().Position(); pos.String() != "5:Y R throw 0 - Y" {
		t.Errorf("resumed at %s", pos.String())
	}
}

// At the end of a game the record is saved atomically, the journal
// archived, and a new one begins from the final position.
func TestGameOver_SavesAndRotates(t *testing.T) {
	dir := t.TempDir()
	var ends []GameEnd
	tb, err := Open(Opts{Caps: caps, Dir: dir, OnGameEnd: func(g GameEnd) { ends = append(ends, g) }})
	if err != nil {
		t.Fatal(err)
	}
	events := script(t, tb, endScript(t))
	last := events[len(events)-1]
	if last.Type != referee.EventResult || len(ends) != 1 {
		t.Fatalf("last event %+v, %d game ends", last, len(ends))
	}
	end := ends[0]
	g, err := engine.ReadRecord(bytes.NewReader(end.Record))
	if err != nil {
		t.Fatalf("saved record: %v\n%s", err, end.Record)
	}
	if w, _ := g.Pos.Winner(); w != engine.PairYR || g.Pos != end.Position {
		t.Errorf("record replays to %s", g.Pos.String())
	}
	var saved SavedGame
	b, err := os.ReadFile(end.File)
	if err != nil || json.Unmarshal(b, &saved) != nil || saved.Record != string(end.Record) || saved.Result != "YR" {
		t.Fatalf("saved game %s: %v", end.File, err)
	}
	if txt, err := os.ReadFile(strings.TrimSuffix(end.File, ".json") + ".txt"); err != nil || string(txt) != string(end.Record) {
		t.Errorf("record file: %v", err)
	}
	f, _ := os.Open(strings.TrimSuffix(end.File, ".json") + ".journal")
	head, n, err := journal.Verify(f)
	f.Close()
	if err != nil || head != end.JournalHead || n == 0 {
		t.Errorf("archived journal: head %s over %d records, %v; want %s", head, n, err, end.JournalHead)
	}
	tb.Close()
	// A restart shows the finished game, and numbers go on.
	tb2, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tb2.Close()
	if pos := tb2.Referee().Position(); pos != end.Position || tb2.Referee().Seq() != last.Seq || len(tb2.Replayed()) != 0 {
		t.Errorf("after restart: %s, seq %d, %d replayed events", pos.String(), tb2.Referee().Seq(), len(tb2.Replayed()))
	}
	// The finished game is there to certify, as it was saved.
	again, ok, err := tb2.Finished()
	if err != nil || !ok {
		t.Fatalf("finished game after restart: %v, %v", ok, err)
	}
	if string(again.Record) != string(end.Record) || again.JournalHead != end.JournalHead || again.Position != end.Position || again.Seq != end.Seq || !again.Time.Equal(end.Time) {
		t.Errorf("finished game read back as %+v, want %+v", again, end)
	}
	// Once a new game starts, nothing is finished any more.
	tb2.Handle(referee.Input{Kind: referee.InputStart, Starter: engine.Blue}, "")
	if _, ok, _ := tb2.Finished(); ok {
		t.Error("a finished game is reported while a new one is played")
	}
}

// A script line that cannot be read stops the run with its line number.
func TestRunScript_BadLine(t *testing.T) {
	tb, _ := Open(Opts{Caps: caps})
	err := tb.RunScript(strings.NewReader("start Y\nat 1 throw 9\n"), func(referee.Event) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), `bad throw "9"`) {
		t.Fatalf("error %v", err)
	}
}

// A crash while the journal is started anew at the end of a game leaves
// the old journal whole: the table reopens at the end of that game, with
// its result to certify, and numbers go on.
func TestGameOver_CrashDuringRotation(t *testing.T) {
	dir := t.TempDir()
	tb, _ := Open(Opts{Caps: caps, Dir: dir})
	game := endScript(t)
	cut := strings.LastIndex(strings.TrimRight(game, "\n"), "\n") + 1
	script(t, tb, game[:cut])
	// The journal just before the game's last input, as the crash leaves
	// it: the saved game is written, the rotation did not happen.
	before, _ := os.ReadFile(filepath.Join(dir, JournalName))
	events := script(t, tb, game[cut:])
	last := events[len(events)-1]
	tb.Close()
	archived, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal"))
	old, _ := os.ReadFile(archived[0])
	if !strings.HasPrefix(string(old), string(before)) {
		t.Fatal("the archive is not the old journal")
	}
	os.WriteFile(filepath.Join(dir, JournalName), old, 0o600)

	tb2, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer tb2.Close()
	if tb2.Referee().Seq() != last.Seq {
		t.Errorf("numbers go on from %d, want %d", tb2.Referee().Seq(), last.Seq)
	}
	end, ok, err := tb2.Finished()
	if err != nil || !ok || end.Seq != last.Seq {
		t.Fatalf("finished game after the crash: %+v, %v, %v", end, ok, err)
	}
}

// The events after a game's end are the same live and after a restart:
// the referee is rebuilt from the new journal's first record when the
// journal is rotated, as a restart rebuilds it, so nothing it knew of the
// last game (the last board seen) numbers the next game's events
// differently.
func TestGameOver_NextGameSameLiveAndReplayed(t *testing.T) {
	for _, restartAtEnd := range []bool{false, true} {
		dir := t.TempDir()
		tb, err := Open(Opts{Caps: caps, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		script(t, tb, endScript(t))
		if restartAtEnd {
			tb.Close()
			if tb, err = Open(Opts{Caps: caps, Dir: dir}); err != nil {
				t.Fatal(err)
			}
		}
		var live []referee.Event
		at := time.Unix(100, 0)
		home := board.Expected(ptr(engine.NewPosition(engine.Blue)))
		for _, in := range []referee.Input{
			{At: at, Kind: referee.InputStart, Starter: engine.Blue},
			{At: at.Add(time.Second), Kind: referee.InputBoard, Board: home},
			{At: at.Add(2 * time.Second), Kind: referee.InputThrow, Throw: referee.ThrowValue, Value: 5},
		} {
			ev, err := tb.Handle(in, "")
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, ev...)
		}
		tb.Close()
		tb2, err := Open(Opts{Caps: caps, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(tb2.Replayed())
		want, _ := json.Marshal(live)
		tb2.Close()
		if string(got) != string(want) {
			t.Errorf("restart at the end %v: replayed\n%s\nlive\n%s", restartAtEnd, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// A journal that ends with a game's end not yet saved (the daemon stopped
// before writing the result) is saved and rotated on open: the result is
// there to certify, and the archive verifies.
func TestOpen_UnsavedGameEnd_SavedOnOpen(t *testing.T) {
	dir := t.TempDir()
	tb, _ := Open(Opts{Caps: caps, Dir: dir})
	events := script(t, tb, endScript(t))
	last := events[len(events)-1]
	tb.Close()
	archived, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal"))
	old, _ := os.ReadFile(archived[0])
	// As a stop before the game was saved leaves it: the old journal, no
	// saved game.
	os.RemoveAll(filepath.Join(dir, "games"))
	os.WriteFile(filepath.Join(dir, JournalName), old, 0o600)

	tb2, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	end, ok, err := tb2.Finished()
	if err != nil || !ok || end.Seq != last.Seq || end.Position.Phase() != engine.PhaseEnd {
		t.Fatalf("finished game: %+v, %v, %v", end, ok, err)
	}
	if n := len(tb2.Replayed()); n == 0 || tb2.Replayed()[n-1].Seq != last.Seq {
		t.Errorf("the game's events are not there to queue again: %d", n)
	}
	tb2.Close()
	f, err := os.Open(strings.TrimSuffix(end.File, ".json") + ".journal")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if head, _, err := journal.Verify(f); err != nil || head != end.JournalHead {
		t.Errorf("archive: %v, head %s want %s", err, head, end.JournalHead)
	}
}

// A journal damaged in the middle is never silent: the game resumes at
// the last consistent point, the original is kept, the records after the
// damage are saved as a script for a judge, and the table says a judge
// must check the game until one has — across restarts too. Numbers go on
// after the saved games', so none is given twice.
func TestOpen_DamagedInTheMiddle_JudgeMustCheck(t *testing.T) {
	dir := t.TempDir()
	tb, _ := Open(Opts{Caps: caps, Dir: dir})
	script(t, tb, turns)
	tb.Close()
	path := filepath.Join(dir, JournalName)
	data, _ := os.ReadFile(path)
	_, _, rep := journal.Scan(data)
	if rep != nil {
		t.Fatalf("journal damaged before the test: %v", rep)
	}
	// The third record's payload, with records after it.
	off := 0
	for range 2 {
		_, n, _ := journal.DecodeRecord(data[off:])
		off += n
	}
	data[off+10] ^= 0x01
	os.WriteFile(path, data, 0o600)
	os.MkdirAll(filepath.Join(dir, "games"), 0o750)
	os.WriteFile(filepath.Join(dir, "games", "game-000040.json"), []byte("{}"), 0o640)

	tb2, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	why := tb2.Check()
	if !strings.Contains(why, "damaged at byte") {
		t.Fatalf("no judge's check raised: %q", why)
	}
	if tb2.Referee().Seq() != 40 {
		t.Errorf("numbers go on from %d, want after the saved game's 40", tb2.Referee().Seq())
	}
	originals, _ := filepath.Glob(path + ".damaged-*")
	var kept, recovered string
	for _, f := range originals {
		if strings.HasSuffix(f, ".recovered.script") {
			recovered = f
		} else {
			kept = f
		}
	}
	if b, err := os.ReadFile(kept); err != nil || !bytes.Equal(b, data) {
		t.Errorf("original not kept untouched: %v (%v)", originals, err)
	}
	if b, err := os.ReadFile(recovered); err != nil || !strings.Contains(string(b), "throw 3") {
		t.Errorf("records after the damage not saved: %v\n%s", err, b)
	}
	tb2.Close()
	tb3, _ := Open(Opts{Caps: caps, Dir: dir})
	if tb3.Check() != why {
		t.Errorf("after a restart the check reads %q", tb3.Check())
	}
	if tb3.Referee().Seq() != 40 {
		t.Errorf("after a restart numbers go on from %d", tb3.Referee().Seq())
	}
	if err := tb3.ClearCheck(); err != nil {
		t.Fatal(err)
	}
	tb3.Close()
	tb4, _ := Open(Opts{Caps: caps, Dir: dir})
	defer tb4.Close()
	if tb4.Check() != "" {
		t.Errorf("the check is still raised after a judge's: %q", tb4.Check())
	}
}

// A finished game's record carries the configured tags, the day it ended,
// each throw's time and each infraction as a comment, and is saved as
// YYYY-MM-DD_<table>_<n> with n counting the table's games of the day.
func TestGameOver_RecordTagsAndName(t *testing.T) {
	dir := t.TempDir()
	var ends []GameEnd
	tags := func() []engine.Tag {
		return []engine.Tag{{Key: "Event", Value: "Liga 2026"}, {Key: "Table", Value: "7"}, {Key: "Round", Value: "2"}}
	}
	tb, err := Open(Opts{Caps: caps, Dir: dir, Table: "7", RecordTags: tags, OnGameEnd: func(g GameEnd) { ends = append(ends, g) }})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	game := strings.Replace(endScript(t), "at 2 lift Y7", "at 2 throw 4\nat 2 lift Y7", 1)
	script(t, tb, game)
	script(t, tb, endScript(t))
	if len(ends) != 2 {
		t.Fatalf("%d games ended, want 2", len(ends))
	}
	day := ends[0].Time.UTC().Format("2006-01-02")
	for i, end := range ends {
		want := filepath.Join(dir, "games", fmt.Sprintf("%s_7_%d.json", day, i+1))
		if end.File != want {
			t.Errorf("game %d saved as %s, want %s", i+1, end.File, want)
		}
		if _, err := os.Stat(strings.TrimSuffix(want, ".json") + ".txt"); err != nil {
			t.Errorf("game %d: record: %v", i+1, err)
		}
	}
	rec := string(ends[0].Record)
	for _, want := range []string{
		`[Event "Liga 2026"]`, `[Date "` + ends[0].Time.UTC().Format("2006.01.02") + `"]`, `[Table "7"]`, `[Round "2"]`,
		"Y 1 Y7-YG {" + ends[0].Time.UTC().Format("15:04")[:2], "; ", "infraction early-throw Y: the 1 is still to be played",
	} {
		if !strings.Contains(rec, want) {
			t.Errorf("record lacks %q:\n%s", want, rec)
		}
	}
	g, err := engine.ReadRecord(strings.NewReader(rec))
	if err != nil {
		t.Fatalf("record does not replay: %v\n%s", err, rec)
	}
	if w, _ := g.Pos.Winner(); w != engine.PairYR {
		t.Errorf("record replays to %s", g.Pos.String())
	}
	if got := SavedGames(dir); len(got) != 2 || got[ends[1].Seq] != strings.TrimSuffix(ends[1].File, ".json") {
		t.Errorf("SavedGames = %v", got)
	}
}

// The robot partners journaled before a game's start are the game's after
// a restart, and still the ended game's once its journal is rotated; a
// game started without a robots line has none to go by.
func TestRobots_JournaledAndReplayed(t *testing.T) {
	dir := t.TempDir()
	tb, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.Robots(); ok {
		t.Error("robots before any robots line")
	}
	want := [engine.NumColours]string{1: "mc:50"}
	script(t, tb, "robots - mc:50 - -\n"+endScript(t))
	reopen := func(when string) {
		t.Helper()
		tb.Close()
		if tb, err = Open(Opts{Caps: caps, Dir: dir}); err != nil {
			t.Fatal(err)
		}
		if got, ok := tb.Robots(); got != want || !ok {
			t.Errorf("%s: robots %q, %v; want %q", when, got, ok, want)
		}
	}
	if pos := tb.Referee().Position(); pos.Phase() != engine.PhaseEnd {
		t.Fatalf("the game did not end: %s", &pos)
	}
	reopen("after the game's end and the journal's rotation")
	script(t, tb, "robots greedy - - -\nstart B\nat 100 throw 5\n")
	want = [engine.NumColours]string{0: "greedy"}
	reopen("in the next game")
	script(t, tb, "start R\n")
	tb.Close()
	if tb, err = Open(Opts{Caps: caps, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if got, ok := tb.Robots(); ok {
		t.Errorf("a game started without a robots line has robots %q", got)
	}
}
