package broadcast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"

	"github.com/parchis-table/parchis/internal/password"
)

// Role is what a broker user may do.
type Role string

// Roles of broker users.
const (
	// RoleTable writes its own subtree parchis/v1/<event>/<table>/,
	// except cmd/, and reads everything under parchis/v1/.
	RoleTable Role = "table"
	// RoleJudge writes commands, parchis/v1/<event>/<table>/cmd/…, of its
	// event and table when these are set (of all when empty), and, when not
	// bound to a table, its events' standings, parchis/v1/<event>/standings;
	// it reads everything under parchis/v1/.
	RoleJudge Role = "judge"
	// RoleViewer only reads parchis/v1/.
	RoleViewer Role = "viewer"
)

// User is one account of the embedded broker: plain data, as loaded from
// the configuration.
type User struct {
	Name string `json:"name" yaml:"name"`
	// Password is the PBKDF2 hash of the password made by HashPassword,
	// "pbkdf2-sha256$<iterations>$<salt>$<key>" (base64, no padding); the
	// configuration never holds the password itself.
	Password string `json:"password" yaml:"password"`
	Role     Role   `json:"role" yaml:"role"`
	// Event and Table bound what a table writes (both required) and what
	// a judge commands (empty: every event, every table).
	Event string `json:"event,omitempty" yaml:"event,omitempty"`
	Table string `json:"table,omitempty" yaml:"table,omitempty"`
}

// PasswordIterations is the PBKDF2 iteration count of HashPassword, the
// same for the judges' passwords (internal/password).
const PasswordIterations = password.Iterations

// HashPassword returns the form of a password kept in User.Password.
func HashPassword(pw string) (string, error) { return password.Hash(pw) }

func hashPassword(pw string, iter int) (string, error) { return password.HashWith(pw, iter) }

// checkPassword reports whether pw matches hash.
func checkPassword(hash string, pw []byte) bool { return password.Check(hash, string(pw)) }

// BrokerOpts configures the embedded broker.
type BrokerOpts struct {
	// TCPAddr is the MQTT listener's address; default 127.0.0.1:1883
	// (0.0.0.0:1883 to serve the network).
	TCPAddr string
	// WSAddr is the MQTT-over-WebSocket listener's address (any path);
	// default 127.0.0.1:8083, "off" for none.
	WSAddr string
	// TLS, when enabled, puts both listeners under TLS (a CA makes client
	// certificates required).
	TLS TLSFiles
	// Users are the accounts; AllowAnonymous lets clients without a
	// username in as viewers.
	Users          []User
	AllowAnonymous bool
	// Logger receives the broker's log; default slog.Default(). The
	// broker never logs a payload, and repeats of a message are
	// rate-limited.
	Logger *slog.Logger
	// Limits bound what clients may make the broker hold; zero fields
	// take DefaultLimits.
	Limits Limits
}

// Broker is the embedded MQTT broker (mochi-mqtt) of a single table or a
// club. It keeps sessions and retained messages in memory: a restarted
// broker starts empty, and the tables fill it again as they reconnect
// (their status, state and result are republished on every connection).
type Broker struct {
	opts BrokerOpts
	srv  *mqtt.Server
}

// NewBroker checks opts and prepares a broker.
func NewBroker(opts BrokerOpts) (*Broker, error) {
	if opts.TCPAddr == "" {
		opts.TCPAddr = "127.0.0.1:1883"
	}
	if opts.WSAddr == "" {
		opts.WSAddr = "127.0.0.1:8083"
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	opts.Limits = opts.Limits.withDefaults()
	if err := opts.Limits.check(); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	seen := map[string]bool{}
	for i, u := range opts.Users {
		if u.Name == "" {
			return nil, fmt.Errorf("broker: user %d: no name", i+1)
		}
		if seen[u.Name] {
			return nil, fmt.Errorf("broker: user %q twice", u.Name)
		}
		seen[u.Name] = true
		if !strings.HasPrefix(u.Password, "pbkdf2-sha256$") || strings.Count(u.Password, "$") != 3 {
			return nil, fmt.Errorf("broker: user %q: password is not a hash from HashPassword (pbkdf2-sha256$…)", u.Name)
		}
		switch u.Role {
		case RoleTable:
			if u.Event == "" || u.Table == "" {
				return nil, fmt.Errorf("broker: table user %q: needs event and table", u.Name)
			}
		case RoleJudge, RoleViewer:
		default:
			return nil, fmt.Errorf("broker: user %q: role %q: want table, judge or viewer", u.Name, u.Role)
		}
		for _, s := range []string{u.Event, u.Table} {
			if strings.ContainsAny(s, "/+#") {
				return nil, fmt.Errorf("broker: user %q: %q is not a topic level", u.Name, s)
			}
		}
	}
	if _, err := opts.TLS.serverConfig(); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	return &Broker{opts: opts}, nil
}

// Start opens the listeners and serves until ctx ends or Close is called.
func (b *Broker) Start(ctx context.Context) error {
	tc, err := b.opts.TLS.serverConfig()
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	log := slog.New(newBrokerLog(b.opts.Logger.Handler()))
	lim := b.opts.Limits
	o := &mqtt.Options{InlineClient: false, Logger: log, Capabilities: mqtt.NewDefaultServerCapabilities()}
	lim.capabilities(o.Capabilities)
	srv := mqtt.New(o)
	conns := newConnLimiter(lim, log)
	if err := srv.AddHook(&accessHook{users: b.opts.Users, anonymous: b.opts.AllowAnonymous, srv: srv, lim: lim, log: log}, nil); err != nil {
		return fmt.Errorf("broker: access rules: %w", err)
	}
	if err := srv.AddListener(&tcpListener{id: "tcp", addr: b.opts.TCPAddr, tc: tc, c: conns}); err != nil {
		return fmt.Errorf("broker: listen %s: %w", b.opts.TCPAddr, err)
	}
	if b.opts.WSAddr != "off" {
		if err := srv.AddListener(&wsListener{id: "ws", addr: b.opts.WSAddr, tc: tc, c: conns}); err != nil {
			srv.Close()
			return fmt.Errorf("broker: listen %s (websocket): %w", b.opts.WSAddr, err)
		}
	}
	if err := srv.Serve(); err != nil {
		srv.Close()
		return fmt.Errorf("broker: serve: %w", err)
	}
	b.srv = srv
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	return nil
}

// Close stops the broker: listeners and clients are closed, sessions and
// retained messages forgotten.
func (b *Broker) Close() error {
	if b.srv == nil {
		return errors.New("broker: not started")
	}
	return b.srv.Close()
}

// accessHook applies the users and their roles.
type accessHook struct {
	mqtt.HookBase
	users     []User
	anonymous bool
	srv       *mqtt.Server
	lim       Limits
	log       *slog.Logger
}

func (h *accessHook) ID() string { return "parchis-access" }

func (h *accessHook) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck || b == mqtt.OnSubscribe || b == mqtt.OnUnsubscribe || b == mqtt.OnPacketRead || b == mqtt.OnDisconnect || b == mqtt.OnPublish
}

// OnPublish keeps retained only what the feed retains — a table's status,
// state, result and results waiting, an event's standings — so that no client can fill the broker's memory with
// retained messages on topics of its own making: any other retained
// publish is passed on, not kept.
func (h *accessHook) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if !pk.FixedHeader.Retain || cl.Net.Inline {
		return pk, nil
	}
	var u *User
	if len(cl.Properties.Username) > 0 {
		u = h.user(cl.Properties.Username)
	}
	if u != nil && u.Role == RoleTable {
		p := Prefix(u.Event, u.Table)
		if pk.TopicName == p+TopicStatus || pk.TopicName == p+TopicState || pk.TopicName == p+TopicResult {
			return pk, nil
		}
		// A result waiting for a verdict: one topic a record's hash.
		if h, ok := strings.CutPrefix(pk.TopicName, p+TopicResults); ok && IsRecordHash(h) {
			return pk, nil
		}
	}
	// An event's standings, from a judge allowed to write them: one topic
	// an event.
	if u != nil && u.Role == RoleJudge && strings.HasSuffix(pk.TopicName, "/"+TopicStandings) && allowed(u, pk.TopicName, true) {
		return pk, nil
	}
	h.log.Warn("broker: retained publish not kept", "client", truncate(cl.ID, 100), "topic", truncate(pk.TopicName, 200), "size", len(pk.Payload))
	pk.FixedHeader.Retain = false
	return pk, nil
}

// OnDisconnect logs a client disconnected for a packet over the limit, by
// client, user and address (the packet itself is not read).
func (h *accessHook) OnDisconnect(cl *mqtt.Client, err error, expire bool) {
	if errors.Is(err, packets.ErrPacketTooLarge) {
		h.log.Warn("broker: packet refused", "client", truncate(cl.ID, 100), "user", truncate(string(cl.Properties.Username), 100),
			"addr", cl.Net.Remote, "why", "larger than broker.max_packet", "max_packet", h.lim.MaxPacket)
	}
}

func (h *accessHook) user(name []byte) *User {
	for i := range h.users {
		if h.users[i].Name == string(name) {
			return &h.users[i]
		}
	}
	return nil
}

// OnConnectAuthenticate lets a client in when its password checks (or it
// is anonymous and anonymous viewers are allowed), when its last will is
// a message it may publish — the broker sends a will without asking the
// access rules, so a will is checked here — and when it does not take a
// table's client id, which would push the table off the broker.
func (h *accessHook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	var u *User
	if len(pk.Connect.Username) == 0 {
		if !h.anonymous {
			return false
		}
	} else if u = h.user(pk.Connect.Username); u == nil || !checkPassword(u.Password, pk.Connect.Password) {
		return false
	}
	if pk.Connect.WillFlag && !allowed(u, pk.Connect.WillTopic, true) {
		return false
	}
	for i := range h.users {
		t := &h.users[i]
		if t.Role == RoleTable && pk.Connect.ClientIdentifier == TableClientID(t.Event, t.Table) && t != u {
			return false
		}
	}
	// Sessions, kept for clients away, are bounded too: strangers may
	// fill MaxClients of them, users as many again.
	if h.srv != nil {
		if _, known := h.srv.Clients.Get(pk.Connect.ClientIdentifier); !known {
			most := h.lim.MaxClients
			if u != nil {
				most *= 2
			}
			if n := h.srv.Clients.Len(); n >= most {
				h.log.Warn("broker: session refused", "client", truncate(pk.Connect.ClientIdentifier, 100), "addr", cl.Net.Remote, "why", fmt.Sprintf("%d sessions kept, the most allowed", n))
				return false
			}
		}
	}
	return true
}

// OnSubscribe narrows a filter wider than the feed, such as "#" (what
// MQTT Explorer subscribes to) or "parchis/#", to the feed's topics under
// parchis/v1/, which a reader may have, instead of refusing it; and it
// refuses the filters beyond a client's MaxSubscriptions: each becomes an
// invalid filter, answered as such.
func (h *accessHook) OnSubscribe(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	h.narrow(cl, pk.Filters)
	n := cl.State.Subscriptions.Len()
	for i := range pk.Filters {
		if _, ok := cl.State.Subscriptions.Get(pk.Filters[i].Filter); ok {
			continue
		}
		if n >= h.lim.MaxSubscriptions {
			h.log.Warn("broker: subscription refused", "client", truncate(cl.ID, 100), "filter", truncate(pk.Filters[i].Filter, 200), "why", fmt.Sprintf("%d subscriptions, the most allowed", n))
			pk.Filters[i].Filter = "refused/#/"
			continue
		}
		n++
	}
	return pk
}

// OnUnsubscribe narrows the filters as OnSubscribe did, so that
// unsubscribing from "#" ends what subscribing to it began.
func (h *accessHook) OnUnsubscribe(cl *mqtt.Client, pk packets.Packet) packets.Packet {
	h.narrow(cl, pk.Filters)
	return pk
}

// narrow replaces each filter the client may not read, but which covers
// some of the feed's topics, by its part under parchis/v1/.
func (h *accessHook) narrow(cl *mqtt.Client, filters packets.Subscriptions) {
	for i := range filters {
		f := filters[i].Filter
		if h.OnACLCheck(cl, f, false) {
			continue
		}
		if nf, ok := NarrowFilter(f); ok && h.OnACLCheck(cl, nf, false) {
			filters[i].Filter = nf
		}
	}
}

// NarrowFilter returns the part of an MQTT topic filter that lies under
// the feed's root, parchis/v1/: "#" and "+/#" give "parchis/v1/#",
// "parchis/+/club/#" gives "parchis/v1/club/#"; ok is false when the filter
// matches none of the feed's topics ("sensors/#", "parchis/v2/#",
// "$SYS/#", a shared subscription).
func NarrowFilter(filter string) (narrowed string, ok bool) {
	if filter == "" || strings.HasPrefix(filter, "$") {
		return "", false
	}
	root := []string{"parchis", Version}
	levels := strings.Split(filter, "/")
	for i, r := range root {
		if i >= len(levels) {
			return "", false // "parchis" alone is no topic of the feed
		}
		switch levels[i] {
		case "#":
			return strings.Join(root, "/") + "/#", true
		case "+", r:
		default:
			return "", false
		}
	}
	if len(levels) == len(root) {
		return "", false // "parchis/v1" itself carries nothing
	}
	return strings.Join(append(root, levels[len(root):]...), "/"), true
}

// OnPacketRead logs a publish the access rules refuse, by client, topic
// and size, never its payload (the log is rate-limited).
func (h *accessHook) OnPacketRead(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if pk.FixedHeader.Type == packets.Publish && !h.OnACLCheck(cl, pk.TopicName, true) {
		h.log.Warn("broker: publish refused", "client", truncate(cl.ID, 100), "user", truncate(string(cl.Properties.Username), 100),
			"topic", truncate(pk.TopicName, 200), "size", len(pk.Payload), "qos", pk.FixedHeader.Qos)
	}
	return pk, nil
}

// TableClientID is the MQTT client id a table connects with, reserved on
// the embedded broker for that table's user.
func TableClientID(event, table string) string { return "parchis-" + event + "-" + table }

func (h *accessHook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	var u *User
	if len(cl.Properties.Username) > 0 {
		if u = h.user(cl.Properties.Username); u == nil {
			return false
		}
	} else if !h.anonymous {
		return false
	}
	return allowed(u, topic, write)
}

// allowed applies the rules of the roles (nil is anonymous, a viewer).
func allowed(u *User, topic string, write bool) bool {
	const root = "parchis/" + Version + "/"
	if !strings.HasPrefix(topic, root) {
		return false
	}
	if !write {
		return true
	}
	if u == nil {
		return false
	}
	switch u.Role {
	case RoleTable:
		p := Prefix(u.Event, u.Table)
		return strings.HasPrefix(topic, p) && !strings.HasPrefix(topic, p+TopicCmd) && topic != p+strings.TrimSuffix(TopicCmd, "/")
	case RoleJudge:
		f := strings.Split(topic, "/")
		if bytes.ContainsAny([]byte(topic), "+#") {
			return false
		}
		// An event's standings: a judge of the whole event publishes them.
		if len(f) == 4 && f[3] == TopicStandings && f[2] != "" {
			return u.Table == "" && (u.Event == "" || f[2] == u.Event)
		}
		return len(f) >= 6 && f[4]+"/" == TopicCmd && f[5] != "" &&
			(u.Event == "" || f[2] == u.Event) && (u.Table == "" || f[3] == u.Table)
	}
	return false
}
