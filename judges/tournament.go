package judges

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/tournament"
)

// standingsID is the hub's change that says the standings changed.
const standingsID = "#standings"

// viewStandings asks the event stream for the standings only.
const viewStandings = "standings"

// tour is the dashboard's tournament: the event, the certified results
// that feed its standings, and the round each table plays.
type tour struct {
	mu      sync.Mutex
	ev      *tournament.Event
	results map[string]tournament.Result // by record hash
	order   []string                     // record hashes, as certified
	tables  map[string]string            // table id → round it plays
	started map[int]bool                 // rounds started
	updated time.Time
}

func newTour(ev *tournament.Event) *tour {
	return &tour{ev: ev, results: map[string]tournament.Result{}, tables: map[string]string{}, started: map[int]bool{}}
}

// StandingsFeed is the JSON published retained on
// parchis/v1/<event>/standings.
type StandingsFeed struct {
	Event string `json:"event"`
	Name  string `json:"name,omitempty"`
	// Round is the last round with a certified result; Rounds how many
	// the tournament has.
	Round     int                   `json:"round"`
	Rounds    int                   `json:"rounds"`
	Win       int                   `json:"win"`
	Loss      int                   `json:"loss"`
	Standings []tournament.Standing `json:"standings"`
	// Games are the games drawn so far with their certified results.
	Games   []GameResult `json:"games"`
	Updated time.Time    `json:"updated"`
}

// GameResult is a game of the tournament and its certified result, if
// any.
type GameResult struct {
	tournament.Game
	Winner string `json:"winner,omitempty"`
	GoalYR int    `json:"goal_yr,omitempty"`
	GoalBG int    `json:"goal_bg,omitempty"`
}

// resultsUpTo returns the certified results of rounds ≤ round (all when
// round is 0), in the order they were certified.
func (tr *tour) resultsUpTo(round int) []tournament.Result {
	var out []tournament.Result
	for _, h := range tr.order {
		if r := tr.results[h]; round == 0 || r.Round <= round {
			out = append(out, r)
		}
	}
	return out
}

// feedOf builds the standings after round (0: all rounds); the lock is
// held.
func (tr *tour) feedOf(round int) StandingsFeed {
	rs := tr.resultsUpTo(round)
	st, _ := tr.ev.Standings(rs)
	f := StandingsFeed{Event: tr.ev.Event, Name: tr.ev.Name, Rounds: tr.ev.NumRounds, Win: tr.ev.Win, Loss: tr.ev.Loss,
		Standings: st, Updated: tr.updated}
	won := map[string]tournament.Result{}
	for _, r := range rs {
		won[strconv.Itoa(r.Round)+"/"+r.Table] = r
		f.Round = max(f.Round, r.Round)
	}
	for _, games := range tr.ev.Rounds {
		for _, g := range games {
			if round != 0 && g.Round > round {
				continue
			}
			gr := GameResult{Game: g}
			if r, ok := won[strconv.Itoa(g.Round)+"/"+g.Table]; ok {
				gr.Winner, gr.GoalYR, gr.GoalBG = r.Winner, r.GoalYR, r.GoalBG
			}
			f.Games = append(f.Games, gr)
		}
	}
	return f
}

// goalsOf counts each side's pieces in its goals in a final position.
func goalsOf(ppn string) (yr, bg int) {
	p, err := engine.ParsePPN(ppn)
	if err != nil {
		return 0, 0
	}
	count := func(c engine.Colour) int { n, _, _ := p.Occupants(engine.GoalSite(c)); return n }
	return count(engine.Yellow) + count(engine.Red), count(engine.Blue) + count(engine.Green)
}

// roundOfResult finds which game of the tournament a result is: the
// record's Round tag, else the game at its table whose players it names.
func (tr *tour) roundOfResult(r *broadcast.Result) (int, bool) {
	if g, err := engine.ReadRecord(strings.NewReader(r.Record)); err == nil {
		if n, err := strconv.Atoi(g.Tag("Round")); err == nil {
			if _, ok := tr.ev.Game(n, r.Table); ok {
				return n, true
			}
		}
	}
	for _, games := range tr.ev.Rounds {
		for _, g := range games {
			if g.Table != r.Table {
				continue
			}
			want := tr.ev.Players(g)
			same := true
			for k, v := range want {
				if r.Players[k] != v {
					same = false
				}
			}
			if same {
				return g.Round, true
			}
		}
	}
	return 0, false
}

// noteResult takes a table's result into the standings once a trusted
// judge has certified it, and publishes the standings when they change.
func (s *Server) noteResult(id string, checked *Checked) {
	if s.tour == nil {
		return
	}
	t, ok := s.store.Get(id)
	if !ok || t.Event != s.tour.ev.Event {
		return
	}
	r := checked.Result
	c := r.Certification
	if c == nil || c.Verdict != broadcast.VerdictCertified || checked.VerdictProblem != "" || checked.Problem != "" {
		return
	}
	tr := s.tour
	tr.mu.Lock()
	if _, seen := tr.results[r.RecordSHA256]; seen {
		tr.mu.Unlock()
		return
	}
	round, ok := tr.roundOfResult(r)
	if !ok {
		tr.mu.Unlock()
		s.log.Warn("judges: a certified result that is no game of the tournament", "table", id, "players", r.Players)
		return
	}
	yr, bg := goalsOf(r.Position)
	tr.results[r.RecordSHA256] = tournament.Result{Round: round, Table: t.Table, Winner: r.Result, GoalYR: yr, GoalBG: bg}
	tr.order = append(tr.order, r.RecordSHA256)
	tr.tables[id] = strconv.Itoa(round)
	tr.started[round] = true
	tr.updated = time.Now().UTC()
	tr.mu.Unlock()
	s.log.Info("judges: standings: result counted", "table", id, "round", round, "winner", r.Result)
	s.publishStandings()
}

// publishStandings publishes the standings, retained, and tells the open
// pages.
func (s *Server) publishStandings() {
	s.tour.mu.Lock()
	f := s.tour.feedOf(0)
	s.tour.mu.Unlock()
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	s.feed.publishRetained("parchis/"+broadcast.Version+"/"+f.Event+"/"+broadcast.TopicStandings, b)
	s.hub.publish(Change{ID: standingsID})
}

// roundOf returns the tournament round table t plays and the pairs of
// its game there ("Los Dados – Barrera", Yellow and Red first), or "".
func (s *Server) roundOf(t *Table) (round, pairs string) {
	if s.tour == nil {
		return "", ""
	}
	s.tour.mu.Lock()
	defer s.tour.mu.Unlock()
	round = s.tour.tables[t.ID()]
	n, _ := strconv.Atoi(round)
	if g, ok := s.tour.ev.Game(n, t.Table); ok {
		yr, _ := s.tour.ev.Pair(g.YR)
		bg, _ := s.tour.ev.Pair(g.BG)
		pairs = yr.Label() + " – " + bg.Label()
	}
	return round, pairs
}

// standingsPage is the data of the standings pages.
type standingsPage struct {
	page
	Feed   StandingsFeed
	Round  int // shown: after this round, 0 for all
	Rounds []int
	Next   int // the next round a judge may start, 0 when none
	// ByRound are the games, round by round.
	ByRound [][]gameView
}

// gameView is a game as the standings page shows it.
type gameView struct {
	Round         int
	Table         string
	YR, BG        string // the pairs' names
	Winner        string // "YR", "BG" or ""
	GoalYR, GoalB int
}

func (s *Server) standingsData(w http.ResponseWriter, r *http.Request) (standingsPage, bool) {
	p := s.newPage(w, r, "")
	if s.tour == nil {
		http.Error(w, T(p.Lang, "no-tournament"), http.StatusNotFound)
		return standingsPage{}, false
	}
	round, _ := strconv.Atoi(r.URL.Query().Get("round"))
	tr := s.tour
	tr.mu.Lock()
	defer tr.mu.Unlock()
	f := tr.feedOf(round)
	d := standingsPage{page: p, Feed: f, Round: round}
	d.Title = T(p.Lang, "standings")
	for i := 1; i <= tr.ev.NumRounds; i++ {
		d.Rounds = append(d.Rounds, i)
	}
	if n := len(tr.ev.Rounds); n < tr.ev.NumRounds || n == 0 {
		d.Next = n + 1
	}
	for i := 1; i <= len(tr.ev.Rounds); i++ {
		if !tr.started[i] {
			d.Next = i
			break
		}
	}
	for _, g := range f.Games {
		for len(d.ByRound) < g.Round {
			d.ByRound = append(d.ByRound, nil)
		}
		yr, _ := tr.ev.Pair(g.YR)
		bg, _ := tr.ev.Pair(g.BG)
		d.ByRound[g.Round-1] = append(d.ByRound[g.Round-1], gameView{Round: g.Round, Table: g.Table, YR: yr.Label(), BG: bg.Label(),
			Winner: g.Winner, GoalYR: g.GoalYR, GoalB: g.GoalBG})
	}
	return d, true
}

// serveStandings is the public, read-only standings page.
func (s *Server) serveStandings(w http.ResponseWriter, r *http.Request) {
	d, ok := s.standingsData(w, r)
	if !ok {
		return
	}
	s.render(w, http.StatusOK, "standings.html", d)
}

// serveStandingsPrint is the standings as a page to print.
func (s *Server) serveStandingsPrint(w http.ResponseWriter, r *http.Request) {
	d, ok := s.standingsData(w, r)
	if !ok {
		return
	}
	s.render(w, http.StatusOK, "standings-print.html", d)
}

// serveStandingsCSV exports the standings as CSV.
func (s *Server) serveStandingsCSV(w http.ResponseWriter, r *http.Request) {
	d, ok := s.standingsData(w, r)
	if !ok {
		return
	}
	lang := d.Lang
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	_ = cw.Write([]string{T(lang, "csv.rank"), T(lang, "csv.pair"), T(lang, "csv.name"), T(lang, "csv.club"), T(lang, "csv.player1"), T(lang, "csv.player2"),
		T(lang, "csv.played"), T(lang, "csv.won"), T(lang, "csv.lost"), T(lang, "csv.points"), T(lang, "csv.h2h"), T(lang, "csv.goal")})
	for _, st := range d.Feed.Standings {
		_ = cw.Write([]string{strconv.Itoa(st.Rank), st.ID, st.Name, st.Club, st.Players[0], st.Players[1],
			strconv.Itoa(st.Played), strconv.Itoa(st.Won), strconv.Itoa(st.Lost), strconv.Itoa(st.Points), strconv.Itoa(st.HeadToHead), strconv.Itoa(st.Goal)})
	}
	cw.Flush()
	name := d.Feed.Event + "-clasificacion"
	if d.Round > 0 {
		name += "-ronda-" + strconv.Itoa(d.Round)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
	_, _ = w.Write(b.Bytes())
}

// serveStartRound starts a round: draws it if the file leaves it to the
// dashboard, then sends each of its tables a new-game command with the
// players' names and the round.
func (s *Server) serveStartRound(w http.ResponseWriter, r *http.Request) {
	lang := pickLang(r, s.opts.Lang)
	ss := s.session(r)
	if ss == nil {
		http.Redirect(w, r, "/login?next=/standings", http.StatusSeeOther)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil || !sameToken(ss.csrf, r.PostFormValue("csrf")) {
		http.Error(w, T(lang, "bad-form"), http.StatusForbidden)
		return
	}
	if s.tour == nil {
		http.Error(w, T(lang, "no-tournament"), http.StatusNotFound)
		return
	}
	round, err := strconv.Atoi(r.PostFormValue("round"))
	if err != nil {
		http.Error(w, T(lang, "bad-form"), http.StatusBadRequest)
		return
	}
	failed, err := s.StartRound(r.Context(), ss.judge, round)
	switch {
	case err != nil:
		s.sessions.setFlash(ss, T(lang, "round-not-started")+": "+err.Error(), false)
	case len(failed) > 0:
		s.sessions.setFlash(ss, fmt.Sprintf(T(lang, "round-started-partly"), round)+" "+strings.Join(failed, "; "), false)
	default:
		s.sessions.setFlash(ss, fmt.Sprintf(T(lang, "round-started"), round), true)
	}
	http.Redirect(w, r, "/standings", http.StatusSeeOther)
}

// StartRound draws round (when the file leaves it to the draw) and sends
// each of its tables a new-game command naming the players and the round;
// it returns what each table that refused said.
func (s *Server) StartRound(ctx context.Context, j *judge, round int) ([]string, error) {
	tr := s.tour
	tr.mu.Lock()
	games, err := tr.ev.DrawRound(round, tr.resultsUpTo(0))
	if err == nil && round > len(tr.ev.Rounds) {
		err = tr.ev.AddRound(games)
	}
	var players []map[string]string
	for _, g := range games {
		players = append(players, tr.ev.Players(g))
	}
	tr.mu.Unlock()
	if err != nil {
		return nil, err
	}
	var failed []string
	for i, g := range games {
		id := tr.ev.Event + "/" + g.Table
		t, ok := s.store.Get(id)
		if !ok {
			t = &Table{Event: tr.ev.Event, Table: g.Table}
		}
		form := map[string][]string{"starter": {"Y"}, "force": {"on"}, "round": {strconv.Itoa(round)}}
		for k, v := range players[i] {
			form["player-"+k] = []string{v}
		}
		if err := s.act(ctx, j, t, broadcast.CmdNewGame, form); err != nil {
			failed = append(failed, T(s.opts.Lang, "table")+" "+g.Table+": "+actionMessage(s.opts.Lang, err))
			continue
		}
		tr.mu.Lock()
		tr.tables[id] = strconv.Itoa(round)
		tr.started[round] = true
		tr.mu.Unlock()
		s.hub.publish(Change{ID: id})
	}
	s.hub.publish(Change{ID: standingsID})
	return failed, nil
}
