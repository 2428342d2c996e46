package judges

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/certify"
	"github.com/parchis-table/parchis/tournament"
)

// Defaults of Opts.
const (
	DefaultBroker   = "tcp://127.0.0.1:1883"
	DefaultAddr     = "127.0.0.1:8080"
	DefaultLang     = LangES
	DefaultHistory  = 300
	DefaultTimeout  = 5 * time.Second
	DefaultSession  = 12 * time.Hour
	DemoJudgeName   = "juez"
	DemoJudgePasswd = "juez"
)

// Judge is one judge who may sign in and certify results.
type Judge struct {
	// Name is the user name, also written in certifications.
	Name string
	// PasswordHash is a hash made by HashPassword (parchis-judges
	// hash-password). Password, a plain password, is accepted instead for
	// demonstrations; PasswordHash wins when both are set.
	PasswordHash string
	Password     string
	// KeyFile holds the judge's Ed25519 key (PEM PKCS #8), created on
	// first start when missing. Empty means a key made anew at every
	// start, fit only for demonstrations.
	KeyFile string
}

// Opts configures a dashboard. The zero value works: it is filled with the
// defaults by New.
type Opts struct {
	// Broker is the MQTT broker's URL (tcp://host:port or ws://…);
	// DefaultBroker when empty.
	Broker string
	// Username and Password are the dashboard's own MQTT credentials;
	// empty for an anonymous client. Commands are published with them, so
	// the broker must let this user write cmd/ topics.
	Username, Password string
	// ClientID is the MQTT client id; a random one when empty.
	ClientID string
	// Addr is where the web server listens; DefaultAddr when empty.
	Addr string
	// Judges who may sign in. With none, the demo judge juez / juez
	// (DemoJudgeName, DemoJudgePasswd) is used, with its key in
	// DemoKeyFile.
	Judges []Judge
	// DemoKeyFile keeps the demo judge's key, so that its verdicts stay
	// trusted after a restart; empty: a key made anew at every start.
	DemoKeyFile string
	// TableKeys maps tables ("event/table") to their Ed25519 public keys
	// (standard base64): a result of a listed table signed by another key
	// is flagged and cannot be certified (see ReadTableKeys).
	TableKeys map[string]string
	// CertFile and KeyFile, both or neither, are the PEM certificate and
	// key to serve the dashboard over HTTPS; its cookies are then Secure.
	// Judges sign in with passwords: off a trusted network, use HTTPS.
	CertFile, KeyFile string
	// Lang is the default language, "es" or "en"; DefaultLang when empty.
	Lang string
	// History bounds the events kept per table; DefaultHistory when 0.
	History int
	// ReplyTimeout bounds the wait for a table's reply to a command;
	// DefaultTimeout when 0.
	ReplyTimeout time.Duration
	// Tournament, when set, is the tournament the dashboard runs: its
	// standings are fed by the certified results of its event's tables
	// and published retained on parchis/v1/<event>/standings.
	Tournament *tournament.Event
	// Archive, when set, is the club archive's folder: every result
	// received is kept there (its record, YYYY-MM-DD_<table>_<n>.txt, and
	// the result beside it), and the archive page lists its records.
	Archive string
	// Logger receives the dashboard's logs; slog.Default() when nil.
	Logger *slog.Logger
}

// templates are the pages' templates; static the files served under
// /static/, assets only (never a template's source).
var (
	//go:embed assets/*.html
	templates embed.FS
	//go:embed assets/*.js assets/*.css
	static embed.FS
)

// ErrDemoJudgeOffLoopback refuses the demo judge (juez / juez) on a
// dashboard that listens beyond this machine: anyone could certify.
var ErrDemoJudgeOffLoopback = errors.New("the demo judge juez/juez is allowed only on a loopback address: give the judges (a judges file)")

// loopback reports whether addr (host:port) listens on this machine only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Server is the judges' dashboard: an MQTT client following every table
// and a web server showing them.
type Server struct {
	opts     Opts
	log      *slog.Logger
	store    *Store
	hub      *hub
	sessions *sessions
	judges   map[string]*judge
	tmpl     *template.Template
	mux      *http.ServeMux
	tls      *tls.Config  // nil: plain HTTP
	streams  atomic.Int64 // open event streams
	// lastTile is the last tile sent of each table, by language.
	tilesMu  sync.Mutex
	lastTile map[string][]byte
	// streamBytes and streamMsgs count what the event streams sent
	// (server-sent events, without HTTP's chunk framing).
	streamBytes, streamMsgs atomic.Int64
	feed                    *feed
	throttle                *throttle
	tour                    *tour    // nil without a tournament
	archive                 *archive // nil without an archive
	// timeouts of the web server (set before Serve; tests shorten them)
	readHeaderTimeout, readTimeout, idleTimeout time.Duration

	mu   sync.Mutex
	addr net.Addr
}

// New checks opts, loads the judges' keys and returns a server ready to
// Run. It does not connect to the broker yet.
func New(opts Opts) (*Server, error) {
	if opts.Broker == "" {
		opts.Broker = DefaultBroker
	}
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if opts.Lang == "" {
		opts.Lang = DefaultLang
	}
	if !validLang(opts.Lang) {
		return nil, fmt.Errorf("judges: language %q: want es or en", opts.Lang)
	}
	if opts.History <= 0 {
		opts.History = DefaultHistory
	}
	if opts.ReplyTimeout <= 0 {
		opts.ReplyTimeout = DefaultTimeout
	}
	if opts.ClientID == "" {
		opts.ClientID = "parchis-judges-" + randomToken()[:12]
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	s := &Server{
		opts:     opts,
		log:      log,
		store:    NewStore(opts.History),
		sessions: newSessions(DefaultSession),
		judges:   map[string]*judge{},
		throttle: newThrottle(),

		readHeaderTimeout: 10 * time.Second, readTimeout: 30 * time.Second, idleTimeout: 2 * time.Minute,
	}
	judges := opts.Judges
	if len(judges) == 0 && !loopback(opts.Addr) {
		return nil, fmt.Errorf("judges: %w (addr %s)", ErrDemoJudgeOffLoopback, opts.Addr)
	}
	if len(judges) == 0 {
		judges = []Judge{{Name: DemoJudgeName, Password: DemoJudgePasswd, KeyFile: opts.DemoKeyFile}}
		log.Info("judges: no judges configured: demo judge", "user", DemoJudgeName, "password", DemoJudgePasswd)
	}
	for _, j := range judges {
		jj, err := loadJudge(j)
		if err != nil {
			return nil, err
		}
		if _, dup := s.judges[jj.name]; dup {
			return nil, fmt.Errorf("judges: judge %q configured twice", jj.name)
		}
		s.judges[jj.name] = jj
		log.Info("judges: judge", "name", jj.name, "key", certify.PublicKeyString(jj.key))
	}
	if (opts.CertFile == "") != (opts.KeyFile == "") {
		return nil, errors.New("judges: HTTPS needs both a certificate and a key file")
	}
	if opts.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(opts.CertFile, opts.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("judges: HTTPS certificate %s, key %s: %w", opts.CertFile, opts.KeyFile, err)
		}
		s.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	s.store.trust = Trust{TableKeys: opts.TableKeys, Judges: s.JudgeKeys()}
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	s.tmpl = t
	if opts.Tournament != nil {
		s.tour = newTour(opts.Tournament)
	}
	if opts.Archive != "" {
		a, err := newArchive(opts.Archive)
		if err != nil {
			return nil, err
		}
		s.archive = a
	}
	s.hub = newHub(s.renderChange)
	s.feed = newFeed(s)
	s.mux = s.routes()
	return s, nil
}

// loadJudge checks a judge's configuration and loads or makes its key.
func loadJudge(j Judge) (*judge, error) {
	if j.Name == "" {
		return nil, errors.New("judges: a judge has no name")
	}
	hash := j.PasswordHash
	switch {
	case hash != "":
		if _, _, _, err := parseHash(hash); err != nil {
			return nil, fmt.Errorf("judges: judge %q: %w", j.Name, err)
		}
	case j.Password != "":
		h, err := HashPassword(j.Password)
		if err != nil {
			return nil, fmt.Errorf("judges: judge %q: %w", j.Name, err)
		}
		hash = h
	default:
		return nil, fmt.Errorf("judges: judge %q has no password", j.Name)
	}
	var key ed25519.PrivateKey
	if j.KeyFile != "" {
		k, err := certify.LoadOrCreateKey(j.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("judges: judge %q: %w", j.Name, err)
		}
		key = k
	} else {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("judges: judge %q: key: %w", j.Name, err)
		}
		key = k
	}
	return &judge{name: j.Name, hash: hash, key: key}, nil
}

// JudgeKeys returns the judges' public keys by name, as the tables' trust
// lists take them (broadcast.Judges).
func (s *Server) JudgeKeys() broadcast.Judges {
	m := broadcast.Judges{}
	for n, j := range s.judges {
		m[n] = certify.PublicKeyString(j.key)
	}
	return m
}

// Store returns the server's view of the tables.
func (s *Server) Store() *Store { return s.store }

// Handler returns the dashboard's HTTP handler.
func (s *Server) Handler() http.Handler { return s.mux }

// Addr returns the address the web server listens on once Run or Serve has
// started, or nil.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Run connects to the broker, listens on Opts.Addr and serves until ctx is
// done; then it closes everything and returns nil. A listening error is
// returned at once.
func (s *Server) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("judges: listen: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve is Run on a listener of the caller's, which it closes.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	scheme := "http"
	if s.tls != nil {
		ln, scheme = tls.NewListener(ln, s.tls), "https"
	}
	s.mu.Lock()
	s.addr = ln.Addr()
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.hub.run(ctx) }()
	go func() { defer wg.Done(); s.feed.run(ctx) }()
	hs := &http.Server{
		Handler:           s.mux,
		ReadHeaderTimeout: s.readHeaderTimeout,
		// Forms are small: a client that sends or reads a page slowly is
		// cut off (the event stream sets its own write deadlines).
		ReadTimeout:    s.readTimeout,
		WriteTimeout:   30 * time.Second,
		IdleTimeout:    s.idleTimeout,
		MaxHeaderBytes: 64 << 10,
		BaseContext:    func(net.Listener) context.Context { return ctx },
	}
	s.log.Info("judges: dashboard", "url", scheme+"://"+ln.Addr().String(), "broker", s.opts.Broker)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-errc:
		err = fmt.Errorf("judges: serve: %w", err)
	}
	cancel()
	shut, done := context.WithTimeout(context.Background(), 2*time.Second)
	defer done()
	_ = hs.Shutdown(shut)
	wg.Wait()
	return err
}

// staticFS is the embedded static files.
func staticFS() fs.FS {
	sub, err := fs.Sub(static, "assets")
	if err != nil {
		panic(err) // the folder is embedded
	}
	return sub
}
