package broadcast

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/referee"
)

// Opts configures a Publisher. Event, Table, Broker and QueueDir are
// required; the rest have working defaults.
type Opts struct {
	// Broker is the broker's URL: tcp://host:1883, ssl://host:8883,
	// ws://host:8083 or wss://host:8084.
	Broker string
	// ClientID is the MQTT client id, fixed so the broker keeps the
	// table's session; default "parchis-<event>-<table>".
	ClientID string
	// Username and Password log in to the broker; empty for none.
	Username, Password string
	// TLS names the CA (to check the broker) and the optional client
	// certificate. Needed for ssl:// and wss:// with a private CA.
	TLS TLSFiles
	// QueueDir is the directory of the on-disk queue of events not yet
	// acknowledged by the broker.
	QueueDir string
	// Event and Table name the table's subtree, parchis/v1/<event>/<table>/.
	Event, Table string
	// Versions is published with the status (program and rules versions).
	Versions map[string]string
	// Judges are the judges whose commands the table accepts, with the
	// keys their commands and certifications must be signed with. Nil
	// accepts unsigned commands from any judge name (the broker's rules
	// alone decide who may send them) but refuses every certification.
	Judges Judges
	// KeepAlive is the MQTT keep-alive; default 30s.
	KeepAlive time.Duration
	// RetryMin and RetryMax bound the wait between connection attempts,
	// doubled after each failure; defaults 500ms and 30s.
	RetryMin, RetryMax time.Duration
	// Window is the number of events published before waiting for the
	// first one's acknowledgement; default 16.
	Window int
	// Logger receives connection changes and refused commands; default
	// slog.Default().
	Logger *slog.Logger
}

// Publisher publishes one table's live feed to a broker and receives the
// judges' commands. Create it with New, run it with Run; Event, State and
// Result may be called from any goroutine, before or during Run.
type Publisher struct {
	opts   Opts
	prefix string
	log    *slog.Logger
	q      *queue
	cmds   chan Request

	mu      sync.Mutex
	cli     mqtt.Client // connected client, or nil
	state   []byte
	result  []byte
	lastSeq uint64
	// results are the payloads published on results/<hash>, by hash, and
	// res the results themselves, which certifications are checked
	// against; resultsDirty the hashes to publish again (or withdraw,
	// when no longer in results).
	results      map[string][]byte
	res          map[string]*Result
	resultsDirty map[string]bool
	// dirty marks the retained messages changed since they were last
	// published; wake tells the delivering goroutine, which publishes
	// them, so that State and Result never wait on the network.
	stateDirty, resultDirty bool
	statusDirty             bool
	// alerts are under their own lock: status is made with mu held.
	alertMu sync.Mutex
	alerts  []string
	wake    chan struct{}
}

// New checks opts and opens the event queue. Events left in the queue by
// an earlier run are delivered first; a damaged queue tail is truncated
// and logged.
func New(opts Opts) (*Publisher, error) {
	if err := checkName("event", opts.Event); err != nil {
		return nil, err
	}
	if err := checkName("table", opts.Table); err != nil {
		return nil, err
	}
	if opts.Broker == "" {
		return nil, errors.New("publisher: no broker URL")
	}
	u, err := url.Parse(opts.Broker)
	if err != nil {
		return nil, fmt.Errorf("publisher: broker URL: %w", err)
	}
	switch u.Scheme {
	case "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss":
	default:
		return nil, fmt.Errorf("publisher: broker URL %q: scheme %q: want tcp, ssl, ws or wss", opts.Broker, u.Scheme)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("publisher: broker URL %q: no host", opts.Broker)
	}
	if opts.QueueDir == "" {
		return nil, errors.New("publisher: no queue directory")
	}
	if _, err := opts.TLS.clientConfig(); err != nil {
		return nil, fmt.Errorf("publisher: %w", err)
	}
	for name, key := range opts.Judges {
		if _, err := parseKey(key); err != nil {
			return nil, fmt.Errorf("publisher: judge %q: %w", name, err)
		}
	}
	if opts.ClientID == "" {
		opts.ClientID = TableClientID(opts.Event, opts.Table)
	}
	if opts.KeepAlive <= 0 {
		opts.KeepAlive = 30 * time.Second
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = 500 * time.Millisecond
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = max(30*time.Second, opts.RetryMin)
	}
	if opts.Window <= 0 {
		opts.Window = 16
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	p := &Publisher{
		opts:   opts,
		prefix: Prefix(opts.Event, opts.Table),
		log:    opts.Logger.With("event", opts.Event, "table", opts.Table),
		cmds:   make(chan Request, 16),
		wake:   make(chan struct{}, 1),

		results: map[string][]byte{}, res: map[string]*Result{}, resultsDirty: map[string]bool{},
	}
	q, rec, err := openQueue(opts.QueueDir, func(b []byte) uint64 {
		var e referee.Event
		json.Unmarshal(b, &e)
		return e.Seq
	})
	if err != nil {
		return nil, fmt.Errorf("publisher: %w", err)
	}
	if rec.Cause != nil {
		p.log.Warn("event queue damaged", "truncated_bytes", rec.Truncated, "ack_reset", rec.AckReset, "err", rec.Cause)
	}
	if rec.Pending > 0 {
		p.log.Info("event queue: events awaiting delivery", "pending", rec.Pending)
	}
	p.lastSeq = q.LastSeq()
	p.q = q
	return p, nil
}

func checkName(what, s string) error {
	if s == "" {
		return fmt.Errorf("publisher: no %s name", what)
	}
	if strings.ContainsAny(s, "/+#\x00") || strings.HasPrefix(s, "$") {
		return fmt.Errorf("publisher: %s name %q: no /, +, # or leading $ in a topic level", what, s)
	}
	return nil
}

// Event queues an event for delivery (QoS 1, in order) and returns once it
// is on disk. Its number must be greater than the last one queued, but
// for a start event (a new game may number its events afresh).
func (p *Publisher) Event(e referee.Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("publisher: event %d: %w", e.Seq, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Seq == 0 || e.Seq <= p.lastSeq && e.Type != referee.EventStart {
		return fmt.Errorf("publisher: event %d after event %d: numbers must increase (or start again with a start event)", e.Seq, p.lastSeq)
	}
	if err := p.q.Append(b, e.Seq); err != nil {
		return fmt.Errorf("publisher: event %d: %w", e.Seq, err)
	}
	p.lastSeq = e.Seq
	return nil
}

// LastSeq returns the number of the last event queued, delivered or not,
// as kept on disk across restarts: after a crash, the table queues again
// the events numbered above it.
func (p *Publisher) LastSeq() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastSeq
}

// Connected reports whether the publisher is connected to the broker now.
func (p *Publisher) Connected() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cli != nil
}

// Pending returns the number of events not yet acknowledged by the broker.
func (p *Publisher) Pending() int { return p.q.Len() }

// State replaces the table's snapshot, published retained after the events
// queued before it, and again on every connection. It returns at once.
func (p *Publisher) State(s State) error {
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("publisher: state: %w", err)
	}
	p.mu.Lock()
	p.state, p.stateDirty = b, true
	p.mu.Unlock()
	p.signal()
	return nil
}

// Result replaces the table's result (its last game's), published
// retained now if connected and again on every connection. It returns at
// once.
func (p *Publisher) Result(r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("publisher: result: %w", err)
	}
	p.mu.Lock()
	p.result, p.resultDirty = b, true
	p.mu.Unlock()
	p.signal()
	return nil
}

// ClearResult withdraws the retained result (a new game has started): an
// empty retained message removes it from the broker, and it is no longer
// republished on connection. The results given to Results stay.
func (p *Publisher) ClearResult() {
	p.mu.Lock()
	p.result, p.resultDirty = nil, true
	p.mu.Unlock()
	p.signal()
}

// Results replaces the results published each on its own topic,
// results/<record_sha256>, retained: those waiting for a judge's verdict
// and those decided that the table still shows. A result no longer given
// is withdrawn (an empty retained message); one unchanged is not
// published again but on a new connection. Certifications received as
// commands are checked against the result they name among these. It
// returns at once.
func (p *Publisher) Results(rs []Result) error {
	payloads := make(map[string][]byte, len(rs))
	res := make(map[string]*Result, len(rs))
	for i := range rs {
		r := rs[i]
		if !IsRecordHash(r.RecordSHA256) {
			return fmt.Errorf("publisher: result: record_sha256 %q: want 64 lower-case hex digits", r.RecordSHA256)
		}
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("publisher: result %s: %w", r.RecordSHA256, err)
		}
		payloads[r.RecordSHA256], res[r.RecordSHA256] = b, &r
	}
	p.mu.Lock()
	for h, b := range payloads {
		if !bytes.Equal(p.results[h], b) {
			p.resultsDirty[h] = true
		}
	}
	for h := range p.results {
		if _, ok := payloads[h]; !ok {
			p.resultsDirty[h] = true
		}
	}
	p.results, p.res = payloads, res
	p.mu.Unlock()
	p.signal()
	return nil
}

// SetAlerts replaces what the table's status says needs attention (nil
// for nothing), published retained at once if connected and on every
// connection.
func (p *Publisher) SetAlerts(alerts []string) {
	p.alertMu.Lock()
	p.alerts = append([]string(nil), alerts...)
	p.alertMu.Unlock()
	p.mu.Lock()
	p.statusDirty = true
	p.mu.Unlock()
	p.signal()
}

func (p *Publisher) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// publishRetained publishes the retained messages that changed since they
// were last published (an empty result withdraws it).
func (p *Publisher) publishRetained(cli mqtt.Client) {
	p.mu.Lock()
	state, result := p.state, p.result
	sendState, sendResult, sendStatus := p.stateDirty && state != nil, p.resultDirty, p.statusDirty
	p.stateDirty, p.resultDirty, p.statusDirty = false, false, false
	results := make(map[string][]byte, len(p.resultsDirty))
	for h := range p.resultsDirty {
		results[h] = p.results[h]
	}
	clear(p.resultsDirty)
	p.mu.Unlock()
	if sendStatus {
		cli.Publish(p.prefix+TopicStatus, 1, true, p.status("online"))
	}
	if sendState {
		cli.Publish(p.prefix+TopicState, 1, true, state)
	}
	if sendResult {
		if result == nil {
			result = []byte{}
		}
		cli.Publish(p.prefix+TopicResult, 1, true, result)
	}
	// Oldest game first is not needed: each result has its own topic.
	for h, b := range results {
		if b == nil {
			b = []byte{}
		}
		cli.Publish(p.prefix+TopicResults+h, 1, true, b)
	}
}

// Commands returns the channel of the judges' commands that passed every
// check. Each must be answered with Request.Reply or Request.Answer. A
// command arriving while 16 wait unread is refused as busy.
func (p *Publisher) Commands() <-chan Request { return p.cmds }

// Close closes the event queue; call it after Run has returned.
func (p *Publisher) Close() error { return p.q.Close() }

// Run connects to the broker and keeps connecting until ctx ends: on every
// connection it publishes the status online (the last will says
// offline), the state and the result (retained), subscribes to the
// commands and delivers the queued events. When ctx ends it publishes the
// status offline and disconnects. It returns nil when ctx ends.
func (p *Publisher) Run(ctx context.Context) error {
	wait := p.opts.RetryMin
	for {
		connected, err := p.session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if connected {
			wait = p.opts.RetryMin
		}
		p.log.Warn("broker connection", "broker", p.opts.Broker, "err", err, "retry_in", wait)
		t := time.NewTimer(wait/2 + rand.N(wait/2+1))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		wait = min(2*wait, p.opts.RetryMax)
	}
}

func (p *Publisher) status(s string) []byte {
	p.alertMu.Lock()
	alerts := p.alerts
	p.alertMu.Unlock()
	b, _ := json.Marshal(Status{Status: s, Table: p.opts.Table, Event: p.opts.Event, Versions: p.opts.Versions, Alerts: alerts, Time: time.Now().UTC()})
	return b
}

// session runs one connection: it returns when the connection is lost or
// ctx ends, saying whether it got connected.
func (p *Publisher) session(ctx context.Context) (bool, error) {
	tc, err := p.opts.TLS.clientConfig()
	if err != nil {
		return false, err
	}
	lost := make(chan error, 1)
	o := mqtt.NewClientOptions().
		AddBroker(p.opts.Broker).
		SetClientID(p.opts.ClientID).
		SetUsername(p.opts.Username).
		SetPassword(p.opts.Password).
		SetCleanSession(false).
		SetOrderMatters(true).
		SetStore(mqtt.NewMemoryStore()).
		SetAutoReconnect(false).
		SetConnectRetry(false).
		SetKeepAlive(p.opts.KeepAlive).
		SetConnectTimeout(10*time.Second).
		SetWriteTimeout(10*time.Second).
		SetBinaryWill(p.prefix+TopicStatus, p.status("offline"), 1, true).
		SetConnectionLostHandler(func(_ mqtt.Client, err error) {
			select {
			case lost <- err:
			default:
			}
		})
	if tc != nil {
		o.SetTLSConfig(tc)
	}
	o.SetDefaultPublishHandler(p.onMessage)
	cli := mqtt.NewClient(o)
	if err := wait(ctx, cli.Connect()); err != nil {
		cli.Disconnect(0)
		return false, fmt.Errorf("connect: %w", err)
	}
	p.log.Info("connected to broker", "broker", p.opts.Broker, "pending_events", p.q.Len())
	defer func() {
		p.mu.Lock()
		p.cli = nil
		p.mu.Unlock()
	}()
	if err := wait(ctx, cli.Subscribe(p.prefix+TopicCmd+"#", 1, p.onMessage)); err != nil {
		cli.Disconnect(0)
		return true, fmt.Errorf("subscribe to commands: %w", err)
	}
	p.mu.Lock()
	cli.Publish(p.prefix+TopicStatus, 1, true, p.status("online"))
	// On every connection the retained messages go again: the broker may
	// have forgotten them.
	p.stateDirty, p.resultDirty = true, p.result != nil
	for h := range p.results {
		p.resultsDirty[h] = true
	}
	p.cli = cli
	p.mu.Unlock()

	err = p.deliver(ctx, cli, lost)
	if ctx.Err() != nil {
		p.mu.Lock()
		p.cli = nil
		p.mu.Unlock()
		// The judges see an offline table as one that needs them: give the
		// broker time to take the status on a busy line before the clean
		// disconnect, which withdraws the will that would say it otherwise.
		t := cli.Publish(p.prefix+TopicStatus, 1, true, p.status("offline"))
		t.WaitTimeout(5 * time.Second)
		cli.Disconnect(250)
		return true, nil
	}
	cli.Disconnect(0)
	return true, err
}

// deliver publishes the queued events in order, a window at a time,
// removing each from the queue once the broker acknowledged it.
func (p *Publisher) deliver(ctx context.Context, cli mqtt.Client, lost <-chan error) error {
	topic := p.prefix + TopicEvents
	for {
		batch := p.q.Peek(p.opts.Window)
		if len(batch) == 0 {
			// The state follows the events it counts.
			p.publishRetained(cli)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case err := <-lost:
				return fmt.Errorf("connection lost: %w", err)
			case <-p.q.ready:
				continue
			case <-p.wake:
				continue
			}
		}
		toks := make([]mqtt.Token, len(batch))
		for i, b := range batch {
			toks[i] = cli.Publish(topic, 1, false, b)
		}
		for _, t := range toks {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case err := <-lost:
				return fmt.Errorf("connection lost: %w", err)
			case <-t.Done():
			}
			if err := t.Error(); err != nil {
				return fmt.Errorf("publish event: %w", err)
			}
			if err := p.q.Ack(); err != nil {
				return err
			}
		}
	}
}

func wait(ctx context.Context, t mqtt.Token) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.Done():
		return t.Error()
	}
}

// Request is a judge's command that passed the checks, to be answered.
type Request struct {
	Command Command
	p       *Publisher
}

// Reply publishes the table's answer on the reply topic, with the
// command's id.
func (r Request) Reply(rep Reply) error {
	rep.ID = r.Command.ID
	return r.p.reply(rep)
}

// Answer replies success, with the number of the event the command
// produced (0 for none), or err's message.
func (r Request) Answer(seq uint64, err error) error {
	if err != nil {
		return r.Reply(Reply{Error: err.Error()})
	}
	return r.Reply(Reply{OK: true, Seq: seq})
}

func (p *Publisher) reply(rep Reply) error {
	b, err := json.Marshal(rep)
	if err != nil {
		return fmt.Errorf("reply to %q: %w", rep.ID, err)
	}
	p.mu.Lock()
	cli := p.cli
	p.mu.Unlock()
	if cli == nil {
		return fmt.Errorf("reply to %q: not connected", rep.ID)
	}
	cli.Publish(p.prefix+TopicReply, 1, false, b)
	return nil
}

// onMessage receives the commands; it runs on paho's goroutine and never
// blocks.
func (p *Publisher) onMessage(cli mqtt.Client, m mqtt.Message) {
	typ, ok := strings.CutPrefix(m.Topic(), p.prefix+TopicCmd)
	if !ok {
		return
	}
	c, err := p.check(typ, m.Payload())
	if err != nil {
		p.log.Warn("command refused", "topic", m.Topic(), "id", c.ID, "err", err)
		b, _ := json.Marshal(Reply{ID: c.ID, Error: err.Error()})
		cli.Publish(p.prefix+TopicReply, 1, false, b)
		return
	}
	select {
	case p.cmds <- Request{Command: c, p: p}:
	default:
		p.log.Warn("command refused: busy", "id", c.ID)
		b, _ := json.Marshal(Reply{ID: c.ID, Error: "table busy: too many commands waiting"})
		cli.Publish(p.prefix+TopicReply, 1, false, b)
	}
}

// resultHashes lists the hashes of the results published, for an error.
func (p *Publisher) resultHashes() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	hs := make([]string, 0, len(p.res))
	for h := range p.res {
		hs = append(hs, h)
	}
	slices.Sort(hs)
	return strings.Join(hs, ", ")
}

// ErrUnauthorised is wrapped by the errors of commands from judges the
// table does not know.
var ErrUnauthorised = errors.New("unauthorised")

// check parses a command and checks its judge and certification.
func (p *Publisher) check(typ string, payload []byte) (Command, error) {
	c, err := ParseCommand(typ, payload)
	if err != nil {
		return c, err
	}
	if p.opts.Judges != nil {
		if _, ok := p.opts.Judges[c.Judge]; !ok {
			return c, fmt.Errorf("%w: judge %q is not one of this table's judges", ErrUnauthorised, c.Judge)
		}
		if err := c.VerifySignature(p.opts.Event, p.opts.Table, p.opts.Judges); err != nil {
			return c, fmt.Errorf("%w: %w", ErrUnauthorised, err)
		}
	}
	if c.Certification != nil {
		p.mu.Lock()
		res := p.res[c.RecordSHA256]
		n := len(p.res)
		p.mu.Unlock()
		if res == nil && n == 0 {
			return c, fmt.Errorf("%w: %s: the table has no result", ErrBadCommand, c.Type)
		}
		if res == nil {
			return c, fmt.Errorf("%w: %s: no result %s at this table: its results are %s", ErrBadCommand, c.Type, c.RecordSHA256, p.resultHashes())
		}
		if p.opts.Judges == nil {
			return c, fmt.Errorf("%w: %s: the table trusts no judge's key", ErrUnauthorised, c.Type)
		}
		if err := res.VerifyCertification(c.Certification, p.opts.Judges); err != nil {
			return c, fmt.Errorf("%w: %w", ErrUnauthorised, err)
		}
	}
	return c, nil
}
