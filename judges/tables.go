package judges

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// Entry is one line of a table's feed: an event, or a note that events
// were missed.
type Entry struct {
	referee.Event
	// Gap, when not zero, says that events Seq…Gap were never received;
	// the Event fields are then unset but Seq.
	Gap uint64 `json:"gap,omitempty"`
}

// CurvePoint is one point of a game's curve: YR's win chance after event
// Seq.
type CurvePoint struct {
	Seq uint64  `json:"seq"`
	YR  float64 `json:"yr"`
}

// maxCurve bounds a game's curve; a longer game keeps every other point.
const maxCurve = 1024

// addCurve adds a state's win chance to the game's curve.
func (t *Table) addCurve(w *broadcast.WinChance) {
	if n := len(t.Curve); n > 0 && t.Curve[n-1].Seq >= w.Seq {
		if t.Curve[n-1].Seq == w.Seq {
			t.Curve[n-1].YR = w.YR
		}
		return
	}
	if len(t.Curve) >= maxCurve {
		half := t.Curve[:0]
		for i := 0; i < len(t.Curve); i += 2 {
			half = append(half, t.Curve[i])
		}
		t.Curve = half
	}
	t.Curve = append(t.Curve, CurvePoint{Seq: w.Seq, YR: w.YR})
}

// Table is what the dashboard knows of one table. The Store hands out
// copies, so a Table may be read without locks.
type Table struct {
	Event string `json:"event"`
	Table string `json:"table"`
	// Status is "online", "offline" or "" when no status was received.
	Status   string            `json:"status"`
	Versions map[string]string `json:"versions,omitempty"`
	// Alerts are what the table's status says needs attention.
	Alerts []string `json:"alerts,omitempty"`
	// State is the last state received, if any.
	State *broadcast.State `json:"state,omitempty"`
	// Position is the newest position known, from the state or a later
	// event; PositionSeq the number of the event it follows.
	Position    string `json:"position"`
	PositionSeq uint64 `json:"position_seq"`
	// LastSeq is the highest event number seen (or announced by a state).
	LastSeq uint64 `json:"last_seq"`
	// LastThrow is the newest throw, from the state or a later event.
	LastThrow string `json:"last_throw,omitempty"`
	// Feed holds the newest events, oldest first.
	Feed []Entry `json:"feed,omitempty"`
	// Curve is the game's win chances as the table estimated them, one
	// point a position, oldest first: the game's curve. Win is the newest:
	// a state published before its position's estimate was ready has
	// none, and the bar keeps showing the one before.
	Curve []CurvePoint         `json:"curve,omitempty"`
	Win   *broadcast.WinChance `json:"win,omitempty"`
	// FeedLen is len(Feed), set in the answers of /api/tables.
	FeedLen int `json:"feed_len,omitempty"`
	// Result is the retained result, if any.
	Result *broadcast.Result `json:"result,omitempty"`
	// ResultProblem says why Result cannot be trusted (its record or the
	// table's signature does not verify, or the key is not the table's);
	// empty when it can. Such a result must not be certified.
	ResultProblem string `json:"result_problem,omitempty"`
	// VerdictProblem says why the verdict Result carries cannot be
	// trusted; empty when it can or there is none.
	VerdictProblem string `json:"verdict_problem,omitempty"`
	// KeyRegistered says the result's key is the one registered for the
	// table (Trust.TableKeys), not only the one the result names.
	KeyRegistered bool `json:"key_registered,omitempty"`
	// Queue holds the table's other results awaiting a judge, oldest
	// first: those it publishes as waiting (results/<hash>), and those it
	// withdrew or replaced on result before a verdict (a table that
	// publishes no results/). A newer game never hides them.
	Queue []*Checked `json:"queue,omitempty"`
	// Updated is when anything about the table last arrived.
	Updated time.Time `json:"updated"`
}

// Checked is a table's result with what the dashboard's checks found.
type Checked struct {
	*broadcast.Result
	// Problem says why the result cannot be trusted (as
	// Table.ResultProblem); VerdictProblem why its verdict cannot.
	Problem        string `json:"problem,omitempty"`
	VerdictProblem string `json:"verdict_problem,omitempty"`
	// KeyRegistered says the result's key is the one registered for the
	// table.
	KeyRegistered bool `json:"key_registered,omitempty"`
}

// check checks a table's result against the dashboard's trust.
func (st *Store) check(id string, r *broadcast.Result) *Checked {
	c := &Checked{Result: r}
	rerr, verr := st.trust.checkResult(id, r)
	_, listed := st.trust.TableKeys[id]
	c.KeyRegistered = listed && rerr == nil
	if rerr != nil {
		c.Problem = rerr.Error()
	}
	if verr != nil {
		c.VerdictProblem = verr.Error()
	}
	return c
}

// current returns the table's result as checked, or nil.
func (t *Table) current() *Checked {
	if t.Result == nil {
		return nil
	}
	return &Checked{Result: t.Result, Problem: t.ResultProblem, VerdictProblem: t.VerdictProblem, KeyRegistered: t.KeyRegistered}
}

// enqueue puts a result awaiting a judge in the queue in the order the
// games ended, replacing one with the same record.
func (t *Table) enqueue(c *Checked) {
	t.unqueue(c.RecordSHA256)
	i := len(t.Queue)
	for i > 0 && t.Queue[i-1].Time.After(c.Time) {
		i--
	}
	t.Queue = slices.Insert(t.Queue, i, c)
}

// unqueue takes the result with record hash h out of the queue.
func (t *Table) unqueue(h string) {
	t.Queue = slices.DeleteFunc(t.Queue, func(q *Checked) bool { return q.RecordSHA256 == h })
}

// Find returns the table's result with record hash h, current or queued,
// or nil.
func (t *Table) Find(h string) *Checked {
	if c := t.current(); c != nil && c.RecordSHA256 == h {
		return c
	}
	for _, q := range t.Queue {
		if q.RecordSHA256 == h {
			return q
		}
	}
	return nil
}

// ID returns the table's identifier on the dashboard: "event/table".
func (t *Table) ID() string { return t.Event + "/" + t.Table }

// Pos parses the table's position, or returns nil when it has none or it
// does not parse.
func (t *Table) Pos() *engine.Position {
	if t.Position == "" {
		return nil
	}
	p, err := engine.ParsePPN(t.Position)
	if err != nil {
		return nil
	}
	return &p
}

// Pending reports whether the table has a result awaiting a judge.
func (t *Table) Pending() bool { return t.Result != nil && t.Result.Certification == nil }

// Waiting counts the table's results awaiting a judge: the current one and
// those queued.
func (t *Table) Waiting() int {
	n := len(t.Queue)
	if t.Pending() {
		n++
	}
	return n
}

// Offline reports whether the table's status says offline.
func (t *Table) Offline() bool { return t.Status == "offline" }

// Infractions counts the infractions in the feed.
func (t *Table) Infractions() int {
	n := 0
	for _, e := range t.Feed {
		if e.Type == referee.EventInfraction {
			n++
		}
	}
	return n
}

// Change says what a message changed, for the pages that show it.
type Change struct {
	ID string
	// Event is set when the change is a new event (or a gap before it).
	Event *Entry
	// Seq is the newest event number of the table after the change.
	Seq uint64
	// Result is set when the table's results changed.
	Result bool
	// Arrived is the result the message brought, checked, for the
	// standings and the archive; nil when none.
	Arrived *Checked
}

// Store holds every table seen on the feed. It is safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	tables  map[string]*Table
	history int
	trust   Trust
	now     func() time.Time
}

// NewStore returns a store keeping at most history events per table.
func NewStore(history int) *Store {
	if history <= 0 {
		history = DefaultHistory
	}
	return &Store{tables: map[string]*Table{}, history: history, now: time.Now}
}

// topicParts splits parchis/v1/<event>/<table>/<rest>.
func topicParts(topic string) (event, table, rest string, ok bool) {
	s, ok := strings.CutPrefix(topic, "parchis/"+broadcast.Version+"/")
	if !ok {
		return "", "", "", false
	}
	parts := strings.SplitN(s, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// Apply takes one message of the live feed and returns what changed; ok
// is false when the message changed nothing the dashboard shows
// (commands, replies, duplicates, unknown topics). A message that does
// not parse is an error.
func (st *Store) Apply(topic string, payload []byte) (Change, bool, error) {
	event, table, rest, ok := topicParts(topic)
	if !ok {
		return Change{}, false, nil
	}
	hash, waiting := strings.CutPrefix(rest, broadcast.TopicResults)
	switch {
	case waiting && broadcast.IsRecordHash(hash):
		rest = broadcast.TopicResults
	case rest == broadcast.TopicStatus, rest == broadcast.TopicState, rest == broadcast.TopicEvents, rest == broadcast.TopicResult:
	default:
		return Change{}, false, nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	id := event + "/" + table
	t := st.tables[id]
	if t == nil {
		t = &Table{Event: event, Table: table}
		st.tables[id] = t
	}
	ch := Change{ID: id}
	switch rest {
	case broadcast.TopicStatus:
		if len(payload) == 0 {
			t.Status, t.Alerts = "", nil
			break
		}
		var s broadcast.Status
		if err := json.Unmarshal(payload, &s); err != nil {
			return ch, false, fmt.Errorf("%s: bad status: %w", topic, err)
		}
		t.Status, t.Versions, t.Alerts = s.Status, s.Versions, s.Alerts
	case broadcast.TopicState:
		if len(payload) == 0 {
			t.State = nil
			break
		}
		var s broadcast.State
		if err := json.Unmarshal(payload, &s); err != nil {
			return ch, false, fmt.Errorf("%s: bad state: %w", topic, err)
		}
		t.State = &s
		if s.Seq < t.PositionSeq && s.Seq <= 1 {
			// A new game, numbered from the start again.
			t.Feed, t.LastSeq, t.PositionSeq, t.Curve, t.Win = nil, 0, 0, nil, nil
		}
		if s.WinChance != nil {
			t.Win = s.WinChance
			t.addCurve(s.WinChance)
		}
		if s.Seq >= t.PositionSeq || t.Position == "" {
			t.Position, t.PositionSeq = s.Position, s.Seq
			t.LastThrow = s.LastThrow
		}
		if len(t.Feed) == 0 {
			// Nothing seen yet: the state's number is where the feed starts.
			t.LastSeq = s.Seq
		}
	case broadcast.TopicEvents:
		var e referee.Event
		if err := json.Unmarshal(payload, &e); err != nil {
			return ch, false, fmt.Errorf("%s: bad event: %w", topic, err)
		}
		entry, fresh := st.addEvent(t, e)
		if !fresh {
			return ch, false, nil
		}
		ch.Event = entry
	case broadcast.TopicResult:
		ch.Result = true
		if len(payload) == 0 {
			if t.Pending() {
				t.enqueue(t.current())
			}
			t.Result, t.ResultProblem, t.VerdictProblem, t.KeyRegistered = nil, "", "", false
			break
		}
		var r broadcast.Result
		if err := json.Unmarshal(payload, &r); err != nil {
			return ch, false, fmt.Errorf("%s: bad result: %w", topic, err)
		}
		if t.Pending() && t.Result.RecordSHA256 != r.RecordSHA256 {
			t.enqueue(t.current())
		}
		t.unqueue(r.RecordSHA256)
		c := st.check(id, &r)
		t.Result, t.ResultProblem, t.VerdictProblem, t.KeyRegistered = c.Result, c.Problem, c.VerdictProblem, c.KeyRegistered
		ch.Arrived = c
	case broadcast.TopicResults:
		// One result of the table's waiting for a verdict, or given one;
		// withdrawn once decided.
		ch.Result = true
		if len(payload) == 0 {
			t.unqueue(hash)
			break
		}
		var r broadcast.Result
		if err := json.Unmarshal(payload, &r); err != nil {
			return ch, false, fmt.Errorf("%s: bad result: %w", topic, err)
		}
		if r.RecordSHA256 != hash {
			return ch, false, fmt.Errorf("%s: bad result: its record_sha256 is %q", topic, r.RecordSHA256)
		}
		c := st.check(id, &r)
		ch.Arrived = c
		switch {
		case t.Result != nil && t.Result.RecordSHA256 == hash:
			// The table's current result, shown as such: a verdict
			// reaches it here too.
			if r.Certification != nil && t.Result.Certification == nil {
				t.Result, t.ResultProblem, t.VerdictProblem, t.KeyRegistered = c.Result, c.Problem, c.VerdictProblem, c.KeyRegistered
			}
		case r.Certification != nil:
			t.unqueue(hash)
		default:
			t.enqueue(c)
		}
	}
	t.Updated = st.now()
	ch.Seq = t.LastSeq
	return ch, true, nil
}

// addEvent adds e to t's feed unless it is a duplicate, noting a gap when
// events are missing before it.
func (st *Store) addEvent(t *Table, e referee.Event) (*Entry, bool) {
	if e.Type == referee.EventStart {
		// A new game: its curve starts afresh.
		t.Curve, t.Win = nil, nil
	}
	if e.Type == referee.EventStart && e.Seq <= 1 {
		// A new game: numbering starts again.
		t.Feed, t.LastSeq, t.PositionSeq = nil, 0, 0
	}
	if i, found := slices.BinarySearchFunc(t.Feed, e.Seq, func(x Entry, seq uint64) int {
		return cmpUint(x.Seq, seq)
	}); found && t.Feed[i].Gap == 0 {
		return nil, false
	}
	if e.Seq <= t.LastSeq && len(t.Feed) > 0 && e.Seq < t.Feed[0].Seq {
		return nil, false // older than anything kept
	}
	if t.LastSeq > 0 && e.Seq > t.LastSeq+1 {
		t.Feed = append(t.Feed, Entry{Event: referee.Event{Seq: t.LastSeq + 1}, Gap: e.Seq - 1})
	}
	entry := Entry{Event: e}
	if e.Seq > t.LastSeq || len(t.Feed) == 0 {
		t.Feed = append(t.Feed, entry)
	} else {
		t.Feed = fillGap(t.Feed, entry)
	}
	if over := len(t.Feed) - st.history; over > 0 {
		t.Feed = slices.Delete(t.Feed, 0, over)
	}
	t.LastSeq = max(t.LastSeq, e.Seq)
	if e.Seq >= t.PositionSeq && e.Position != "" {
		t.Position, t.PositionSeq = e.Position, e.Seq
	}
	if e.Type == referee.EventThrow && e.Seq >= t.PositionSeq {
		t.LastThrow = e.Throw
	}
	return &entry, true
}

// fillGap puts a late entry in the feed, in order. The gap that held its
// number is split into what is still missing before and after it, so that
// a gap the late events fill wholly is gone: events delivered out of order
// are not shown to the judges as never received.
func fillGap(feed []Entry, e Entry) []Entry {
	i, found := slices.BinarySearchFunc(feed, e.Seq, func(x Entry, seq uint64) int { return cmpUint(x.Seq, seq) })
	g := i // the entry that may be the gap holding e.Seq
	if !found {
		g--
	}
	if g < 0 || feed[g].Gap == 0 || feed[g].Gap < e.Seq {
		return slices.Insert(feed, i, e)
	}
	gap := feed[g]
	var parts []Entry
	if gap.Seq < e.Seq {
		parts = append(parts, Entry{Event: referee.Event{Seq: gap.Seq}, Gap: e.Seq - 1})
	}
	parts = append(parts, e)
	if e.Seq < gap.Gap {
		parts = append(parts, Entry{Event: referee.Event{Seq: e.Seq + 1}, Gap: gap.Gap})
	}
	return slices.Replace(feed, g, g+1, parts...)
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Get returns a copy of one table.
func (st *Store) Get(id string) (*Table, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	t, ok := st.tables[id]
	if !ok {
		return nil, false
	}
	return t.clone(), true
}

// All returns copies of every table, sorted by event and then table
// number (numerically when both are numbers).
func (st *Store) All() []*Table {
	st.mu.Lock()
	out := make([]*Table, 0, len(st.tables))
	for _, t := range st.tables {
		out = append(out, t.clone())
	}
	st.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Event != b.Event {
			return a.Event < b.Event
		}
		return lessName(a.Table, b.Table)
	})
	return out
}

// lessName orders table names, numbers by value.
func lessName(a, b string) bool {
	if len(a) != len(b) && isDigits(a) && isDigits(b) {
		return len(a) < len(b)
	}
	return a < b
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// clone copies a table deeply enough that the store may change on.
func (t *Table) clone() *Table {
	c := *t
	c.Feed = slices.Clone(t.Feed)
	c.Queue = slices.Clone(t.Queue)
	c.Curve = slices.Clone(t.Curve)
	return &c
}
