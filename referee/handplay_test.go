package referee_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// The hand-play generator takes random legal games from the engine and
// turns each action into what hands do at a real table: pieces counted out
// square by square at a pace of 0.2 to 1 s a hop, victims taken home
// before, after or while the killing piece is in hand, a piece that cannot
// move lifted and put back, the touched piece lifted and put back, pauses
// longer than the grace time wherever the board is at rest. Every behaviour
// is chosen at random, seeded. The referee is fed what the sensors read,
// and the daemon's timer at each deadline, as the daemon does.

var handEpoch = time.Unix(0, 0).UTC()

// hands is a physical table under a referee: the pieces as they stand, the
// clock, and every event the referee gave.
type hands struct {
	t      testing.TB
	rng    *rand.Rand
	caps   board.Caps
	ref    *referee.Referee
	phys   board.Snapshot // the pieces on the board, colours always known
	now    time.Duration
	hop    time.Duration // this game's counting pace
	events []referee.Event
	log    []action // the last actions, to report a failure
	seen   map[string]int
}

func newHands(t testing.TB, rng *rand.Rand, caps board.Caps, starter engine.Colour) *hands {
	h := &hands{t: t, rng: rng, caps: caps, ref: referee.New(referee.Opts{Caps: caps}), seen: map[string]int{}, log: make([]action, 0, 40)}
	h.hop = time.Duration(200+rng.IntN(801)) * time.Millisecond
	pos := engine.NewPosition(starter)
	h.phys = board.Expected(&pos)
	h.handle(referee.Input{At: h.at(), Kind: referee.InputStart, Starter: starter})
	h.handle(referee.Input{At: h.at(), Kind: referee.InputBoard, Board: h.sensed()})
	return h
}

func (h *hands) at() time.Time { return handEpoch.Add(h.now) }

// note records an action for the failure report; it is formatted only
// then, as the games make millions of them.
func (h *hands) note(what string, s engine.Site, c engine.Colour, v int) {
	if len(h.log) == cap(h.log) && len(h.log) > 0 {
		copy(h.log, h.log[1:])
		h.log = h.log[:len(h.log)-1]
	}
	h.log = append(h.log, action{at: h.now, what: what, site: s, colour: c, value: v})
}

// action is one thing the hands did.
type action struct {
	at     time.Duration
	what   string
	site   engine.Site
	colour engine.Colour
	value  int
}

func (a action) String() string {
	switch a.what {
	case "throw":
		return fmt.Sprintf("%7.2f throw %d", a.at.Seconds(), a.value)
	case "timer":
		return fmt.Sprintf("%7.2f timer", a.at.Seconds())
	}
	return fmt.Sprintf("%7.2f %s %s %s", a.at.Seconds(), a.what, a.site, a.colour)
}

// failf reports a failure with the last actions and events.
func (h *hands) failf(format string, args ...any) {
	h.t.Helper()
	var ev []string
	from := max(0, len(h.events)-25)
	for _, e := range h.events[from:] {
		ev = append(ev, fmt.Sprintf("%d %s %s%s%s %s [%s]", e.Seq, e.Type, e.Move, e.Rule, e.Throw, e.Detail, e.Position))
	}
	var lines []string
	for _, a := range h.log {
		lines = append(lines, a.String())
	}
	actions := strings.Join(lines, "\n")
	dl, _ := h.ref.Deadline()
	h.t.Fatalf("%s\n(touched %s, owed %d, provisional %v until %v, mismatch %v)\nlast actions:\n%s\nlast events:\n%s", fmt.Sprintf(format, args...),
		h.ref.Touched(), h.ref.Owed(), h.ref.Provisional(), dl.Sub(handEpoch), h.ref.Mismatch(), actions, strings.Join(ev, "\n"))
}

func (h *hands) handle(in referee.Input) []referee.Event {
	n := len(h.events)
	h.events = append(h.events, h.ref.Handle(in)...)
	return h.events[n:]
}

// wait lets d pass. A deadline within it gets the timer input the daemon
// gives at that time.
func (h *hands) wait(d time.Duration) {
	end := h.now + d
	if dl, ok := h.ref.Deadline(); ok && !dl.After(handEpoch.Add(end)) {
		h.now = dl.Sub(handEpoch)
		h.note("timer", 0, 0, 0)
		h.handle(referee.Input{At: dl, Kind: referee.InputTimer})
	}
	h.now = end
}

// pause waits longer than the grace time, now and then: only where the
// board is at rest (as the game has it, or with one piece in hand).
func (h *hands) pause() {
	if h.rng.IntN(8) == 0 {
		h.seen["pause"]++
		h.wait(time.Duration(1600+h.rng.IntN(2500)) * time.Millisecond)
	}
}

// sensed is the board as the sensors read it.
func (h *hands) sensed() board.Snapshot {
	s := h.phys
	for i := range s.Sites {
		rd := &s.Sites[i]
		switch {
		case h.caps.Colours:
			rd.Coloured = rd.Count > 0
		case h.caps.Counts:
			*rd = board.Reading{Count: rd.Count}
		case rd.Count > 0:
			*rd = board.Reading{Count: 1}
		}
	}
	return s
}

func (h *hands) lift(s engine.Site, c engine.Colour) {
	h.wait(time.Duration(150+h.rng.IntN(250)) * time.Millisecond)
	rd := &h.phys.Sites[s]
	if rd.ByColour[c] == 0 {
		h.failf("no %s piece on %s to lift", c.Name(), s)
	}
	rd.Count--
	rd.ByColour[c]--
	h.note("lift", s, c, 0)
	h.handle(referee.Input{At: h.at(), Kind: referee.InputBoard, Board: h.sensed()})
}

func (h *hands) place(s engine.Site, c engine.Colour) {
	h.wait(time.Duration(150+h.rng.IntN(250)) * time.Millisecond)
	rd := &h.phys.Sites[s]
	rd.Count++
	rd.ByColour[c]++
	h.note("place", s, c, 0)
	h.handle(referee.Input{At: h.at(), Kind: referee.InputBoard, Board: h.sensed()})
}

// carry takes a piece of c from one site to another, counting it out
// square by square along its route when count is set: it rests a moment
// on each square passed that has room, then is lifted again.
func (h *hands) carry(c engine.Colour, from, to engine.Site, count bool) {
	h.lift(from, c)
	if count && from.Kind() != engine.Home {
		n := engine.Steps(c, from, to)
		for k := 1; k < n; k++ {
			s, _ := engine.Advance(c, from, k)
			if h.phys.Sites[s].Count >= 2 && h.rng.IntN(2) == 0 {
				continue // the hand passes over a full square, or rests on top
			}
			h.seen["hop"]++
			h.wait(h.hop / 4)
			h.phys.Sites[s].Count++
			h.phys.Sites[s].ByColour[c]++
			h.note("place (counting)", s, c, 0)
			h.handle(referee.Input{At: h.at(), Kind: referee.InputBoard, Board: h.sensed()})
			// It rests from half a hop to a whole one: up to a second.
			h.wait(h.hop/2 + time.Duration(h.rng.Int64N(int64(h.hop/2)+1)))
			h.phys.Sites[s].Count--
			h.phys.Sites[s].ByColour[c]--
			h.note("lift (counting)", s, c, 0)
			h.handle(referee.Input{At: h.at(), Kind: referee.InputBoard, Board: h.sensed()})
		}
	}
	h.place(to, c)
}

func (h *hands) throw(v int) []referee.Event {
	h.wait(time.Duration(300+h.rng.IntN(500)) * time.Millisecond)
	h.note("throw", 0, 0, v)
	return h.handle(referee.Input{At: h.at(), Kind: referee.InputThrow, Value: v})
}

// fidget lifts one of c's pieces that has no legal move and puts it back,
// as players do: no fault, and it does not become the touched piece.
func (h *hands) fidget(pos *engine.Position) {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	c := pos.Turn()
	var idle []engine.Site
	for _, s := range pos.Pieces(c) {
		movable := false
		for _, m := range ml.Moves() {
			movable = movable || m.From == s
		}
		if !movable && h.phys.Sites[s].ByColour[c] > 0 {
			idle = append(idle, s)
		}
	}
	if len(idle) == 0 {
		return
	}
	s := idle[h.rng.IntN(len(idle))]
	h.seen["lift a piece that cannot move"]++
	h.lift(s, c)
	h.pause()
	h.place(s, c)
}

// play makes move m of the side to move on the board, as hands do.
func (h *hands) play(pos *engine.Position, m engine.Move) {
	c := pos.Turn()
	if h.rng.IntN(6) == 0 {
		h.fidget(pos)
	}
	if h.rng.IntN(8) == 0 {
		// The piece is lifted, looked at and put back: it is touched, and
		// it is the one played.
		h.lift(m.From, c)
		h.pause()
		h.place(m.From, c)
	}
	count := h.rng.IntN(2) == 0
	victim, kill := pos.Victim(m)
	if !kill {
		h.lift(m.From, c)
		h.pause()
		h.phys.Sites[m.From].Count++ // carry lifts it again
		h.phys.Sites[m.From].ByColour[c]++
		h.carry(c, m.From, m.To, count)
		h.pause()
		return
	}
	home := engine.HomeSite(victim)
	order := h.rng.IntN(3)
	n, a, b := pos.Occupants(m.To)
	kind := "kill"
	switch {
	case n == 2:
		kind = "crowded exit " + exitCase(c, a, b)
	case victim == c.Partner():
		kind = "partner kill"
	case pos.Phase().IsBonus():
		kind = "bonus kill"
	}
	h.seen[fmt.Sprintf("%s, order %d", kind, order)]++
	switch order {
	case 0: // the victim home first
		h.lift(m.To, victim)
		h.pause()
		h.place(home, victim)
		h.pause()
		h.carry(c, m.From, m.To, count)
	case 1: // the killing piece first (on a crowded exit, a third piece
		// put on the square for a moment)
		h.carry(c, m.From, m.To, count)
		h.pause()
		h.lift(m.To, victim)
		h.pause()
		h.place(home, victim)
	case 2: // the killing piece in one hand, the victim taken with the other
		h.lift(m.From, c)
		h.pause()
		h.lift(m.To, victim)
		h.pause() // both in hand, as long as it takes
		h.place(home, victim)
		h.pause()
		h.phys.Sites[m.From].Count++
		h.phys.Sites[m.From].ByColour[c]++
		h.carry(c, m.From, m.To, count)
	}
	h.pause()
}

// exitCase names which of RULES.md §4's crowded exits a piece of c comes
// out onto, held by a and b.
func exitCase(c, a, b engine.Colour) string {
	rel := func(x engine.Colour) int {
		switch x {
		case c:
			return 0
		case c.Partner():
			return 1
		}
		return 2
	}
	ra, rb := rel(a), rel(b)
	if ra > rb {
		ra, rb = rb, ra
	}
	switch {
	case ra == 0 && rb == 1:
		return "own+partner"
	case ra == 0:
		return "own+opponent"
	case ra == 1 && rb == 1:
		return "partner+partner"
	case ra == 1:
		return "partner+opponent"
	case a == b:
		return "two opponents of one colour"
	}
	return "two opponents of two colours"
}

// handGame is one game played by hands, checked against the engine.
type handGame struct {
	*hands
	shadow engine.Position // the game as the engine plays it
	moves  []engine.Move   // the moves the engine played, in order
	// mistake is the kind of mistake to make once in this game ("" for
	// none); made tells it was made, flaggedBy the seq of the last event
	// that may flag it (the next throw's).
	mistake string
	made    bool
	flagged bool
	window  [2]int // the events from the mistake to the board put right
}

// compare checks that the referee is where the engine is.
func (g *handGame) compare(what string) {
	g.t.Helper()
	if got := g.ref.Position(); got != g.shadow {
		g.failf("after %s: the referee is at %s, the engine at %s", what, got.String(), g.shadow.String())
	}
}

// takeThrow throws v, checks the referee took it as the engine does, and
// takes home the piece of a third 6.
func (g *handGame) takeThrow(v int) {
	c := g.shadow.Turn()
	out, err := g.shadow.Throw(v)
	if err != nil {
		g.failf("engine: %v", err)
	}
	g.throw(v)
	if out.ThirdSix && out.SentHome != engine.NoSite {
		if g.mistake == referee.RuleThirdSixHome && !g.made {
			// Left standing: the next throw must be flagged.
			g.made = true
			mark := len(g.events)
			g.expectAtThrow(referee.RuleThirdSixHome)
			g.lift(out.SentHome, c)
			g.place(engine.HomeSite(c), c)
			g.window = [2]int{mark, len(g.events)}
		} else {
			g.seen["third six"]++
			g.pause()
			g.lift(out.SentHome, c)
			g.pause()
			g.place(engine.HomeSite(c), c)
		}
	}
	g.compare(fmt.Sprintf("throw %d", v))
}

// expectAtThrow throws now (a value that is not taken) and checks the
// throw is flagged with rule.
func (g *handGame) expectAtThrow(rule string) {
	g.t.Helper()
	events := g.throw(1 + g.rng.IntN(6))
	for _, e := range events {
		if e.Type == referee.EventInfraction && e.Rule == rule {
			g.flagged = true
			return
		}
	}
	g.failf("mistake %s not flagged by the next throw", rule)
}

// playGame plays a whole game by hands and checks it.
func playHandGame(t testing.TB, seed uint64, caps board.Caps, mistake string) *handGame {
	rng := rand.New(rand.NewPCG(seed, 12))
	starter := engine.Colour(rng.IntN(engine.NumColours))
	g := &handGame{hands: newHands(t, rng, caps, starter), shadow: engine.NewPosition(starter), mistake: mistake}
	for steps := 0; g.shadow.Phase() != engine.PhaseEnd; steps++ {
		if steps > 5000 {
			g.failf("no end after %d actions", steps)
		}
		ph := g.shadow.Phase()
		if ph == engine.PhaseThrow {
			v := 1 + rng.IntN(6)
			switch {
			case g.mistake == referee.RuleThirdSixHome && !g.made && (g.shadow.Sixes() > 0 || rng.IntN(3) == 0):
				v = 6 // runs of 6s, until a third 6 sends a piece home
			case g.shadow.Sixes() == 2 && rng.IntN(2) == 0:
				v = 6 // third 6s, more often than by chance
			}
			g.maybeMistake()
			g.takeThrow(v)
			continue
		}
		if g.maybeMistake() {
			continue
		}
		var ml engine.MoveList
		g.shadow.LegalMoves(&ml)
		moves := ml.Moves()
		if touched := g.ref.Touched(); touched != engine.NoSite {
			// A piece touched (in a mistake put right) is the one played.
			var own []engine.Move
			for _, m := range moves {
				if m.From == touched {
					own = append(own, m)
				}
			}
			if len(own) > 0 {
				moves = own
			}
		}
		m := moves[rng.IntN(len(moves))]
		g.play(&g.shadow, m)
		g.moves = append(g.moves, m)
		g.shadow.PlayLegal(m)
		g.compare("move " + m.String())
	}
	g.compare("the end")
	return g
}

// checkClean checks a game without mistakes: every move recognised, in
// order; no infraction; every mismatch resolved; a result.
func (g *handGame) checkClean() {
	g.t.Helper()
	var moves []string
	open := false
	result := false
	for _, e := range g.events {
		switch e.Type {
		case referee.EventInfraction:
			g.failf("infraction in legal play: %+v", e)
		case referee.EventMove:
			if strings.Contains(e.Detail, "replaces") {
				moves = moves[:len(moves)-1] // the barrier on the partner became the kill
			}
			moves = append(moves, e.Move)
		case referee.EventMismatch:
			open = true
		case referee.EventResolved:
			open = false
		case referee.EventResult:
			result = true
		}
	}
	if open || g.ref.Mismatch() != nil {
		g.failf("a mismatch is left open")
	}
	if !result {
		g.failf("no result event")
	}
	if len(moves) != len(g.moves) {
		g.failf("%d moves recognised, the engine played %d", len(moves), len(g.moves))
	}
	for i, m := range g.moves {
		if moves[i] != m.String() {
			g.failf("move %d recognised as %s, the engine played %s", i+1, moves[i], m)
		}
	}
}

// TestHandPlay_LegalGames plays 2,000 random legal games by hands and
// checks that the referee follows each exactly and stays quiet.
func TestHandPlay_LegalGames(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	start := time.Now()
	snapshots := 0
	seen := map[string]int{}
	var mu sync.Mutex
	// The games are independent: they are shared out among parallel
	// subtests, one per CPU, each playing every workers-th game, so the
	// same 2,000 games are played, faster.
	workers := runtime.GOMAXPROCS(0)
	t.Run("games", func(t *testing.T) {
		for w := range workers {
			t.Run(fmt.Sprintf("share-%d", w), func(t *testing.T) {
				t.Parallel()
				for i := w; i < n; i += workers {
					caps := board.Caps{Counts: true, Colours: true}
					if i%4 == 3 {
						caps = board.Caps{Counts: true}
					}
					g := playHandGame(t, uint64(i), caps, "")
					g.checkClean()
					mu.Lock()
					snapshots += len(g.events)
					for k, v := range g.seen {
						seen[k] += v
					}
					mu.Unlock()
				}
			})
		}
	})
	t.Logf("%d games, %d events, in %v", n, snapshots, time.Since(start))
	// Every behaviour was tried, and every kind of kill in every order
	// (the rarest crowded exits need the whole run).
	want := []string{"hop", "pause", "lift a piece that cannot move", "third six"}
	for _, k := range []string{"kill", "partner kill", "bonus kill", "crowded exit own+partner", "crowded exit own+opponent",
		"crowded exit partner+partner", "crowded exit partner+opponent", "crowded exit two opponents of one colour",
		"crowded exit two opponents of two colours"} {
		for order := 0; order < 3; order++ {
			want = append(want, fmt.Sprintf("%s, order %d", k, order))
		}
	}
	for _, k := range want {
		if seen[k] == 0 && !testing.Short() {
			t.Errorf("never tried: %s", k)
		}
	}
	t.Logf("behaviours: %v", seen)
}
