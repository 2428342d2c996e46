package judges

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
)

// routes builds the dashboard's handler.
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.serveIndex)
	m.HandleFunc("GET /t/{event}/{table}", s.serveTable)
	m.HandleFunc("GET /t/{event}/{table}/board.svg", s.serveBoard)
	m.HandleFunc("GET /t/{event}/{table}/preview", s.servePreview)
	m.HandleFunc("POST /t/{event}/{table}/{action}", s.serveAction)
	m.HandleFunc("GET /login", s.serveLogin)
	m.HandleFunc("POST /login", s.serveLoginPost)
	m.HandleFunc("POST /logout", s.serveLogout)
	m.HandleFunc("GET /events", s.serveEvents)
	m.HandleFunc("GET /api/tables", s.serveAPITables)
	m.HandleFunc("GET /archive", s.serveArchive)
	m.HandleFunc("GET /archive.zip", s.serveArchiveZip)
	m.HandleFunc("GET /archive/g/{name}", s.serveArchiveGame)
	m.HandleFunc("GET /archive/f/{name}", s.serveArchiveFile)
	m.HandleFunc("GET /standings", s.serveStandings)
	m.HandleFunc("GET /standings.csv", s.serveStandingsCSV)
	m.HandleFunc("GET /standings/print", s.serveStandingsPrint)
	m.HandleFunc("POST /tournament/start-round", s.serveStartRound)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
	m.HandleFunc("GET /static/{file}", serveStatic)
	return m
}

// serveStatic serves one of the static assets, and nothing else: no
// listing, no template.
func serveStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	f, err := staticFS().Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	rs, ok := f.(io.ReadSeeker)
	if err != nil || st.IsDir() || !ok {
		http.NotFound(w, r)
		return
	}
	http.ServeContent(w, r, name, st.ModTime(), rs)
}

// page is the data every page's head needs.
type page struct {
	Lang, Title       string
	Judge, CSRF       string
	Flash             string
	FlashOK           bool
	NTables, NOffline int
	// Tournament says the dashboard runs one (its standings are linked);
	// Archive that it keeps an archive.
	Tournament, Archive bool
}

// session returns the request's session, or nil.
func (s *Server) session(r *http.Request) *session {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil
	}
	return s.sessions.get(c.Value)
}

// newPage fills the head's data and remembers a language chosen with
// ?lang=.
func (s *Server) newPage(w http.ResponseWriter, r *http.Request, title string) page {
	p := page{Lang: pickLang(r, s.opts.Lang), Title: title, Tournament: s.tour != nil, Archive: s.archive != nil}
	if l := r.URL.Query().Get("lang"); validLang(l) {
		http.SetCookie(w, cookie(r, langCookie, l, 365*24*3600))
	}
	if ss := s.session(r); ss != nil {
		p.Judge, p.CSRF = ss.judge.name, ss.csrf
		p.Flash, p.FlashOK = s.sessions.takeFlash(ss)
	}
	for _, t := range s.store.All() {
		p.NTables++
		if t.Offline() {
			p.NOffline++
		}
	}
	return p
}

func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var b bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		s.log.Error("judges: render", "page", name, "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	p := s.newPage(w, r, "")
	all := s.store.All()
	tiles := make([]tileCard, len(all))
	for i, t := range all {
		round, pairs := s.roundOf(t)
		tiles[i] = viewTileCard(p.Lang, t, round, pairs)
	}
	sort.SliceStable(tiles, func(i, j int) bool { return lessTile(tiles[i].Tile, tiles[j].Tile) })
	rounds := map[string]bool{}
	var roundList []string
	for _, tc := range tiles {
		if tc.Round != "" && !rounds[tc.Round] {
			rounds[tc.Round] = true
			roundList = append(roundList, tc.Round)
		}
	}
	sort.Strings(roundList)
	s.render(w, http.StatusOK, "index.html", struct {
		page
		Tiles   []tileCard
		Rounds  []string
		Layout  template.JS
		Pending pendingData
	}{p, tiles, roundList, layoutJSON, pendingData{Lang: p.Lang, Tables: pendingTables(all)}})
}

// tableID returns the store id of the table in the request's path.
func tableID(r *http.Request) string { return r.PathValue("event") + "/" + r.PathValue("table") }

func (s *Server) serveTable(w http.ResponseWriter, r *http.Request) {
	t, ok := s.store.Get(tableID(r))
	p := s.newPage(w, r, "")
	if !ok {
		http.Error(w, T(p.Lang, "not-found"), http.StatusNotFound)
		return
	}
	p.Title = T(p.Lang, "table") + " " + t.Table
	card := viewCard(p.Lang, t, cardFeed)
	card.CSRF = p.CSRF
	all := viewCard(p.Lang, t, -1)
	slices.Reverse(all.Feed)
	var eb bytes.Buffer
	_ = WriteBoard(&eb, t.Pos(), BoardOpts{Shared: true, Title: T(p.Lang, "edit-board")})
	s.render(w, http.StatusOK, "table.html", struct {
		page
		Card      cardView
		Turns     []turnView
		Position  string
		Layout    template.JS
		EditBoard template.HTML
		Dice      []int
		// Levels are the robot partners a new game may seat.
		Levels []string
	}{p, card, groupTurns(all.Feed), t.Position, layoutJSON, template.HTML(eb.String()), []int{1, 2, 3, 4, 5, 6}, bots.Levels})
}

func (s *Server) serveBoard(w http.ResponseWriter, r *http.Request) {
	t, ok := s.store.Get(tableID(r))
	if !ok {
		http.NotFound(w, r)
		return
	}
	var o BoardOpts
	if t.State != nil {
		o.Lights, o.Mismatch = t.State.Lights, t.State.Mismatch
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	_ = WriteBoard(w, t.Pos(), o)
}

func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) {
	s.loginPage(w, r, http.StatusOK, "")
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	p := s.newPage(w, r, "")
	p.Title = T(p.Lang, "sign-in")
	tok := randomToken()
	http.SetCookie(w, cookie(r, loginCSRF, tok, 3600))
	next := r.FormValue("next")
	s.render(w, status, "login.html", struct {
		page
		LoginCSRF, Next, Error string
	}{p, tok, safeNext(next), msg})
}

func (s *Server) serveLoginPost(w http.ResponseWriter, r *http.Request) {
	lang := pickLang(r, s.opts.Lang)
	c, err := r.Cookie(loginCSRF)
	if err != nil || !sameToken(c.Value, r.PostFormValue("csrf")) {
		http.Error(w, T(lang, "bad-form"), http.StatusForbidden)
		return
	}
	user, pw := r.PostFormValue("user"), r.PostFormValue("password")
	if wait := s.throttle.wait(user, r.RemoteAddr); wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		s.log.Warn("judges: sign-in refused: too many failures", "user", user, "remote", r.RemoteAddr, "retry_after_s", secs)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.loginPage(w, r, http.StatusTooManyRequests, fmt.Sprintf(T(lang, "too-many-tries"), secs))
		return
	}
	j := s.judges[user]
	hash := dummyHash
	if j != nil {
		hash = j.hash
	}
	// Hash even for an unknown user, so the answer takes as long.
	if !CheckPassword(hash, pw) || j == nil {
		wait := s.throttle.failed(user, r.RemoteAddr)
		s.log.Warn("judges: failed sign-in", "user", user, "remote", r.RemoteAddr, "next_try_in", wait)
		s.loginPage(w, r, http.StatusUnauthorized, T(lang, "bad-login"))
		return
	}
	s.throttle.succeeded(user, r.RemoteAddr)
	tok, _ := s.sessions.open(j)
	http.SetCookie(w, cookie(r, sessionCookie, tok, int(DefaultSession/time.Second)))
	http.SetCookie(w, cookie(r, loginCSRF, "", -1))
	s.log.Info("judges: signed in", "judge", j.name, "remote", r.RemoteAddr)
	http.Redirect(w, r, safeNext(r.PostFormValue("next")), http.StatusSeeOther)
}

// dummyHash is checked against for unknown users.
var dummyHash = func() string {
	h, err := hashWith("", make([]byte, saltLen), hashIterations)
	if err != nil {
		panic(err)
	}
	return h
}()

// serveLogout ends the session. Another site's form cannot sign a judge
// out: the session's CSRF token is required, as for every action.
func (s *Server) serveLogout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil {
		if ss := s.sessions.get(c.Value); ss != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxForm)
			if !sameToken(ss.csrf, r.PostFormValue("csrf")) {
				http.Error(w, T(pickLang(r, s.opts.Lang), "bad-form"), http.StatusForbidden)
				return
			}
			s.sessions.close(c.Value)
		}
	}
	http.SetCookie(w, cookie(r, sessionCookie, "", -1))
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// ActionError is a judge's action refused before it reached the table, or
// refused by the table; Key names its message in the catalogue.
type ActionError struct {
	Key    string
	Detail string
	Err    error
}

func (e *ActionError) Error() string {
	if e.Detail == "" {
		return e.Key
	}
	return e.Key + ": " + e.Detail
}

func (e *ActionError) Unwrap() error { return e.Err }

// fetchHeader marks a judge's form sent by the page's script, which wants
// a JSON answer instead of a redirect.
const fetchHeader = "X-Parchis-Fetch"

// maxForm bounds a judge's form.
const maxForm = 16 << 10

// ParseAction turns a judge's form into the command it asks for, without
// the id, the judge or the certification's signature. The result is the
// one the form names (its record's hash), needed for certify and reject.
func ParseAction(action string, form url.Values, result *broadcast.Result) (broadcast.Command, error) {
	var c broadcast.Command
	switch action {
	case broadcast.CmdCertify, broadcast.CmdReject:
		if result == nil {
			return c, &ActionError{Key: "no-result"}
		}
		if result.Certification != nil {
			return c, &ActionError{Key: "already"}
		}
		// The verdict is on the result the judge saw: if another replaced
		// it meanwhile, nothing is signed.
		if form.Get("record") != result.RecordSHA256 {
			return c, &ActionError{Key: "result-changed"}
		}
		c.Type, c.RecordSHA256 = action, result.RecordSHA256
		v := broadcast.VerdictCertified
		reason := strings.TrimSpace(form.Get("reason"))
		if action == broadcast.CmdReject {
			v = broadcast.VerdictRejected
			if reason == "" {
				return c, &ActionError{Key: "bad-form", Detail: "reason"}
			}
		}
		if len(reason) > 500 {
			return c, &ActionError{Key: "bad-form", Detail: "reason"}
		}
		c.Certification = &broadcast.Certification{Verdict: v, Reason: reason}
	case broadcast.CmdCorrect:
		ppn := strings.TrimSpace(form.Get("position"))
		if _, err := engine.ParsePPN(ppn); err != nil {
			return c, &ActionError{Key: "bad-position", Detail: err.Error(), Err: err}
		}
		c.Type, c.Position = action, ppn
	case broadcast.CmdNewGame:
		c.Type = action
		c.Players = map[string]string{}
		for col := engine.Colour(0); col < engine.NumColours; col++ {
			name := strings.TrimSpace(form.Get("player-" + col.String()))
			if name == "" || len(name) > 80 || strings.ContainsAny(name, "\r\n") {
				return c, &ActionError{Key: "bad-form", Detail: "player " + col.String()}
			}
			c.Players[col.String()] = name
			// Each colour is a person's or a robot's, always said, so
			// that a judge can also take a configured robot's seat back.
			level := form.Get("bot-" + col.String())
			if level == "" {
				level = bots.Person
			}
			if _, err := bots.New(level, 0); err != nil && level != bots.Person {
				return c, &ActionError{Key: "bad-form", Detail: "bot " + col.String(), Err: err}
			}
			if c.Bots == nil {
				c.Bots = map[string]string{}
			}
			c.Bots[col.String()] = level
		}
		st, err := engine.ParseColour(form.Get("starter"))
		if err != nil {
			return c, &ActionError{Key: "bad-form", Detail: "starter", Err: err}
		}
		c.Starter = st.String()
		c.Round = strings.TrimSpace(form.Get("round"))
		if len(c.Round) > 40 || strings.ContainsAny(c.Round, "\r\n\"") {
			return c, &ActionError{Key: "bad-form", Detail: "round"}
		}
	default:
		return c, &ActionError{Key: "bad-form", Detail: "action " + action}
	}
	return c, nil
}

func (s *Server) serveAction(w http.ResponseWriter, r *http.Request) {
	lang := pickLang(r, s.opts.Lang)
	ss := s.session(r)
	if ss == nil {
		http.Redirect(w, r, "/login?next="+url.QueryEscape("/t/"+r.PathValue("event")+"/"+r.PathValue("table")), http.StatusSeeOther)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil || !sameToken(ss.csrf, r.PostFormValue("csrf")) {
		http.Error(w, T(lang, "bad-form"), http.StatusForbidden)
		return
	}
	t, ok := s.store.Get(tableID(r))
	if !ok {
		http.Error(w, T(lang, "not-found"), http.StatusNotFound)
		return
	}
	back := "/t/" + t.Event + "/" + t.Table
	err := s.act(r.Context(), ss.judge, t, r.PathValue("action"), r.PostForm)
	if r.Header.Get(fetchHeader) != "" {
		// The page sent the form itself and stays: it is told the outcome,
		// and the table's answer reaches it on the event stream.
		reply := struct {
			OK      bool   `json:"ok"`
			Message string `json:"message"`
		}{err == nil, T(lang, "ok")}
		if err != nil {
			reply.Message = actionMessage(lang, err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(reply)
		return
	}
	if err != nil {
		s.sessions.setFlash(ss, actionMessage(lang, err), false)
	} else {
		s.sessions.setFlash(ss, T(lang, "ok"), true)
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// act carries out a judge's action on a table: builds the command, signs
// a verdict, sends it and waits for the table's reply.
func (s *Server) act(ctx context.Context, j *judge, t *Table, action string, form url.Values) error {
	// A verdict is on the result the form names: the current one or one
	// queued before it.
	var target *broadcast.Result
	if action == broadcast.CmdCertify || action == broadcast.CmdReject {
		named := t.Find(form.Get("record"))
		switch {
		case named == nil && t.Waiting() > 0:
			return &ActionError{Key: "result-changed"}
		case named != nil && action == broadcast.CmdCertify && named.Problem != "":
			return &ActionError{Key: "bad-signature", Detail: named.Problem}
		case named != nil:
			target = named.Result
		}
	}
	if action == broadcast.CmdNewGame && t.Waiting() > 0 && form.Get("force") == "" {
		return &ActionError{Key: "result-waiting"}
	}
	c, err := ParseAction(action, form, target)
	if err != nil {
		return err
	}
	c.ID = randomToken()[:16]
	c.Judge = j.name
	if c.Certification != nil {
		cert := *c.Certification
		cert.Judge = j.name
		cert.Time = time.Now().UTC()
		signed := target.Certify(j.key, cert)
		c.Certification = &signed
	}
	c.AtSeq = t.LastSeq
	c.Sign(t.Event, t.Table, j.key)
	s.log.Info("judges: command", "judge", j.name, "table", t.ID(), "type", c.Type, "id", c.ID)
	rep, err := s.feed.command(ctx, t.Event, t.Table, c)
	if err != nil {
		if errors.Is(err, ErrNoReply) || errors.Is(err, ErrNotConnected) {
			return &ActionError{Key: "no-reply", Err: err}
		}
		return fmt.Errorf("judges: %s: %w", c.Type, err)
	}
	if !rep.OK {
		return &ActionError{Key: "table-said", Detail: rep.Error}
	}
	return nil
}

// actionMessage says in lang why an action failed.
func actionMessage(lang string, err error) string {
	var ae *ActionError
	if errors.As(err, &ae) {
		if ae.Detail != "" {
			return T(lang, ae.Key) + ": " + Detail(lang, ae.Detail)
		}
		return T(lang, ae.Key)
	}
	return err.Error()
}

// serveAPITables answers every table as JSON (Table), for tools and tests;
// with ?feed=0 without the feeds (FeedLen still says how long they are).
func (s *Server) serveAPITables(w http.ResponseWriter, r *http.Request) {
	all := s.store.All()
	for _, t := range all {
		t.FeedLen = len(t.Feed)
		if r.URL.Query().Get("feed") == "0" {
			t.Feed = nil
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(all)
}
