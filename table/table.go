// Package table is the core of the table daemon: one owner of the
// referee, which journals every input before the referee sees it, and
// hands each resulting update — events, lights, position — to the sinks
// (lights, live feed, terminal, metrics), like hooks plugged into a small
// core. On open it replays the journal, so a restart resumes the exact
// game.
package table

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/tablescript"
	"github.com/parchis-table/parchis/vision"
)

// Update is what one input did: the events it caused and the state after.
type Update struct {
	Input    referee.Input
	Events   []referee.Event
	Lights   *board.Frame
	Position engine.Position
	// Game is the referee's game (nil before the first start); sinks must
	// not change it.
	Game *engine.Game
	// Replayed is set for updates rebuilt from the journal on open: their
	// events were already handed out before the restart.
	Replayed bool
}

// Sink receives every update, in order, from the table's goroutine. It
// must not keep u or its slices after returning.
type Sink interface {
	Update(u *Update) error
}

// SinkFunc adapts a function to a Sink.
type SinkFunc func(u *Update) error

// Update calls f.
func (f SinkFunc) Update(u *Update) error { return f(u) }

// GameEnd is told when a game ends, after its record is saved.
type GameEnd struct {
	Record      []byte // the game record (NOTATION.md)
	Position    engine.Position
	Players     [engine.NumColours]string
	JournalHead journal.Hash
	Seq         uint64
	Time        time.Time
	// File is the saved snapshot's path (JSON: the record, the result,
	// the journal's head); the record alone is beside it, .txt for .json.
	File string
}

// Opts configures a table.
type Opts struct {
	// Caps tells what the site sensors can know.
	Caps hw.Caps
	// Dir holds the journal (table.journal) and the saved games
	// (games/); empty keeps nothing on disk.
	Dir string
	// Sinks receive every update.
	Sinks []Sink
	// OnGameEnd, when set, is called with each finished game.
	OnGameEnd func(GameEnd)
	Logger    *slog.Logger
}

// Table owns a referee and its journal; the daemon hands it every input
// from its own loop, in one goroutine.
type Table struct {
	opts    Opts
	run     *tablescript.Runner
	journal *journal.Journal
	log     *slog.Logger
	note    string
	buf     bytes.Buffer
	replay  []referee.Event
	// savedSeq is the last event number of the saved game the journal
	// begins with, or 0.
	savedSeq uint64
	// check says why a judge must check the game, or "".
	check string
}

// CheckName is the file in Opts.Dir that says why a judge must check the
// game (a journal damaged in the middle); it stays until a judge has
// acted (ClearCheck).
const CheckName = "needs-check"

// raiseCheck records that a judge must check the game, and why.
func (t *Table) raiseCheck(why string) error {
	t.check = why
	if t.opts.Dir == "" {
		return nil
	}
	if err := journal.WriteFileAtomic(filepath.Join(t.opts.Dir, CheckName), []byte(why+"\n"), 0o640); err != nil {
		return fmt.Errorf("table: recording that a judge must check the game: %w", err)
	}
	return nil
}

// lastSavedSeq returns the number of the last event of the newest saved
// game, or 0.
func (t *Table) lastSavedSeq() uint64 {
	files, _ := filepath.Glob(filepath.Join(t.opts.Dir, "games", "game-*.json"))
	var last uint64
	for _, f := range files {
		var n uint64
		if _, err := fmt.Sscanf(filepath.Base(f), "game-%d.json", &n); err == nil {
			last = max(last, n)
		}
	}
	return last
}

// NumberFrom makes the next event number seq+1 when the referee's are
// behind (events numbered before the journal lost them), journaling it
// so that a replay numbers alike.
func (t *Table) NumberFrom(seq uint64) error {
	if seq <= t.run.Referee.Seq() {
		return nil
	}
	t.log.Warn("event numbers go on after the last known", "from", t.run.Referee.Seq(), "to", seq)
	_, err := t.Step(tablescript.Step{Verb: tablescript.VerbSeq, Seq: seq}, "")
	return err
}

// Check returns why a judge must check the game, or "" when nothing needs
// checking.
func (t *Table) Check() string { return t.check }

// ClearCheck records that a judge has checked the game.
func (t *Table) ClearCheck() error {
	if t.check == "" {
		return nil
	}
	t.check = ""
	if t.opts.Dir == "" {
		return nil
	}
	if err := os.Remove(filepath.Join(t.opts.Dir, CheckName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("table: %w", err)
	}
	return nil
}

// SaveRecovered writes the records found after a journal's damage, as a
// table script beside the kept original (ORIGINAL.recovered.script), for
// a judge to read, and returns its path.
func SaveRecovered(r *journal.Repair) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# records found after the damage at byte %d (%s) of %s\n", r.Offset, r.Reason, r.Original)
	fmt.Fprintf(&b, "# the hash chain breaks there: these cannot be chained to the records before it\n")
	for i, p := range r.Recovered {
		fmt.Fprintf(&b, "# record at byte %d\n", r.RecoveredAt[i])
		b.Write(p)
		if len(p) > 0 && p[len(p)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	path := r.Original + ".recovered.script"
	if err := journal.WriteFileAtomic(path, []byte(b.String()), 0o640); err != nil {
		return "", fmt.Errorf("journal: keeping the recovered records: %w", err)
	}
	return path, nil
}

// JournalName is the journal's file name in Opts.Dir.
const JournalName = "table.journal"

// Open makes a table and replays its journal, if any, so that the referee
// is where it was when the journal was last written. A damaged journal
// tail is cut and logged.
func Open(opts Opts) (*Table, error) {
	t := &Table{opts: opts, run: tablescript.NewRunner(opts.Caps), log: opts.Logger}
	if t.log == nil {
		t.log = slog.Default()
	}
	if opts.Dir == "" {
		return t, nil
	}
	if err := os.MkdirAll(filepath.Join(opts.Dir, "games"), 0o750); err != nil {
		return nil, fmt.Errorf("table directory: %w", err)
	}
	j, payloads, repair, err := journal.Open(filepath.Join(opts.Dir, JournalName))
	if err != nil {
		return nil, err
	}
	switch {
	case repair != nil && repair.Middle:
		script, err := SaveRecovered(repair)
		if err != nil {
			j.Close()
			return nil, err
		}
		why := fmt.Sprintf("the journal was damaged at byte %d (%s); the game resumes from record %d, before the damage; %d records after it are in %s, the original in %s",
			repair.Offset, repair.Reason, len(payloads), len(repair.Recovered), script, repair.Original)
		t.log.Error("journal damaged in the middle: a judge must check the game", "file", j.Path(), "offset", repair.Offset, "reason", repair.Reason,
			"records_kept", len(payloads), "records_after_damage", len(repair.Recovered), "original", repair.Original, "recovered", script)
		if err := t.raiseCheck(why); err != nil {
			j.Close()
			return nil, err
		}
	case repair != nil:
		t.log.Warn("journal tail was damaged and cut", "file", j.Path(), "offset", repair.Offset, "bytes", repair.Cut, "reason", repair.Reason)
	}
	if b, err := os.ReadFile(filepath.Join(opts.Dir, CheckName)); err == nil {
		t.check = strings.TrimSpace(string(b))
	}
	t.journal = j
	for i, p := range payloads {
		if err := t.replayRecord(p); err != nil {
			j.Close()
			return nil, fmt.Errorf("journal %s: record %d: %w", j.Path(), i+1, err)
		}
	}
	if len(payloads) > 0 {
		t.log.Info("journal replayed", "records", len(payloads), "seq", t.run.Referee.Seq(), "position", t.run.Referee.Position().String())
	}
	// Records lost to damage may have been numbered: the numbers go on
	// after the last one known, the saved games', so that no number is
	// given twice.
	if repair != nil && repair.Middle {
		if last := t.lastSavedSeq(); last > t.run.Referee.Seq() {
			if err := t.NumberFrom(last); err != nil {
				j.Close()
				return nil, err
			}
		}
	}
	// A game whose end was journaled but not yet saved and rotated (the
	// daemon stopped in between): finish that now, as the table would
	// have done, so that the result is kept and the next game begins from
	// the same state as after an uninterrupted end.
	pos := t.run.Referee.Position()
	if n := len(t.replay); n > 0 && t.replay[n-1].Type == referee.EventResult && pos.Phase() == engine.PhaseEnd {
		t.log.Warn("the journal ends with a game's end not yet saved: saving it now", "seq", t.replay[n-1].Seq)
		if _, err := t.saveGame(t.replay[n-1]); err != nil {
			j.Close()
			return nil, err
		}
	}
	return t, nil
}

// replayRecord feeds one journal record back to the referee.
func (t *Table) replayRecord(p []byte) error {
	for line := range strings.SplitSeq(string(p), "\n") {
		if n, ok := strings.CutPrefix(line, "# "); ok {
			t.note = n
			continue
		}
		st, ok, err := tablescript.ParseLine(line)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		in, ok, err := t.run.Input(st)
		if err != nil {
			return err
		}
		if st.Verb == tablescript.VerbSeq {
			// A new journal begins with a saved game's final position and
			// then its last event number: the events rebuilt before the
			// seq line were handed out already, under their own numbers.
			t.replay = t.replay[:0]
			t.savedSeq = st.Seq
		}
		if !ok {
			continue
		}
		events := t.run.Referee.Handle(in)
		t.replay = append(t.replay, events...)
		u := t.update(in, events)
		u.Replayed = true
		t.fanout(&u)
	}
	return nil
}

// Finished returns the game that ended last, read back from where it was
// saved, when the table reopened with it over and no new game begun: its
// result still awaits a judge.
func (t *Table) Finished() (GameEnd, bool, error) {
	pos := t.run.Referee.Position()
	if t.opts.Dir == "" || pos.Phase() != engine.PhaseEnd {
		return GameEnd{}, false, nil
	}
	seq := t.savedSeq
	if seq == 0 {
		// The journal was not started anew (a crash while it was): the
		// game's result event names the saved game.
		for i := len(t.replay) - 1; i >= 0 && seq == 0; i-- {
			if t.replay[i].Type == referee.EventResult {
				seq = t.replay[i].Seq
			}
		}
		if seq == 0 {
			return GameEnd{}, false, nil
		}
	}
	file := t.savedFile(seq) + ".json"
	b, err := os.ReadFile(file)
	if err != nil {
		return GameEnd{}, false, fmt.Errorf("saved game: %w", err)
	}
	var sg savedGame
	if err := json.Unmarshal(b, &sg); err != nil {
		return GameEnd{}, false, fmt.Errorf("saved game %s: %w", file, err)
	}
	end := GameEnd{Record: []byte(sg.Record), Players: sg.Players, Seq: sg.Seq, Time: sg.Time, File: file}
	if end.Position, err = engine.ParsePPN(sg.Position); err != nil {
		return GameEnd{}, false, fmt.Errorf("saved game %s: %w", file, err)
	}
	h, err := hex.DecodeString(sg.JournalHead)
	if err != nil || len(h) != len(end.JournalHead) {
		return GameEnd{}, false, fmt.Errorf("saved game %s: bad journal head %q", file, sg.JournalHead)
	}
	copy(end.JournalHead[:], h)
	return end, true, nil
}

// savedFile is the saved game's path without extension.
func (t *Table) savedFile(seq uint64) string {
	return filepath.Join(t.opts.Dir, "games", fmt.Sprintf("game-%06d", seq))
}

// Replayed returns the events the journal's replay produced on open.
func (t *Table) Replayed() []referee.Event { return t.replay }

// Note returns the note of the last journal record replayed or written.
func (t *Table) Note() string { return t.note }

// Referee returns the table's referee, for reading only.
func (t *Table) Referee() *referee.Referee { return t.run.Referee }

// Handle journals one input, gives it to the referee, and hands the update
// to the sinks. The note, when not empty, is journaled with the input
// (a script's line number, to resume a script).
func (t *Table) Handle(in referee.Input, note string) ([]referee.Event, error) {
	if err := t.journalRecord(note, tablescript.FormatInput(in), false); err != nil {
		return nil, err
	}
	events := t.run.Referee.Handle(in)
	if t.journal != nil && (mustSync(in, events)) {
		if err := t.journal.Sync(); err != nil {
			return events, fmt.Errorf("journal: %w", err)
		}
	}
	u := t.update(in, events)
	t.fanout(&u)
	for _, e := range events {
		if e.Type == referee.EventResult {
			if err := t.gameOver(e); err != nil {
				return events, err
			}
		}
	}
	return events, nil
}

// Step handles one table-script step (a "players", "sensors" or "seq"
// line only sets the runner up). After a start or setup, which places the
// pieces, the referee is also shown the board.
func (t *Table) Step(st tablescript.Step, note string) ([]referee.Event, error) {
	in, ok, err := t.run.Input(st)
	if err != nil {
		return nil, err
	}
	if !ok {
		// A set-up line: journal it, so that a replay sets up the same.
		return nil, t.journalRecord(note, tablescript.FormatSetup(st), false)
	}
	events, err := t.Handle(in, note)
	if err != nil {
		return events, err
	}
	switch in.Kind {
	case referee.InputStart, referee.InputSetup, referee.InputOpening:
		events = append([]referee.Event(nil), events...)
		more, err := t.Handle(referee.Input{At: in.At, Kind: referee.InputBoard, Board: *t.run.Board()}, note)
		return append(events, more...), err
	}
	return events, nil
}

// RunScript handles every line of a table script, calling emit with each
// event. It stops at the first unreadable line with a *tablescript.Error.
func (t *Table) RunScript(script io.Reader, emit func(referee.Event) error) error {
	sc := bufio.NewScanner(script)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimRight(sc.Text(), "\r")
		st, ok, err := tablescript.ParseLine(text)
		if err == nil && ok {
			var events []referee.Event
			events, err = t.Step(st, "")
			for _, e := range events {
				if err := emit(e); err != nil {
					return err
				}
			}
		}
		if err != nil {
			return &tablescript.Error{Line: n, Text: text, Err: err}
		}
	}
	return sc.Err()
}

// journalRecord appends one record: the note as a comment, then the
// script lines.
func (t *Table) journalRecord(note, lines string, sync bool) error {
	t.note = note
	if t.journal == nil {
		return nil
	}
	t.buf.Reset()
	if note != "" {
		t.buf.WriteString("# " + note + "\n")
	}
	t.buf.WriteString(lines)
	return t.journal.Append(t.buf.Bytes(), sync)
}

// mustSync tells which inputs are fsynced at once: every accepted throw,
// move and judge's action, and every start.
//
// And every input that caused an event: no event reaches the live feed
// before the input that caused it is on stable storage, so a replay after
// a power cut makes every event the feed has had, under the same number.
func mustSync(in referee.Input, events []referee.Event) bool {
	return len(events) > 0 || (in.Kind != referee.InputBoard && in.Kind != referee.InputThrow)
}

func (t *Table) update(in referee.Input, events []referee.Event) Update {
	r := t.run.Referee
	return Update{Input: in, Events: events, Lights: r.Lights(), Position: r.Position(), Game: r.Game()}
}

func (t *Table) fanout(u *Update) {
	for _, s := range t.opts.Sinks {
		if err := s.Update(u); err != nil {
			t.log.Error("sink failed", "err", err)
		}
	}
}

// gameOver saves the finished game atomically and starts a new journal,
// which begins from the final position so that a restart still shows the
// result awaiting certification.
func (t *Table) gameOver(e referee.Event) error {
	end, err := t.saveGame(e)
	if err != nil {
		return err
	}
	if t.opts.OnGameEnd != nil {
		t.opts.OnGameEnd(end)
	}
	return nil
}

// saveGame writes the finished game's record and result, archives the
// journal and begins a new one from the final position. The referee is
// then rebuilt from the new journal's first record, as a restart would
// rebuild it: what the referee knew of the game before (the last board it
// saw, …) is gone alike live and after a restart, so the next game's
// events are the same either way.
func (t *Table) saveGame(e referee.Event) (GameEnd, error) {
	g := t.run.Referee.Game()
	var rec bytes.Buffer
	g.WriteTo(&rec)
	end := GameEnd{Record: rec.Bytes(), Position: g.Pos, Players: t.run.Referee.Players(), Seq: e.Seq, Time: e.Time}
	if t.journal == nil {
		return end, nil
	}
	if err := t.journal.Sync(); err != nil {
		return end, fmt.Errorf("journal: %w", err)
	}
	end.JournalHead = t.journal.Head()
	base := t.savedFile(e.Seq)
	snap, err := json.MarshalIndent(savedGame{
		Seq: e.Seq, Position: g.Pos.String(), Result: e.Result, Players: end.Players,
		JournalHead: end.JournalHead.String(), Time: e.Time, Record: rec.String(),
	}, "", "  ")
	if err != nil {
		return end, fmt.Errorf("saved game: %w", err)
	}
	// The record alone too, as clubs keep it and parchis replay reads it.
	if err := journal.WriteFileAtomic(base+".txt", end.Record, 0o640); err != nil {
		return end, err
	}
	if err := journal.WriteFileAtomic(base+".json", snap, 0o640); err != nil {
		return end, err
	}
	end.File = base + ".json"
	var first bytes.Buffer
	first.WriteString(tablescript.FormatInput(referee.Input{At: e.Time, Kind: referee.InputSetup, Position: g.Pos, Players: end.Players}))
	fmt.Fprintf(&first, "\nseq %d", e.Seq)
	// An archive left by an earlier attempt that stopped half-way is
	// the same journal: it is replaced.
	if err := os.Remove(base + ".journal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return end, fmt.Errorf("journal archive: %w", err)
	}
	if err := t.journal.Rotate(base+".journal", first.Bytes()); err != nil {
		return end, err
	}
	keep := t.replay
	t.run = tablescript.NewRunner(t.opts.Caps)
	t.replay = nil
	err = t.replayRecord(first.Bytes())
	t.replay = keep
	if err != nil {
		return end, fmt.Errorf("journal %s: first record: %w", t.journal.Path(), err)
	}
	return end, nil
}

// savedGame is the snapshot written at the end of a game.
type savedGame struct {
	Seq         uint64                    `json:"seq"`
	Position    string                    `json:"position"`
	Result      string                    `json:"result"`
	Players     [engine.NumColours]string `json:"players"`
	JournalHead string                    `json:"journal_head"`
	Time        time.Time                 `json:"time"`
	Record      string                    `json:"record"`
}

// Close syncs and closes the journal.
func (t *Table) Close() error {
	if t.journal == nil {
		return nil
	}
	return t.journal.Close()
}

// ThrowInput turns a die watcher's report into the referee's input (the
// caller sets its time).
func ThrowInput(e vision.Event) referee.Input {
	in := referee.Input{Kind: referee.InputThrow}
	switch {
	case e.Kind == vision.Suspicious:
		in.Throw = referee.ThrowSuspicious
	case e.Result.Answer == vision.Value:
		in.Throw, in.Value = referee.ThrowValue, e.Result.Value
	case e.Result.Answer == vision.Edge:
		in.Throw = referee.ThrowEdge
	case e.Result.Answer == vision.None:
		in.Throw = referee.ThrowNone
	case e.Result.Answer == vision.Multi:
		in.Throw = referee.ThrowMulti
	default:
		in.Throw = referee.ThrowUnsure
	}
	return in
}
