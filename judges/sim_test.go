package judges

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/testnet"
	"github.com/parchis-table/parchis/referee"
)

// This file runs simulated tables in-process for the tests: the embedded
// broker, and per table a broadcast.Publisher fed with the events and
// states of a game played with random throws and legal moves, answering
// the judges' commands as a table does.

// quietLog discards logs unless the test runs with -v.
func quietLog() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// testBroker is an embedded broker with a judge user for the dashboard and
// one table user per table name given, all with password "pw".
type testBroker struct {
	url string
}

const (
	testDashUser = "dashboard"
	testPassword = "pw"
)

func startBroker(t testing.TB, ctx context.Context, event string, tables []string) *testBroker {
	t.Helper()
	h, err := broadcast.HashPassword(testPassword)
	if err != nil {
		t.Fatal(err)
	}
	users := []broadcast.User{{Name: testDashUser, Password: h, Role: broadcast.RoleJudge}}
	for _, tb := range tables {
		users = append(users, broadcast.User{Name: "table-" + tb, Password: h, Role: broadcast.RoleTable, Event: event, Table: tb})
	}
	addr := testnet.Addr(t)
	// Every simulated table connects from the loopback: as many as there
	// are tables, and a few more, may (a venue's tables have their own
	// addresses).
	lim := broadcast.Limits{MaxClientsPerAddr: max(broadcast.DefaultLimits.MaxClientsPerAddr, len(tables)+8)}
	b, err := broadcast.NewBroker(broadcast.BrokerOpts{TCPAddr: addr, WSAddr: "off", Users: users, AllowAnonymous: true, Logger: quietLog(), Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return &testBroker{url: "tcp://" + addr}
}

// simTable is one simulated table.
type simTable struct {
	event, table string
	pub          *broadcast.Publisher
	key          ed25519.PrivateKey
	rng          *mrand.Rand
	players      map[string]string

	mu     sync.Mutex
	g      *engine.Game
	seq    uint64
	throw  string
	result *broadcast.Result
	// results are the results since the judges' last new game, oldest
	// first, each on its own topic as a table publishes them: waiting for
	// a verdict, or given one.
	results []*broadcast.Result
	// sent records when each event was handed to the publisher.
	sent map[uint64]time.Time
	// direct, when set, takes the events and states instead of the
	// publisher (to fill a dashboard quickly).
	direct func(topic string, payload []byte)
	// mism are the sites where the board disagrees with the game.
	mism []string
	// round is the round the judges' last new-game named.
	round string
	// winChance, when set, puts a win chance of 200 playouts in every
	// state, as a table does once its estimate is ready; lastWin is the
	// last one sent.
	winChance bool
	lastWin   *broadcast.WinChance
}

// startTable connects a simulated table to the broker and starts a game.
func startTable(t testing.TB, ctx context.Context, brokerURL, event, table string, judges broadcast.Judges, seed uint64) *simTable {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := broadcast.New(broadcast.Opts{
		Broker: brokerURL, Username: "table-" + table, Password: testPassword,
		QueueDir: t.TempDir(), Event: event, Table: table, Judges: judges,
		Versions: map[string]string{"parchisd": "test"},
		RetryMin: 50 * time.Millisecond, RetryMax: 500 * time.Millisecond,
		Logger: quietLog(),
	})
	if err != nil {
		t.Fatal(err)
	}
	st := &simTable{event: event, table: table, pub: pub, key: key,
		rng:     mrand.New(mrand.NewPCG(seed, seed+1)),
		players: map[string]string{"Y": "Ana", "B": "Bruno", "R": "Carmen", "G": "David"},
		sent:    map[uint64]time.Time{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = pub.Run(ctx) }()
	go func() { defer wg.Done(); st.serve(ctx) }()
	t.Cleanup(func() { wg.Wait(); _ = pub.Close() })
	st.newGame(st.players, engine.Yellow)
	deadline := time.Now().Add(10 * time.Second)
	for !pub.Connected() {
		if time.Now().After(deadline) {
			t.Fatal("simulated table did not connect")
		}
		time.Sleep(10 * time.Millisecond)
	}
	return st
}

// newGame starts a game; the caller holds no lock.
func (st *simTable) newGame(players map[string]string, starter engine.Colour) uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.players = players
	st.g = engine.NewGame(engine.NewPosition(starter),
		engine.Tag{Key: "Event", Value: st.event}, engine.Tag{Key: "Date", Value: "2026.05.01"},
		engine.Tag{Key: "Table", Value: st.table},
		engine.Tag{Key: "Yellow", Value: players["Y"]}, engine.Tag{Key: "Blue", Value: players["B"]},
		engine.Tag{Key: "Red", Value: players["R"]}, engine.Tag{Key: "Green", Value: players["G"]})
	if st.round != "" {
		st.g.SetTag("Round", st.round)
	}
	st.seq, st.throw, st.result = 0, "", nil
	st.results = slices.DeleteFunc(st.results, func(r *broadcast.Result) bool { return r.Certification != nil })
	st.publishResults()
	return st.emit(referee.Event{Type: referee.EventStart, Colour: starter.String()}, "")
}

// emit publishes an event and the state after it; the lock is held.
func (st *simTable) emit(e referee.Event, lit string) uint64 {
	st.seq++
	e.Seq = st.seq
	e.Time = time.Now().UTC()
	e.Position = st.g.Pos.String()
	st.sent[e.Seq] = time.Now()
	// The record notes times and infractions as a table's referee does.
	at := e.Time.Format("15:04:05")
	switch e.Type {
	case referee.EventThrow, referee.EventLost, referee.EventThirdSix, referee.EventMove:
		if n := len(st.g.Actions); n > 0 && st.g.Actions[n-1].Note == "" && st.g.Actions[n-1].Kind != engine.ActComment {
			st.g.Annotate(at)
		}
	case referee.EventInfraction:
		st.g.Comment(at + " infraction " + e.Rule + " " + e.Colour + ": " + e.Detail)
	}
	if st.direct != nil {
		b, _ := json.Marshal(e)
		st.direct(broadcast.Prefix(st.event, st.table)+broadcast.TopicEvents, b)
	} else if err := st.pub.Event(e); err != nil {
		panic(err)
	}
	s := broadcast.State{Event: st.event, Table: st.table, Seq: st.seq, Position: e.Position, PositionJSON: st.g.Pos,
		Players: st.players, LastThrow: st.throw, Time: e.Time}
	if lit != "" {
		s.Lights = append(s.Lights, broadcast.Light{Site: lit, Colour: "#00ff66", Pattern: "pulse"})
	}
	if st.throw != "" {
		s.Lights = append(s.Lights, broadcast.Light{Site: "T0", Colour: "#ffffff", Pattern: "steady"})
	}
	if e.Type == referee.EventResult {
		s.Result = e.Result
	}
	s.Mismatch = st.mism
	if st.winChance {
		est := bots.WinChance(st.g.Pos, 200, st.seq)
		lo, hi := est.Interval(engine.PairYR)
		s.WinChance = &broadcast.WinChance{Seq: st.seq, YR: est.Chance(engine.PairYR), BG: est.Chance(engine.PairBG), YRLow: lo, YRHigh: hi, Playouts: est.Playouts}
		st.lastWin = s.WinChance
	}
	if st.direct != nil {
		b, _ := json.Marshal(s)
		st.direct(broadcast.Prefix(st.event, st.table)+broadcast.TopicState, b)
	} else {
		_ = st.pub.State(s)
	}
	return e.Seq
}

// step plays one throw or one move and returns the event's number, or 0
// once the game is over.
func (st *simTable) step() uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	p := &st.g.Pos
	c := p.Turn()
	switch ph := p.Phase(); {
	case ph == engine.PhaseEnd:
		return 0
	case ph == engine.PhaseThrow:
		d := 1 + st.rng.IntN(6)
		st.throw = fmt.Sprint(d)
		out, err := st.g.Throw(d)
		if err != nil {
			panic(err)
		}
		typ := referee.EventThrow
		switch {
		case out.ThirdSix:
			typ = referee.EventThirdSix
		case out.Lost:
			typ = referee.EventLost
		}
		seq := st.emit(referee.Event{Type: typ, Colour: c.String(), Throw: st.throw}, "")
		// A throw may end the game too: a third 6 passing the turn at the
		// end of a round.
		if w, over := st.g.Pos.Winner(); over {
			st.finish(w)
		}
		return seq
	default:
		var ml engine.MoveList
		p.LegalMoves(&ml)
		m := ml.At(st.rng.IntN(ml.Len()))
		throw := ph.String()
		if _, err := st.g.Play(m); err != nil {
			panic(err)
		}
		seq := st.emit(referee.Event{Type: referee.EventMove, Colour: c.String(), Throw: throw, Move: m.String()}, m.To.String())
		if w, over := st.g.Pos.Winner(); over && st.g.Pos.Phase() == engine.PhaseEnd {
			st.finish(w)
		}
		return seq
	}
}

// infraction reports an infraction, as the referee does.
func (st *simTable) infraction(rule, site, detail string) uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.emit(referee.Event{Type: referee.EventInfraction, Colour: st.g.Pos.Turn().String(), Rule: rule, Sites: []string{site}, Detail: detail}, site)
}

// mismatch reports that the board disagrees at sites (none: it agrees
// again), as the referee does.
func (st *simTable) mismatch(sites ...string) uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.mism = sites
	if len(sites) == 0 {
		return st.emit(referee.Event{Type: referee.EventResolved}, "")
	}
	return st.emit(referee.Event{Type: referee.EventMismatch, Sites: sites}, "")
}

// finish publishes the result event and the signed result; the lock is
// held.
func (st *simTable) finish(w engine.Pair) {
	st.emit(referee.Event{Type: referee.EventResult, Result: w.String()}, "")
	var rec strings.Builder
	_, _ = st.g.WriteTo(&rec)
	r := broadcast.Result{Event: st.event, Table: st.table, Result: w.String(), Position: st.g.Pos.String(),
		Players: st.players, Record: rec.String(), JournalHead: strings.Repeat("0", 64), Time: time.Now().UTC()}
	r.Sign(st.key)
	st.result = &r
	st.results = append(st.results, &r)
	_ = st.pub.Result(r)
	st.publishResults()
}

// publishResults publishes the results shown, each on its topic; the lock
// is held.
func (st *simTable) publishResults() {
	rs := make([]broadcast.Result, len(st.results))
	for i, r := range st.results {
		rs[i] = *r
	}
	_ = st.pub.Results(rs)
}

// Results returns the results the table shows, oldest first.
func (st *simTable) Results() []broadcast.Result {
	st.mu.Lock()
	defer st.mu.Unlock()
	rs := make([]broadcast.Result, len(st.results))
	for i, r := range st.results {
		rs[i] = *r
	}
	return rs
}

// endWith ends the game at once in a final position (PPN), as a game set
// up at its end: its record replays to it, and its result is published.
func (st *simTable) endWith(ppn string) {
	p, err := engine.ParsePPN(ppn)
	if err != nil {
		panic(err)
	}
	w, over := p.Winner()
	if !over {
		panic("not a final position: " + ppn)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.g = engine.NewGame(p, st.g.Tags...)
	st.g.SetTag("Setup", ppn)
	st.g.SetTag("Result", w.String())
	st.finish(w)
}

// playToEnd plays the game out; every game ends with a winning pair
// (RULES.md §9).
func (st *simTable) playToEnd() {
	for st.step() != 0 {
	}
}

// Result returns the table's current result.
func (st *simTable) Result() *broadcast.Result {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.result
}

// serve answers the judges' commands until ctx is done.
func (st *simTable) serve(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case req := <-st.pub.Commands():
			c := req.Command
			switch c.Type {
			case broadcast.CmdCertify, broadcast.CmdReject:
				// The verdict names its result, as a table's daemon takes
				// it.
				st.mu.Lock()
				i := slices.IndexFunc(st.results, func(r *broadcast.Result) bool { return r.RecordSHA256 == c.RecordSHA256 })
				if i < 0 {
					st.mu.Unlock()
					_ = req.Answer(0, fmt.Errorf("no result %s", c.RecordSHA256))
					continue
				}
				r := st.results[i]
				if r.Certification != nil {
					st.mu.Unlock()
					_ = req.Answer(0, fmt.Errorf("result already has a verdict"))
					continue
				}
				nr := *r
				nr.Certification = c.Certification
				st.results[i] = &nr
				if st.result == r {
					st.result = &nr
					_ = st.pub.Result(nr)
				}
				st.publishResults()
				st.mu.Unlock()
				_ = req.Answer(0, nil)
			case broadcast.CmdCorrect:
				p, err := engine.ParsePPN(c.Position)
				if err != nil {
					_ = req.Answer(0, err)
					continue
				}
				st.mu.Lock()
				st.g = engine.NewGame(p)
				seq := st.emit(referee.Event{Type: referee.EventCorrection, Detail: "set by " + c.Judge}, "")
				st.mu.Unlock()
				_ = req.Answer(seq, nil)
			case broadcast.CmdNewGame:
				starter, _ := engine.ParseColour(c.Starter)
				st.mu.Lock()
				st.round = c.Round
				st.mu.Unlock()
				_ = req.Answer(st.newGame(c.Players, starter), nil)
			}
		}
	}
}

// startDashboard runs a dashboard on a free port against the broker.
func startDashboard(t testing.TB, ctx context.Context, brokerURL string, opts Opts) *Server {
	t.Helper()
	opts.Broker = brokerURL
	if opts.Username == "" {
		opts.Username, opts.Password = testDashUser, testPassword
	}
	if opts.Logger == nil {
		opts.Logger = quietLog()
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ctx, ln) }()
	t.Cleanup(func() { <-done })
	return srv
}
