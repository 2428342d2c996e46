package judges

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// The club archive: a folder of game records (NOTATION.md), each
// YYYY-MM-DD_<table>_<n>.txt with the result beside it (.json, with the
// judge's verdict once given). The dashboard writes there every result it
// receives (Opts.Archive); a club may add the records its tables saved
// (DIR/games of parchisd). The archive page lists them, filtered by
// player, date and table, shows one with the board stepper, and downloads
// one record or a zip of those listed.

// archive is the dashboard's archive folder.
type archive struct {
	dir string

	mu     sync.Mutex
	byHash map[string]string // record hash → base name, of the results written
	cache  map[string]archived
}

// archived is one record of the archive as the list shows it.
type archived struct {
	Name                     string // file name, .txt
	Event, Date, Table       string
	Round                    string
	Players                  [engine.NumColours]string
	Result                   string // YR, BG or *
	Verdict, Judge           string // from the .json beside, if any
	mod                      time.Time
	err                      error
	YellowRed, BlueGreen     string
	ResultName, VerdictLabel string
}

func newArchive(dir string) (*archive, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("judges: archive: %w", err)
	}
	a := &archive{dir: dir, byHash: map[string]string{}, cache: map[string]archived{}}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		var r broadcast.Result
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &r) == nil && r.RecordSHA256 != "" {
			a.byHash[r.RecordSHA256] = strings.TrimSuffix(filepath.Base(f), ".json")
		}
	}
	return a, nil
}

// keep writes a result's record and the result into the archive, or
// updates the result (a verdict given) when its record is there already.
func (a *archive) keep(r *broadcast.Result) error {
	if r == nil || r.Record == "" || r.RecordSHA256 == "" {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	base, ok := a.byHash[r.RecordSHA256]
	if ok && r.Certification == nil {
		// Kept already; only a verdict adds anything (a result arrives on
		// result and on results/, and again on every connection).
		return nil
	}
	if !ok {
		date := r.Time.UTC().Format("2006-01-02")
		if g, err := engine.ReadRecord(strings.NewReader(r.Record)); err == nil {
			if d := g.Tag("Date"); len(d) == 10 {
				date = strings.ReplaceAll(d, ".", "-")
			}
		}
		table := safeName(r.Table)
		n := 1
		for {
			base = fmt.Sprintf("%s_%s_%d", date, table, n)
			if _, err := os.Stat(filepath.Join(a.dir, base+".txt")); os.IsNotExist(err) {
				break
			}
			n++
		}
		if err := writeFileAtomic(filepath.Join(a.dir, base+".txt"), []byte(r.Record)); err != nil {
			return err
		}
		a.byHash[r.RecordSHA256] = base
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(a.dir, base+".json"), b)
}

// safeName keeps a table's name fit for a file name.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '-'
		}
		return r
	}, s)
}

// writeFileAtomic writes a file whole or not at all.
func writeFileAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("judges: archive: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("judges: archive: %w", err)
	}
	return nil
}

// list reads the archive's records, newest first.
func (a *archive) list() []archived {
	files, _ := filepath.Glob(filepath.Join(a.dir, "*.txt"))
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []archived
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		name := filepath.Base(f)
		c, ok := a.cache[name]
		if !ok || !c.mod.Equal(st.ModTime()) {
			c = readArchived(f, st.ModTime())
			a.cache[name] = c
		}
		// The verdict may come after the record.
		if b, err := os.ReadFile(strings.TrimSuffix(f, ".txt") + ".json"); err == nil {
			var r broadcast.Result
			if json.Unmarshal(b, &r) == nil && r.Certification != nil {
				c.Verdict, c.Judge = r.Certification.Verdict, r.Certification.Judge
			}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y archived) int {
		if x.Date != y.Date {
			return strings.Compare(y.Date, x.Date)
		}
		return strings.Compare(y.Name, x.Name)
	})
	return out
}

// readArchived reads a record's header.
func readArchived(path string, mod time.Time) archived {
	c := archived{Name: filepath.Base(path), mod: mod}
	b, err := os.ReadFile(path)
	if err != nil {
		c.err = err
		return c
	}
	g, err := engine.ReadRecord(bytes.NewReader(b))
	if err != nil {
		c.err = err
		return c
	}
	c.Event, c.Table, c.Round, c.Result = g.Tag("Event"), g.Tag("Table"), g.Tag("Round"), g.Tag("Result")
	c.Date = strings.ReplaceAll(g.Tag("Date"), ".", "-")
	for col := engine.Colour(0); col < engine.NumColours; col++ {
		c.Players[col] = g.Tag(col.Name())
	}
	return c
}

// matches reports whether a record passes the list's filters.
func (c archived) matches(player, date, table string) bool {
	if date != "" && !strings.HasPrefix(c.Date, date) {
		return false
	}
	if table != "" && c.Table != table {
		return false
	}
	if player != "" {
		p := strings.ToLower(player)
		for _, n := range c.Players {
			if strings.Contains(strings.ToLower(n), p) {
				return true
			}
		}
		return false
	}
	return true
}

// filtered returns the records the request's filters pass.
func (a *archive) filtered(r *http.Request) (all []archived, player, date, table string) {
	q := r.URL.Query()
	player, date, table = strings.TrimSpace(q.Get("player")), strings.TrimSpace(q.Get("date")), strings.TrimSpace(q.Get("table"))
	for _, c := range a.list() {
		if c.matches(player, date, table) {
			all = append(all, c)
		}
	}
	return all, player, date, table
}

// serveArchive lists the archive.
func (s *Server) serveArchive(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(w, r, "")
	if s.archive == nil {
		http.Error(w, T(p.Lang, "no-archive"), http.StatusNotFound)
		return
	}
	p.Title = T(p.Lang, "archive")
	games, player, date, table := s.archive.filtered(r)
	for i := range games {
		g := &games[i]
		g.YellowRed = g.Players[engine.Yellow] + " · " + g.Players[engine.Red]
		g.BlueGreen = g.Players[engine.Blue] + " · " + g.Players[engine.Green]
		if g.Result == "YR" || g.Result == "BG" {
			g.ResultName = T(p.Lang, "pair."+g.Result)
		}
		if g.Verdict != "" {
			g.VerdictLabel = T(p.Lang, g.Verdict)
		}
	}
	s.render(w, http.StatusOK, "archive.html", struct {
		page
		Games               []archived
		Player, Date, Table string
		Query               string
	}{p, games, player, date, table, r.URL.RawQuery})
}

// archiveFile returns the path of a record of the archive named in the
// request, or "" when there is none such.
func (s *Server) archiveFile(name string) string {
	if s.archive == nil || name == "" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".txt") {
		return ""
	}
	path := filepath.Join(s.archive.dir, name)
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return path
}

// serveArchiveGame shows one game of the archive with the board stepper.
func (s *Server) serveArchiveGame(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(w, r, "")
	path := s.archiveFile(r.PathValue("name"))
	if path == "" {
		http.Error(w, T(p.Lang, "not-found"), http.StatusNotFound)
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		http.Error(w, T(p.Lang, "not-found"), http.StatusNotFound)
		return
	}
	var entries []entryView
	var start string
	g, rerr := engine.ReadRecordFunc(bytes.NewReader(b), func(line int, text string, pos engine.Position) {
		e := entryView{Seq: uint64(line), Type: "line", Text: text, Pos: pos.String()}
		f := strings.Fields(text)
		if len(f) >= 3 && !strings.HasPrefix(text, ";") {
			e.Colour = f[0]
			e.ColourName = colourName(p.Lang, f[0])
			e.Label = throwText(p.Lang, f[1])
			// A throw begins its line, and a turn when another colour's;
			// a bonus goes on the turn.
			e.Type = referee.EventThrow
			if strings.HasPrefix(f[1], "+") {
				e.Type = "bonus"
			}
			if _, err := engine.ParseMove(f[2]); err == nil {
				e.Move = f[2]
			}
		} else {
			e.Type, e.Label = "comment", "·"
			e.Text = commentText(p.Lang, strings.TrimSpace(strings.TrimPrefix(text, ";")))
			if strings.Contains(text, "infraction ") {
				e.Infraction = true
				e.Label = T(p.Lang, "event.infraction")
			}
			if strings.Contains(text, "judge set ") {
				e.Label = T(p.Lang, "event.correction")
			}
		}
		entries = append(entries, e)
	})
	head := archived{}
	if g != nil {
		head = readArchived(path, time.Time{})
		start = g.Start.String()
	}
	var board bytes.Buffer
	pos := (*engine.Position)(nil)
	if g != nil {
		pos = &g.Pos
	}
	var last string
	for i := len(entries) - 1; i >= 0 && last == ""; i-- {
		last = entries[i].Move
	}
	_ = WriteBoard(&board, pos, BoardOpts{Shared: true, Title: r.PathValue("name"), LastMove: last})
	p.Title = T(p.Lang, "archive") + " — " + r.PathValue("name")
	errText := ""
	if rerr != nil {
		errText = Detail(p.Lang, rerr.Error())
	}
	s.render(w, http.StatusOK, "archive-game.html", struct {
		page
		Name   string
		Head   archived
		Board  template.HTML
		Turns  []turnView
		Start  string
		Error  string
		Layout template.JS
	}{p, r.PathValue("name"), head, template.HTML(board.String()), groupTurns(entries), start, errText, layoutJSON})
}

// serveArchiveFile downloads one record.
func (s *Server) serveArchiveFile(w http.ResponseWriter, r *http.Request) {
	path := s.archiveFile(r.PathValue("name"))
	if path == "" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+filepath.Base(path)+`"`)
	http.ServeFile(w, r, path)
}

// serveArchiveZip downloads the records the filters pass, with their
// results, as a zip.
func (s *Server) serveArchiveZip(w http.ResponseWriter, r *http.Request) {
	if s.archive == nil {
		http.NotFound(w, r)
		return
	}
	games, _, _, _ := s.archive.filtered(r)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, g := range games {
		for _, name := range []string{g.Name, strings.TrimSuffix(g.Name, ".txt") + ".json"} {
			b, err := os.ReadFile(filepath.Join(s.archive.dir, name))
			if err != nil {
				continue
			}
			f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: g.mod})
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			_, _ = f.Write(b)
		}
	}
	if err := zw.Close(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", `attachment; filename="archivo-partidas.zip"`)
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = w.Write(buf.Bytes())
}

// keepResult writes a table's result into the archive.
func (s *Server) keepResult(id string, c *Checked) {
	if s.archive == nil || c.Problem != "" {
		return
	}
	if err := s.archive.keep(c.Result); err != nil {
		s.log.Error("judges: archive", "table", id, "err", err)
	}
}

// recordText returns a game record as a result's panel shows it in lang:
// in Spanish, its comment lines (infractions and judges' corrections,
// with their times) are said in Spanish as the archive says them
// (commentText); the header and the action lines, which are notation
// (NOTATION.md), are left as they are.
func recordText(lang, record string) string {
	if lang != LangES {
		return record
	}
	lines := strings.Split(record, "\n")
	for i, line := range lines {
		note, ok := strings.CutPrefix(line, ";")
		if !ok {
			continue
		}
		note = strings.TrimSpace(note)
		text := commentText(lang, note)
		if strings.HasPrefix(note, "judge set ") {
			text = T(lang, "event.correction") + ": " + text
		}
		lines[i] = "; " + text
	}
	return strings.Join(lines, "\n")
}

// commentText says a record's comment line in lang: an infraction
// ("HH:MM:SS infraction RULE COLOUR [MOVE]: DETAIL") or a judge's
// correction ("judge set PPN by NAME at HH:MM:SS") in words; any other
// comment as it is.
func commentText(lang, note string) string {
	if rest, ok := strings.CutPrefix(note, "judge set "); ok {
		f := strings.Fields(rest)
		if len(f) >= 6 {
			ppn, by := strings.Join(f[:6], " "), strings.Join(f[6:], " ")
			if name, at, ok := strings.Cut(strings.TrimPrefix(by, "by "), " at "); ok {
				return ppn + " — " + T(lang, "by") + " " + name + ", " + at
			}
			return ppn + " " + by
		}
		return note
	}
	at := ""
	if w, rest, ok := strings.Cut(note, " "); ok && len(w) == 8 && w[2] == ':' {
		at, note = w, rest
	}
	rest, ok := strings.CutPrefix(note, "infraction ")
	if !ok {
		if at != "" {
			return at + " " + note
		}
		return note
	}
	head, detail, _ := strings.Cut(rest, ": ")
	f := strings.Fields(head)
	var parts []string
	if at != "" {
		parts = append(parts, at)
	}
	if len(f) > 0 {
		parts = append(parts, T(lang, "rule."+f[0]))
	}
	if len(f) > 1 {
		parts = append(parts, colourName(lang, f[1]))
	}
	if len(f) > 2 {
		parts = append(parts, f[2])
	}
	out := strings.Join(parts, " · ")
	if detail != "" {
		out += ": " + Detail(lang, detail)
	}
	return out
}
