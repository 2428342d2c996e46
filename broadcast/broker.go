package broadcast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
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
	// event and table when these are set (of all when empty), and reads
	// everything under parchis/v1/.
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
	// Logger receives the broker's log; default slog.Default().
	Logger *slog.Logger
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
	srv := mqtt.New(&mqtt.Options{InlineClient: false, Logger: b.opts.Logger})
	if err := srv.AddHook(&accessHook{users: b.opts.Users, anonymous: b.opts.AllowAnonymous}, nil); err != nil {
		return fmt.Errorf("broker: access rules: %w", err)
	}
	if err := srv.AddListener(listeners.NewTCP(listeners.Config{ID: "tcp", Address: b.opts.TCPAddr, TLSConfig: tc})); err != nil {
		return fmt.Errorf("broker: listen %s: %w", b.opts.TCPAddr, err)
	}
	if b.opts.WSAddr != "off" {
		if err := srv.AddListener(listeners.NewWebsocket(listeners.Config{ID: "ws", Address: b.opts.WSAddr, TLSConfig: tc})); err != nil {
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
}

func (h *accessHook) ID() string { return "parchis-access" }

func (h *accessHook) Provides(b byte) bool {
	return b == mqtt.OnConnectAuthenticate || b == mqtt.OnACLCheck
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
	return true
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
		return len(f) >= 6 && f[4]+"/" == TopicCmd && f[5] != "" &&
			(u.Event == "" || f[2] == u.Event) && (u.Table == "" || f[3] == u.Table) &&
			!bytes.ContainsAny([]byte(topic), "+#")
	}
	return false
}
