// Package table is the core of the table daemon: one owner of the
// referee, which journals every input before the referee sees it, and
// hands each resulting update — events, lights, position — to the sinks
// (lights, live feed, terminal, metrics), like hooks plugged into a small
// core. On open it replays the journal, so a restart resumes the exact
// game.
package table

import (
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
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
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
	// Held is set for an update whose input the journal could not yet
	// take (a full disk): its events must not leave the table (the live
	// feed) until they come again, Flushed.
	Held bool
	// Flushed is set for an update that hands out again the events of
	// held updates, now that their inputs are journaled: Input is zero,
	// Events are those events, in order, and the rest is the state now.
	Flushed bool
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
	Caps board.Caps
	// Grace is the referee's grace time (referee.Opts.Grace).
	Grace time.Duration
	// Dir holds the journal (table.journal) and the saved games
	// (games/); empty keeps nothing on disk.
	Dir string
	// Sinks receive every update.
	Sinks []Sink
	// OnGameEnd, when set, is called with each finished game.
	OnGameEnd func(GameEnd)
	// Table names the table in the saved games' file names
	// (YYYY-MM-DD_<Table>_<n>.txt); "table" when empty.
	Table string
	// RecordTags, when set, gives header tags (Event, Table, Round…)
	// written into each finished game's record; the Date tag is the day
	// the game ended.
	RecordTags func() []engine.Tag
	// OnJournalSync, when set, is told how long each fsync of the
	// journal took (the daemon's metrics).
	OnJournalSync func(time.Duration)
	Logger        *slog.Logger
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
	// held are the inputs the journal has not yet taken (a full disk),
	// oldest first; degraded says why; pendingEnd is a game's end whose
	// input is journaled but which is not yet saved.
	held       []heldInput
	degraded   error
	pendingEnd *endedGame
	// lastAt is the time of the last input replayed or handled.
	lastAt time.Time
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
	var last uint64
	for seq := range t.savedGames() {
		last = max(last, seq)
	}
	return last
}

// savedGames maps the saved games by the number of their last event.
func (t *Table) savedGames() map[uint64]string { return SavedGames(t.opts.Dir) }

// SavedGames maps the saved games in dir/games (dir is a table's Opts.Dir),
// by the number of their last event, to their paths without extension
// (the record is PATH.txt, the snapshot PATH.json, the journal
// PATH.journal). A snapshot that does not parse is left out.
func SavedGames(dir string) map[uint64]string {
	out := map[uint64]string{}
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*.json"))
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "result-") {
			continue // a judge's verdict, kept beside the games
		}
		var legacy uint64
		if _, err := fmt.Sscanf(filepath.Base(f), "game-%d.json", &legacy); err == nil {
			// Named by its last event before games were named by date.
			out[legacy] = strings.TrimSuffix(f, ".json")
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var sg struct {
			Seq uint64 `json:"seq"`
		}
		if err := json.Unmarshal(b, &sg); err != nil || sg.Seq == 0 {
			continue
		}
		out[sg.Seq] = strings.TrimSuffix(f, ".json")
	}
	return out
}

// newSavedFile returns the path, without extension, for a game ending
// with event seq at time at: DIR/games/YYYY-MM-DD_<table>_<n>, n counting
// the table's games of that day from 1. A game saved before (an attempt
// that stopped half-way) keeps its name.
func (t *Table) newSavedFile(seq uint64, at time.Time) string {
	saved := t.savedGames()
	if base, ok := saved[seq]; ok {
		return base
	}
	name := t.opts.Table
	if name == "" {
		name = "table"
	}
	prefix := at.UTC().Format("2006-01-02") + "_" + name + "_"
	n := 1
	for _, base := range saved {
		if k, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(base), prefix)); err == nil && strings.HasPrefix(filepath.Base(base), prefix) && k >= n {
			n = k + 1
		}
	}
	return filepath.Join(t.opts.Dir, "games", prefix+strconv.Itoa(n))
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
	t := &Table{opts: opts, run: tablescript.NewRunner(referee.Opts{Caps: opts.Caps, Grace: opts.Grace}), log: opts.Logger}
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
	j.OnSync(opts.OnJournalSync)
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
		end := t.endOf(t.replay[n-1])
		if _, err := t.saveGame(end); err != nil {
			// Saved at the next try (Retry), as a game that ended on a
			// full disk; OnGameEnd says so then.
			t.degrade(err)
			t.pendingEnd = &end
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
		t.lastAt = laterOf(t.lastAt, in.At)
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
	if t.pendingEnd != nil {
		// Not saved yet (a full disk): OnGameEnd tells when it is. The
		// game saved before it is not this one, and is never offered.
		return GameEnd{}, false, nil
	}
	// A game that ended in this journal (its result event replayed) is
	// the one; else the journal began from the saved game's end.
	var seq uint64
	for i := len(t.replay) - 1; i >= 0 && seq == 0; i-- {
		if t.replay[i].Type == referee.EventResult {
			seq = t.replay[i].Seq
		}
	}
	if seq == 0 {
		seq = t.savedSeq
	}
	if seq == 0 {
		return GameEnd{}, false, nil
	}
	base, ok := t.savedGames()[seq]
	if !ok {
		return GameEnd{}, false, fmt.Errorf("saved game: none in %s ends with event %d", filepath.Join(t.opts.Dir, "games"), seq)
	}
	file := base + ".json"
	b, err := os.ReadFile(file)
	if err != nil {
		return GameEnd{}, false, fmt.Errorf("saved game: %w", err)
	}
	var sg SavedGame
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

// Replayed returns the events the journal's replay produced on open.
func (t *Table) Replayed() []referee.Event { return t.replay }

// Note returns the note of the last journal record replayed or written.
func (t *Table) Note() string { return t.note }

// Referee returns the table's referee, for reading only.
func (t *Table) Referee() *referee.Referee { return t.run.Referee }

// Handle journals one input, gives it to the referee, and hands the update
// to the sinks. The note, when not empty, is journaled with the input
// (a script's line number, to resume a script).
//
// When the journal cannot be written (a full disk), the table is
// degraded (Degraded): the input still goes to the referee, so that the
// game goes on in memory and the lights show it, but it is held, and its
// events with it (Update.Held), until the journal takes it; the table
// tries again at every input and at every Retry. Held events reach the
// sinks again, flushed (Update.Flushed), once their inputs are on disk. A
// game that ends meanwhile is saved then.
func (t *Table) Handle(in referee.Input, note string) ([]referee.Event, error) {
	t.flush()
	rec := t.record(note, tablescript.FormatInput(in))
	written := t.journal == nil
	if t.journal != nil && len(t.held) == 0 && t.pendingEnd == nil {
		if err := t.journal.Append(rec, false); err != nil {
			t.degrade(err)
		} else {
			written = true
		}
	}
	t.lastAt = laterOf(t.lastAt, in.At)
	events := t.run.Referee.Handle(in)
	durable := written
	if written && t.journal != nil && mustSync(in, events) {
		if err := t.journal.Sync(); err != nil {
			t.degrade(fmt.Errorf("journal %s: sync: %w", t.journal.Path(), err))
			durable = false
		}
	}
	var h *heldInput
	if !durable {
		t.held = append(t.held, heldInput{in: in, note: note, events: slices.Clone(events)})
		h = &t.held[len(t.held)-1]
		if !written {
			h.rec = rec
		}
	}
	u := t.update(in, events)
	u.Held = !durable
	t.fanout(&u)
	for _, e := range events {
		if e.Type != referee.EventResult {
			continue
		}
		end := t.endOf(e)
		if h != nil {
			h.end = &end
			continue
		}
		if err := t.gameOver(end); err != nil {
			// Kept and saved at the next try, as a held game's end.
			t.degrade(err)
			t.pendingEnd = &end
		}
	}
	return events, nil
}

// LastInput returns the time of the latest input the table has had,
// replayed from the journal or handled since (zero when none). A clock
// that feeds the table after a restart, such as a simulation's, must go on
// from it: an input timed before it would find the referee waiting for
// times it has already seen (a grace that ends in its future).
func (t *Table) LastInput() time.Time { return t.lastAt }

// laterOf returns the later of two times.
func laterOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Robots returns the robot partners of the game in play, by colour (a
// bot level, "" for a person), as the journal's robots line before the
// game's start gave them; ok is false when none came before it (a game
// started without one, or a journal older than such lines).
func (t *Table) Robots() (levels [engine.NumColours]string, ok bool) { return t.run.Robots() }

// Deadline returns when the referee wants an InputTimer if no other input
// comes first (referee.Referee.Deadline); the daemon feeds it then.
func (t *Table) Deadline() (time.Time, bool) { return t.run.Referee.Deadline() }

// heldInput is an input the referee has had that the journal has not yet
// taken (or not yet synced), with the events it caused.
type heldInput struct {
	in     referee.Input
	step   *tablescript.Step // a set-up line instead of an input
	note   string
	rec    []byte // the record to append; nil when appended, to sync
	events []referee.Event
	end    *endedGame // the game this input ended
}

// endedGame is what a game's end leaves to save, taken when it ends.
type endedGame struct {
	e       referee.Event
	game    *engine.Game
	players [engine.NumColours]string
}

func (t *Table) endOf(e referee.Event) endedGame {
	g := *t.run.Referee.Game()
	return endedGame{e: e, game: &g, players: t.run.Referee.Players()}
}

// Degraded returns how many inputs are held in memory and why the journal
// cannot be written now (nil when it can).
func (t *Table) Degraded() (held int, err error) {
	if t.degraded == nil && t.pendingEnd == nil {
		return 0, nil
	}
	return len(t.held), t.degraded
}

func (t *Table) degrade(err error) {
	if t.degraded == nil {
		t.log.Error("journal cannot be written: the game goes on in memory until it can", "err", err)
	}
	t.degraded = err
}

// Retry tries again to journal what is held; the daemon calls it every
// second or so while degraded.
func (t *Table) Retry() { t.flush() }

// flush journals the held inputs, in order, hands their events to the
// sinks (Update.Flushed), and saves a game that ended meanwhile.
func (t *Table) flush() {
	if t.journal == nil || (len(t.held) == 0 && t.pendingEnd == nil) {
		return
	}
	var flushed []referee.Event
	defer func() {
		if len(flushed) > 0 {
			u := t.update(referee.Input{}, flushed)
			u.Flushed = true
			t.fanout(&u)
		}
	}()
	for {
		if t.pendingEnd != nil {
			if err := t.gameOver(*t.pendingEnd); err != nil {
				t.degrade(err)
				return
			}
			t.pendingEnd = nil
			// The referee was rebuilt from the new journal: what it did
			// with the inputs held after the game's end is done again,
			// so that the events published are those a replay makes.
			if len(t.held) > 0 {
				t.redoHeld()
			}
		}
		if len(t.held) == 0 {
			break
		}
		h := &t.held[0]
		var err error
		if h.rec == nil {
			err = t.journal.Sync()
		} else {
			err = t.journal.Append(h.rec, true)
		}
		if err != nil {
			t.degrade(err)
			return
		}
		flushed = append(flushed, h.events...)
		if h.end != nil {
			t.pendingEnd = h.end
		}
		t.held = t.held[1:]
	}
	if t.degraded != nil {
		t.log.Info("journal written again: every input held is on disk")
		t.degraded = nil
	}
}

// redoHeld gives the held inputs again to the referee rebuilt after a
// game's end, their events replacing those made before.
func (t *Table) redoHeld() {
	for i := range t.held {
		h := &t.held[i]
		if h.step != nil {
			t.run.Input(*h.step)
			continue
		}
		h.events = slices.Clone(t.run.Referee.Handle(h.in))
		h.end = nil
		for _, e := range h.events {
			if e.Type == referee.EventResult {
				end := t.endOf(e)
				h.end = &end
			}
		}
	}
	u := t.update(referee.Input{}, nil)
	t.fanout(&u)
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
		t.flush()
		rec := t.record(note, tablescript.FormatSetup(st))
		if t.journal == nil {
			return nil, nil
		}
		if len(t.held) == 0 && t.pendingEnd == nil {
			err := t.journal.Append(rec, false)
			if err == nil {
				return nil, nil
			}
			t.degrade(err)
		}
		t.held = append(t.held, heldInput{step: &st, note: note, rec: rec})
		return nil, nil
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
	sc, err := tablescript.ReadAll(script)
	if err != nil {
		return err
	}
	for i, l := range sc.Lines {
		err := l.Err
		if err == nil && l.OK {
			t.run.SetAhead(sc.Ahead(i))
			var events []referee.Event
			events, err = t.Step(l.Step, "")
			for _, e := range events {
				if err := emit(e); err != nil {
					return err
				}
			}
		}
		if err != nil {
			return &tablescript.Error{Line: l.N, Text: l.Text, Err: err}
		}
	}
	return nil
}

// SetAhead tells the table's script runner the steps that follow the next
// one (tablescript.Runner.SetAhead).
func (t *Table) SetAhead(steps []tablescript.Step) { t.run.SetAhead(steps) }

// record returns one journal record: the note as a comment, then the
// script lines.
func (t *Table) record(note, lines string) []byte {
	t.note = note
	var b bytes.Buffer
	if note != "" {
		b.WriteString("# " + note + "\n")
	}
	b.WriteString(lines)
	return b.Bytes()
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
func (t *Table) gameOver(g endedGame) error {
	end, err := t.saveGame(g)
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
func (t *Table) saveGame(ended endedGame) (GameEnd, error) {
	e, g := ended.e, ended.game
	if t.opts.RecordTags != nil {
		for _, tag := range t.opts.RecordTags() {
			if tag.Value != "" {
				g.SetTag(tag.Key, tag.Value)
			}
		}
	}
	if !e.Time.IsZero() {
		g.SetTag("Date", e.Time.UTC().Format("2006.01.02"))
	}
	var rec bytes.Buffer
	g.WriteTo(&rec)
	end := GameEnd{Record: rec.Bytes(), Position: g.Pos, Players: ended.players, Seq: e.Seq, Time: e.Time}
	if t.journal == nil {
		return end, nil
	}
	if err := t.journal.Sync(); err != nil {
		return end, fmt.Errorf("journal: %w", err)
	}
	end.JournalHead = t.journal.Head()
	base := t.newSavedFile(e.Seq, e.Time)
	snap, err := json.MarshalIndent(SavedGame{
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
	if levels, ok := t.run.Robots(); ok {
		// The final position is still the ended game's, robots and all.
		first.WriteString(tablescript.FormatSetup(tablescript.Step{Verb: tablescript.VerbRobots, Robots: levels}) + "\n")
	}
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
	t.run = tablescript.NewRunner(referee.Opts{Caps: t.opts.Caps, Grace: t.opts.Grace})
	t.replay = nil
	err = t.replayRecord(first.Bytes())
	t.replay = keep
	if err != nil {
		return end, fmt.Errorf("journal %s: first record: %w", t.journal.Path(), err)
	}
	return end, nil
}

// SavedGame is the snapshot written at the end of a game beside its
// record (PATH.json beside PATH.txt): not signed, it is what the table
// offers for certification after a restart, and what parchis verify
// checks against the record and the archived journal.
type SavedGame struct {
	Seq         uint64                    `json:"seq"`
	Position    string                    `json:"position"`
	Result      string                    `json:"result"`
	Players     [engine.NumColours]string `json:"players"`
	JournalHead string                    `json:"journal_head"`
	Time        time.Time                 `json:"time"`
	Record      string                    `json:"record"`
}

// Close journals what it still holds if it can, and syncs and closes the
// journal.
func (t *Table) Close() error {
	if t.journal == nil {
		return nil
	}
	t.flush()
	if n := len(t.held); n > 0 {
		t.log.Error("stopping with inputs the journal could not take: they are lost", "inputs", n, "err", t.degraded)
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
