package table

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/testdisk"
	"github.com/parchis-table/parchis/referee"
)

// A full disk at a game's end, with the next game begun before there is
// room again: the table plays on in memory, holds the events from the
// sinks that must wait for the journal, and once there is room hands them
// out in order, saves the game, and the journals replay to exactly the
// events handed out.
func TestDegraded_GameEndWhileDiskFull_SameAsReplay(t *testing.T) {
	disk, ok := testdisk.Mount(t, 512<<10)
	if !ok {
		return
	}
	dir := filepath.Join(disk, "table")
	var published, held []referee.Event
	sink := SinkFunc(func(u *Update) error {
		switch {
		case u.Replayed:
		case u.Held:
			held = append(held, u.Events...)
		default:
			published = append(published, u.Events...)
		}
		return nil
	})
	var ends []GameEnd
	tb, err := Open(Opts{Caps: caps, Dir: dir, Sinks: []Sink{sink}, OnGameEnd: func(g GameEnd) { ends = append(ends, g) }})
	if err != nil {
		t.Fatal(err)
	}
	game := strings.Split(strings.TrimSpace(endScript(t)), "\n")
	last := len(game) - 2
	script(t, tb, strings.Join(game[:last], "\n")+"\n")

	// Fill the disk, then show the referee the board as it is until the
	// journal's last page is full too.
	f, err := os.Create(filepath.Join(disk, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	at := time.Unix(8, 500_000_000)
	for i := 0; ; i++ {
		if _, err := tb.Degraded(); err != nil {
			break
		}
		if i > 2000 {
			t.Fatal("the journal never found the disk full")
		}
		pos := tb.Referee().Position()
		tb.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: board.Expected(&pos)}, "")
	}
	// The game ends, and the next begins, while the disk is full.
	script(t, tb, strings.Join(game[last:], "\n")+"\n")
	if len(ends) != 0 {
		t.Fatal("a game was saved on a full disk")
	}
	if pos := tb.Referee().Position(); pos.Phase() != engine.PhaseEnd {
		t.Fatal("the game did not end in memory")
	}
	next := time.Unix(20, 0)
	home := board.Expected(ptr(engine.NewPosition(engine.Blue)))
	for _, in := range []referee.Input{
		{At: next, Kind: referee.InputStart, Starter: engine.Blue, Judge: "marta"},
		{At: next.Add(time.Second), Kind: referee.InputBoard, Board: home},
		{At: next.Add(2 * time.Second), Kind: referee.InputThrow, Throw: referee.ThrowValue, Value: 5},
	} {
		if _, err := tb.Handle(in, ""); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := tb.Degraded(); err == nil || n == 0 || len(held) == 0 {
		t.Fatalf("not degraded: %v, %d inputs held, %d events held", err, n, len(held))
	}
	before := len(published)

	// Room again.
	os.Remove(filepath.Join(disk, "filler"))
	tb.Retry()
	if n, err := tb.Degraded(); err != nil || n != 0 {
		t.Fatalf("still degraded once there is room: %v, %d held", err, n)
	}
	if len(ends) != 1 || ends[0].Position.Phase() != engine.PhaseEnd {
		t.Fatalf("the game that ended on a full disk was not saved: %+v", ends)
	}
	if len(published) == before {
		t.Fatal("the held events were not handed out")
	}
	for i, e := range published {
		if e.Seq != uint64(i+1) {
			t.Fatalf("handed out event %d numbered %d", i+1, e.Seq)
		}
	}
	tb.Close()

	// What the journals replay to is what was handed out.
	var replayed []referee.Event
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal"))
	slices.Sort(files)
	for _, f := range append(files, filepath.Join(dir, JournalName)) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tmp := t.TempDir()
		os.WriteFile(filepath.Join(tmp, JournalName), b, 0o600)
		r, err := Open(Opts{Caps: caps, Dir: tmp})
		if err != nil {
			t.Fatal(err)
		}
		replayed = append(replayed, r.Replayed()...)
		r.Close()
	}
	got, _ := json.Marshal(published)
	want, _ := json.Marshal(replayed)
	if string(got) != string(want) {
		t.Errorf("handed out\n%s\nreplayed\n%s", got, want)
	}
}

// A journal ending with a game's end not yet saved, opened on a full disk:
// the table opens, the earlier game's result is never offered as this
// one's, and once there is room the game is saved and told (OnGameEnd).
func TestOpen_UnsavedGameEndOnFullDisk_NoOlderResultOffered(t *testing.T) {
	disk, ok := testdisk.Mount(t, 512<<10)
	if !ok {
		return
	}
	dir := filepath.Join(disk, "table")
	tb, err := Open(Opts{Caps: caps, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	script(t, tb, endScript(t)) // game 1 ends at event 9
	events := script(t, tb, endScript(t))
	last := events[len(events)-1] // game 2 ends
	tb.Close()
	base := SavedGames(dir)[last.Seq]
	archive, err := os.ReadFile(base + ".journal")
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".journal", ".json", ".txt"} {
		os.Remove(base + ext)
	}
	os.WriteFile(filepath.Join(dir, JournalName), archive, 0o600)
	f, _ := os.Create(filepath.Join(disk, "filler"))
	for {
		if _, err := f.Write(make([]byte, 4096)); err != nil {
			break
		}
	}
	f.Close()

	var ends []GameEnd
	tb2, err := Open(Opts{Caps: caps, Dir: dir, OnGameEnd: func(g GameEnd) { ends = append(ends, g) }})
	if err != nil {
		t.Fatalf("the table does not open on a full disk: %v", err)
	}
	defer tb2.Close()
	if _, err := tb2.Degraded(); err == nil {
		t.Error("not degraded with the game's end unsaved")
	}
	if end, ok, err := tb2.Finished(); ok || err != nil {
		t.Errorf("a result offered before this game's is saved: %+v, %v", end, err)
	}
	os.Remove(filepath.Join(disk, "filler"))
	tb2.Retry()
	if len(ends) != 1 || ends[0].Seq != last.Seq {
		t.Fatalf("game ends told once there is room: %+v, want event %d's", ends, last.Seq)
	}
	if end, ok, err := tb2.Finished(); !ok || err != nil || end.Seq != last.Seq {
		t.Errorf("finished game after saving: %+v, %v, %v", end, ok, err)
	}
}
