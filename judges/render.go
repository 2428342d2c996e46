package judges

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// cardFeed is how many events a table's card shows.
const cardFeed = 8

// playerView is one player as a card shows it.
type playerView struct {
	Letter, Colour, Name string
	Turn                 bool
	// Robot is the level of the robot partner playing the colour, or "".
	Robot string
}

// entryView is one line of a feed as a page shows it.
type entryView struct {
	Seq        uint64
	Type       string // event type, or "gap"
	Label      string // the type (or infraction) in words
	Colour     string // colour letter, or ""
	Text       string
	Detail     string
	Time       string
	Infraction bool
	// ColourName is the colour's name; Pos the position after the event
	// (PPN) and Move the move it made, for the history's stepper.
	ColourName string
	Pos, Move  string
}

// turnView is one turn of the history: the events of one colour's turn.
type turnView struct {
	Colour, ColourName string
	Entries            []entryView
}

// startsTurn reports whether an event begins a turn: a throw by another
// colour than the turn's.
func startsTurn(e entryView, cur string) bool {
	switch e.Type {
	case referee.EventThrow, referee.EventRethrow, referee.EventLost, referee.EventThirdSix, referee.EventStart:
		return e.Colour != "" && e.Colour != cur || e.Type == referee.EventStart
	}
	return false
}

// groupTurns groups a history, oldest first, by turn; events of no colour
// (a mismatch, a correction) stay in the turn they happened in.
func groupTurns(entries []entryView) []turnView {
	var out []turnView
	for _, e := range entries {
		cur := ""
		if len(out) > 0 {
			cur = out[len(out)-1].Colour
		}
		if len(out) == 0 || startsTurn(e, cur) {
			out = append(out, turnView{Colour: e.Colour, ColourName: e.ColourName})
		}
		t := &out[len(out)-1]
		t.Entries = append(t.Entries, e)
	}
	return out
}

// resultView is a table's result as a page shows it.
type resultView struct {
	Pair, PairName string
	Verdict        string // "", certified or rejected
	VerdictText    string
	Judge, Reason  string
	Record, Hash   string
	TableKey       string
	Time           string
	// Signature says how far the result is trusted: sig-registered,
	// sig-unregistered or sig-bad (then Problem says why, and it may not
	// be certified).
	Signature, SignatureText string
	Problem                  string
	// VerdictProblem says why the verdict's signature is not trusted.
	VerdictProblem string
	// Board is the final position drawn; the summary is the record's.
	Board                           template.HTML
	Moves, Infractions, Corrections int
	Duration                        string
	SummaryError                    string
	// Link is the table's page, where the verdict forms post;
	// Certifiable says a judge may certify or reject it now.
	Link, Table string
	Certifiable bool
	// Key tells a queued result's forms apart from the others on the page
	// (the first 16 digits of its hash); empty for the table's current
	// result.
	Key string
}

// cardView is everything a table's card shows.
type cardView struct {
	Lang        string
	ID, Link    string
	Event       string
	Table       string
	Status      string
	StatusText  string
	Board       template.HTML
	Turn        string
	TurnName    string
	Phase       string
	LastThrow   string
	Seq         uint64
	Players     []playerView
	Feed        []entryView
	Mismatch    string
	Infractions int
	Result      *resultView
	// Alerts are what the table says needs a judge's attention.
	Alerts []string
	// table is the table shown, for Queue.
	table *Table
	// CSRF is the signed-in judge's token, for the forms of a page (empty
	// in the event stream: the page fills it in).
	CSRF string
	// Win is the win chance of the position shown, nil when the table
	// sent none; Curve the game's curve.
	Win   *winView
	Curve *curveView
	// Robots names the colours robot partners play.
	Robots map[string]string
}

// winView is the evaluation bar: each pair's win chance in percent.
type winView struct {
	YR, BG int
	// YRTop and YRH place YR's part of the bar, from the bottom of a
	// 100-high box.
	YRTop, YRH string
	Text       string
	Interval   string
	Playouts   int
	Estimating bool // the position shown is newer than the estimate
}

// curveView is the game's curve: YR's win chance along the game, drawn in
// a 100×40 box, 50% on the middle line.
type curveView struct {
	Points string
	Last   string // x,y of the newest point
	N      int
}

// viewWin builds the evaluation bar from a state's win chance.
func viewWin(lang string, w *broadcast.WinChance, seq uint64) *winView {
	if w == nil {
		return nil
	}
	yr := int(math.Round(w.YR * 100))
	v := &winView{YR: yr, BG: 100 - yr, YRTop: fmt.Sprintf("%.1f", 100-w.YR*100), YRH: fmt.Sprintf("%.1f", w.YR*100), Playouts: w.Playouts,
		Estimating: w.Seq < seq}
	v.Text = fmt.Sprintf("%s %d%% · %s %d%%", T(lang, "pair.YR"), v.YR, T(lang, "pair.BG"), v.BG)
	v.Interval = fmt.Sprintf("%s: %s %.0f–%.0f%% (%d %s)", T(lang, "interval"), T(lang, "pair.YR"), w.YRLow*100, w.YRHigh*100, w.Playouts, T(lang, "playouts"))
	return v
}

// viewCurve draws the game's curve, at most 200 points.
func viewCurve(c []CurvePoint) *curveView {
	if len(c) < 2 {
		return nil
	}
	step := max(1, (len(c)+199)/200)
	first, last := float64(c[0].Seq), float64(c[len(c)-1].Seq)
	span := max(last-first, 1)
	var b strings.Builder
	v := &curveView{}
	add := func(p CurvePoint) {
		x, y := (float64(p.Seq)-first)/span*100, 40-p.YR*40
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.1f,%.1f", x, y)
		v.Last = fmt.Sprintf("%.1f,%.1f", x, y)
		v.N++
	}
	for i := 0; i < len(c)-1; i += step {
		add(c[i])
	}
	add(c[len(c)-1])
	v.Points = b.String()
	return v
}

// colourName returns a colour letter's name in lang.
func colourName(lang, letter string) string { return T(lang, "colour."+letter) }

// phaseText says what the side to move has to do.
func phaseText(lang string, p *engine.Position) string {
	ph := p.Phase()
	switch {
	case ph.IsDie():
		return T(lang, "phase.die") + " " + ph.String()
	case ph.IsBonus():
		return T(lang, "phase.bonus") + " " + ph.String()
	case ph.String() == "end":
		return T(lang, "phase.end")
	}
	return T(lang, "phase.throw")
}

// throwText says what a throw was, in lang.
func throwText(lang, throw string) string {
	if throw == "" {
		return ""
	}
	if throw[0] >= '1' && throw[0] <= '6' || throw[0] == '+' {
		return throw
	}
	return T(lang, "throw."+throw)
}

// viewEntry turns a feed entry into its page form.
func viewEntry(lang string, e Entry) entryView {
	if e.Gap != 0 {
		txt := strconv.FormatUint(e.Seq, 10)
		if e.Gap != e.Seq {
			txt += "–" + strconv.FormatUint(e.Gap, 10)
		}
		return entryView{Seq: e.Seq, Type: "gap", Label: T(lang, "gap"), Text: txt}
	}
	v := entryView{Seq: e.Seq, Type: e.Type, Label: T(lang, "event."+e.Type), Colour: e.Colour, Detail: Detail(lang, e.Detail),
		Pos: e.Position}
	if e.Colour != "" {
		v.ColourName = colourName(lang, e.Colour)
	}
	if e.Type == referee.EventMove {
		v.Move = e.Move
	}
	if !e.Time.IsZero() {
		v.Time = e.Time.Local().Format("15:04:05")
	}
	var parts []string
	if e.Colour != "" {
		parts = append(parts, colourName(lang, e.Colour))
	}
	switch e.Type {
	case referee.EventInfraction:
		v.Infraction = true
		v.Label = T(lang, "rule."+e.Rule)
		if e.Move != "" {
			parts = append(parts, e.Move)
		}
	case referee.EventThrow, referee.EventRethrow, referee.EventLost, referee.EventThirdSix:
		if e.Throw != "" {
			parts = append(parts, throwText(lang, e.Throw))
		}
		if e.Move != "" {
			parts = append(parts, e.Move)
		}
	case referee.EventMove:
		if e.Throw != "" {
			parts = append(parts, throwText(lang, e.Throw))
		}
		parts = append(parts, e.Move)
	case referee.EventResult:
		parts = append(parts, T(lang, "pair."+e.Result))
	case referee.EventCorrection:
		parts = append(parts, e.Position)
	}
	if len(e.Sites) > 0 {
		parts = append(parts, strings.Join(e.Sites, " "))
	}
	v.Text = strings.Join(parts, " · ")
	return v
}

// viewResult turns a table's result into its page form.
func viewResult(lang string, t *Table) *resultView {
	if t.Result == nil {
		return nil
	}
	return viewChecked(lang, t, t.current(), "")
}

// viewChecked turns one of a table's results into its page form; key
// tells its forms apart (empty for the current result).
func viewChecked(lang string, t *Table, c *Checked, key string) *resultView {
	r := c.Result
	v := &resultView{Pair: r.Result, PairName: T(lang, "pair."+r.Result), Record: recordText(lang, r.Record), Hash: r.RecordSHA256, TableKey: r.TableKey, VerdictText: T(lang, "awaiting"),
		Signature: "sig-unregistered", Problem: Detail(lang, c.Problem), VerdictProblem: Detail(lang, c.VerdictProblem), Key: key}
	switch {
	case c.Problem != "":
		v.Signature = "sig-bad"
	case c.KeyRegistered:
		v.Signature = "sig-registered"
	}
	v.SignatureText = T(lang, v.Signature)
	if !r.Time.IsZero() {
		v.Time = r.Time.Local().Format("2006-01-02 15:04")
	}
	if c := r.Certification; c != nil {
		v.Verdict, v.VerdictText, v.Judge, v.Reason = c.Verdict, T(lang, c.Verdict), c.Judge, c.Reason
	}
	v.Link, v.Table = "/t/"+t.Event+"/"+t.Table, t.Table
	v.Certifiable = r.Certification == nil && c.Problem == ""
	if p, err := engine.ParsePPN(r.Position); err == nil {
		var b bytes.Buffer
		_ = WriteBoard(&b, &p, BoardOpts{Shared: true, Title: T(lang, "final-position")})
		v.Board = template.HTML(b.String())
	}
	sum := Summarise(r.Record)
	v.Moves, v.Infractions, v.Corrections, v.Duration = sum.Moves, sum.Infractions, sum.Corrections, durationText(sum.Duration)
	if sum.Err != nil {
		v.SummaryError = Detail(lang, sum.Err.Error())
	}
	return v
}

// Queue turns the table's other results awaiting a judge into their page
// form, oldest first, each with its own verdict forms. Made only when a
// page shows them (the result panel), not for every card.
func (v cardView) Queue() []*resultView {
	if v.table == nil {
		return nil
	}
	var out []*resultView
	for _, c := range v.table.Queue {
		out = append(out, viewChecked(v.Lang, v.table, c, short(c.RecordSHA256)))
	}
	return out
}

// ResultSig sums up the table's results and their verdicts, current and
// queued: the page keeps its result panel while it is the same.
func (v cardView) ResultSig() string {
	if v.table == nil {
		return ""
	}
	var b strings.Builder
	sig := func(r *broadcast.Result) {
		b.WriteString(short(r.RecordSHA256))
		if c := r.Certification; c != nil {
			b.WriteString(":" + c.Verdict)
		}
		b.WriteByte(' ')
	}
	for _, q := range v.table.Queue {
		sig(q.Result)
	}
	if r := v.table.Result; r != nil {
		sig(r)
	}
	return strings.TrimSpace(b.String())
}

// short is the first 16 hex digits of a record's hash.
func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

// viewCard builds a table's card with its newest feed events, newest
// first (all of them when feed < 0).
func viewCard(lang string, t *Table, feed int) cardView {
	v := cardView{Lang: lang, ID: t.ID(), Link: "/t/" + t.Event + "/" + t.Table, Event: t.Event, Table: t.Table,
		Status: t.Status, Seq: t.LastSeq, Infractions: t.Infractions(), Result: viewResult(lang, t), Alerts: alertsIn(lang, t.Alerts),
		table: t}
	switch t.Status {
	case "online", "offline":
		v.StatusText = T(lang, t.Status)
	default:
		v.Status, v.StatusText = "unknown", T(lang, "unknown")
	}
	p := t.Pos()
	var players map[string]string
	var bo BoardOpts
	if t.State != nil {
		players = t.State.Players
		v.Robots = t.State.Robots
		bo.Lights, bo.Mismatch = t.State.Lights, t.State.Mismatch
		if t.State.Seq >= t.PositionSeq {
			v.Mismatch = strings.Join(t.State.Mismatch, " ")
		} else {
			bo.Mismatch = nil
		}
	}
	bo.Shared = true
	bo.Title = T(lang, "table") + " " + t.Table
	for i := len(t.Feed) - 1; i >= 0; i-- {
		if e := t.Feed[i]; e.Type == referee.EventMove && e.Seq <= t.PositionSeq {
			bo.LastMove = e.Move
			break
		}
	}
	var board bytes.Buffer
	_ = WriteBoard(&board, p, bo)
	v.Board = template.HTML(board.String())
	if p != nil {
		v.Turn = p.Turn().String()
		v.TurnName = colourName(lang, v.Turn)
		v.Phase = phaseText(lang, p)
	}
	v.LastThrow = throwText(lang, t.LastThrow)
	v.Curve = viewCurve(t.Curve)
	v.Win = viewWin(lang, t.Win, t.PositionSeq)
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		l := c.String()
		v.Players = append(v.Players, playerView{Letter: l, Colour: colourName(lang, l), Name: players[l], Turn: l == v.Turn, Robot: v.Robots[l]})
	}
	n := len(t.Feed)
	if feed >= 0 && n > feed {
		n = feed
	}
	for i := len(t.Feed) - 1; i >= len(t.Feed)-n; i-- {
		v.Feed = append(v.Feed, viewEntry(lang, t.Feed[i]))
	}
	return v
}

// pendingTables lists the tables with results awaiting a judge.
func pendingTables(all []*Table) []*Table {
	return slices.DeleteFunc(all, func(t *Table) bool { return t.Waiting() == 0 })
}

// streamMsg is the data of a "table" server-sent event.
type streamMsg struct {
	ID    string `json:"id"`
	Seq   uint64 `json:"seq"`
	Card  string `json:"card"`
	Entry string `json:"entry,omitempty"`
	// Pending, when the result changed, is the new list of results
	// awaiting certification.
	Pending *string `json:"pending,omitempty"`
	// Result is the table's result panel, when the result changed.
	Result *string `json:"result,omitempty"`
}

// renderChange renders a change as a server-sent event in lang, for the
// view a stream asked for.
func (s *Server) renderChange(c Change, lang, view string) []byte {
	if c.ID == standingsID {
		return []byte("event: standings\ndata: {}\n\n")
	}
	t, ok := s.store.Get(c.ID)
	if !ok {
		return nil
	}
	if view == viewTiles {
		round, pairs := s.roundOf(t)
		msg := tileEvent(viewTile(lang, t, round, pairs))
		// The state that follows an event seldom changes the tile: what
		// the pages have already is not sent again.
		key := lang + "\x00" + c.ID
		s.tilesMu.Lock()
		defer s.tilesMu.Unlock()
		if bytes.Equal(s.lastTile[key], msg) {
			return nil
		}
		if s.lastTile == nil {
			s.lastTile = map[string][]byte{}
		}
		s.lastTile[key] = msg
		return msg
	}
	m := streamMsg{ID: c.ID, Seq: c.Seq}
	var b bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&b, "card", viewCard(lang, t, cardFeed)); err != nil {
		s.log.Error("judges: render card", "err", err)
		return nil
	}
	m.Card = b.String()
	if c.Event != nil {
		b.Reset()
		if err := s.tmpl.ExecuteTemplate(&b, "entry", viewEntry(lang, *c.Event)); err == nil {
			m.Entry = b.String()
		}
	}
	if c.Result {
		b.Reset()
		if err := s.tmpl.ExecuteTemplate(&b, "pending", pendingData{Lang: lang, Tables: pendingTables(s.store.All())}); err == nil {
			p := b.String()
			m.Pending = &p
		}
		b.Reset()
		if err := s.tmpl.ExecuteTemplate(&b, "result", viewCard(lang, t, 0)); err == nil {
			r := b.String()
			m.Result = &r
		}
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	out := make([]byte, 0, len(data)+32)
	out = append(out, "event: table\ndata: "...)
	out = append(out, data...)
	return append(out, "\n\n"...)
}

// pendingData is the data of the "pending" template.
type pendingData struct {
	Lang   string
	Tables []*Table
}

// verdictData is the data of the "verdict" template: one result's panel
// with its verdict forms, whose ids end in Suffix.
type verdictData struct {
	Lang, CSRF, Suffix string
	R                  *resultView
}

// parseTemplates parses the embedded page templates.
func parseTemplates() (*template.Template, error) {
	funcs := template.FuncMap{
		"t":          T,
		"colourName": colourName,
		"pairName":   func(lang, p string) string { return T(lang, "pair."+p) },
		"defs":       BoardDefs,
		"add":        func(a, b int) int { return a + b },
		"sub":        func(a, b int) int { return a - b },
		"verdictData": func(lang, csrf string, r *resultView) verdictData {
			d := verdictData{Lang: lang, CSRF: csrf, R: r}
			if r.Key != "" {
				d.Suffix = "-" + r.Key
			}
			return d
		},
		"emptyTile": func(lang string) tileCard {
			var b strings.Builder
			_ = WriteBoard(&b, nil, BoardOpts{Shared: true})
			return tileCard{Lang: lang, Tile: Tile{Need: NeedLive, Status: "unknown"}, Board: template.HTML(b.String())}
		},
	}
	return template.New("").Funcs(funcs).ParseFS(templates, "assets/*.html")
}

// alertsIn says a table's alerts (parchisd's daemon.alerts) in lang.
func alertsIn(lang string, alerts []string) []string {
	if lang != LangES || len(alerts) == 0 {
		return alerts
	}
	out := make([]string, len(alerts))
	for i, a := range alerts {
		out[i] = Detail(lang, a)
	}
	return out
}
