package broadcast

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
)

// Limits bound what clients, above all strangers, may make the embedded
// broker hold in memory. The zero value of a field takes the default of
// DefaultLimits.
type Limits struct {
	// MaxPacket is the largest MQTT packet accepted, in bytes; a larger
	// one is refused from its fixed header, before any of it is read, and
	// its client disconnected. Commands and results fit in the default.
	MaxPacket int
	// MaxClients bounds the open connections (before and after CONNECT)
	// and the sessions the broker keeps.
	MaxClients int
	// MaxClientsPerAddr bounds the open connections from one IP address.
	MaxClientsPerAddr int
	// MaxInflight bounds the QoS 1 and 2 messages kept for one client
	// (sent and not acknowledged, or kept while it is away); beyond it
	// the broker drops what it would send that client. The default, as
	// Mosquitto's max_queued_messages, lets a subscriber catch up with a
	// table's queue delivered in a burst after an outage; events are
	// small (under 1 KB), strangers cannot publish, so a client holds at
	// most about 1 MB.
	MaxInflight int
	// MaxQueued bounds the packets waiting to be written to one client.
	MaxQueued int
	// MaxSubscriptions bounds one client's subscriptions.
	MaxSubscriptions int
	// ConnectTimeout is how long a new connection has to send its
	// CONNECT.
	ConnectTimeout time.Duration
}

// DefaultLimits are the broker's limits unless configured otherwise.
var DefaultLimits = Limits{
	MaxPacket:         64 << 10,
	MaxClients:        256,
	MaxClientsPerAddr: 16,
	MaxInflight:       1000,
	MaxQueued:         1000,
	MaxSubscriptions:  64,
	ConnectTimeout:    10 * time.Second,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxPacket, d.MaxPacket)
	set(&l.MaxClients, d.MaxClients)
	set(&l.MaxClientsPerAddr, d.MaxClientsPerAddr)
	set(&l.MaxInflight, d.MaxInflight)
	set(&l.MaxQueued, d.MaxQueued)
	set(&l.MaxSubscriptions, d.MaxSubscriptions)
	if l.ConnectTimeout <= 0 {
		l.ConnectTimeout = d.ConnectTimeout
	}
	return l
}

// check reports limits out of what the broker can honour.
func (l Limits) check() error {
	var errs []error
	if l.MaxPacket < 1024 || l.MaxPacket > 256<<20 {
		errs = append(errs, fmt.Errorf("max packet %d: want 1024 to %d bytes", l.MaxPacket, 256<<20))
	}
	if l.MaxInflight > 65535 {
		errs = append(errs, fmt.Errorf("max inflight %d: want at most 65535", l.MaxInflight))
	}
	if l.MaxClientsPerAddr > l.MaxClients {
		errs = append(errs, fmt.Errorf("max clients per address %d: more than max clients %d", l.MaxClientsPerAddr, l.MaxClients))
	}
	return errors.Join(errs...)
}

// capabilities applies the limits to mochi's options.
func (l Limits) capabilities(c *mqtt.Capabilities) {
	c.MaximumPacketSize = uint32(l.MaxPacket)
	c.MaximumClients = int64(l.MaxClients)
	c.MaximumInflight = uint16(l.MaxInflight)
	c.ReceiveMaximum = uint16(min(l.MaxInflight, 32))
	c.MaximumClientWritesPending = int32(l.MaxQueued)
	// A session of a client away for a day is dropped with what it kept.
	c.MaximumSessionExpiryInterval = 24 * 60 * 60
	c.MaximumMessageExpiryInterval = 24 * 60 * 60
	c.TopicAliasMaximum = 16
}

// connLimiter counts open connections, in total and per address.
type connLimiter struct {
	lim    Limits
	log    *slog.Logger
	mu     sync.Mutex
	total  int
	byAddr map[string]int
}

func newConnLimiter(lim Limits, log *slog.Logger) *connLimiter {
	return &connLimiter{lim: lim, log: log, byAddr: map[string]int{}}
}

// take counts a new connection from addr, or says why it is refused.
func (c *connLimiter) take(addr string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total >= c.lim.MaxClients {
		return fmt.Errorf("%d connections open, the most allowed (broker.max_clients)", c.total)
	}
	if c.byAddr[addr] >= c.lim.MaxClientsPerAddr {
		return fmt.Errorf("%d connections open from %s, the most allowed (broker.max_clients_per_address)", c.byAddr[addr], addr)
	}
	c.total++
	c.byAddr[addr]++
	return nil
}

func (c *connLimiter) release(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total--
	if c.byAddr[addr]--; c.byAddr[addr] <= 0 {
		delete(c.byAddr, addr)
	}
}

// open returns the number of connections counted.
func (c *connLimiter) open() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

func hostOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	if host, _, err := net.SplitHostPort(a.String()); err == nil {
		return host
	}
	return a.String()
}

// limitedListener refuses connections over the limits as they are
// accepted, and gives each new one ConnectTimeout to send its CONNECT.
type limitedListener struct {
	net.Listener
	c *connLimiter
}

func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		addr := hostOf(conn.RemoteAddr())
		if err := l.c.take(addr); err != nil {
			l.c.log.Warn("broker: connection refused", "addr", conn.RemoteAddr().String(), "why", err.Error())
			conn.Close()
			continue
		}
		conn.SetDeadline(time.Now().Add(l.c.lim.ConnectTimeout))
		return &countedConn{Conn: conn, c: l.c, addr: addr}, nil
	}
}

// countedConn releases its count once when closed.
type countedConn struct {
	net.Conn
	c    *connLimiter
	addr string
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.c.release(c.addr) })
	return c.Conn.Close()
}

// listen opens addr for TCP with the limits, under TLS when tc is set.
func (c *connLimiter) listen(addr string, tc *tls.Config) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	var l net.Listener = &limitedListener{Listener: ln, c: c}
	if tc != nil {
		l = tls.NewListener(l, tc)
	}
	return l, nil
}

// tcpListener is the broker's MQTT listener over TCP, with limits.
type tcpListener struct {
	id, addr string
	tc       *tls.Config
	c        *connLimiter
	log      *slog.Logger
	ln       net.Listener
	end      atomic.Bool
}

func (l *tcpListener) ID() string { return l.id }
func (l *tcpListener) Address() string {
	if l.ln != nil {
		return l.ln.Addr().String()
	}
	return l.addr
}
func (l *tcpListener) Protocol() string { return "tcp" }

func (l *tcpListener) Init(log *slog.Logger) error {
	l.log = log
	ln, err := l.c.listen(l.addr, l.tc)
	if err != nil {
		return err
	}
	l.ln = ln
	return nil
}

func (l *tcpListener) Serve(establish listeners.EstablishFn) {
	var wait time.Duration
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			if l.end.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors, say: wait and accept again, as
			// net/http does, rather than stop serving.
			wait = min(max(2*wait, 5*time.Millisecond), time.Second)
			l.c.log.Warn("broker: accepting a connection", "err", err.Error(), "retry_in", wait)
			time.Sleep(wait)
			continue
		}
		wait = 0
		if l.end.Load() {
			conn.Close()
			return
		}
		go func() {
			if err := establish(l.id, conn); err != nil {
				logConnError(l.c, conn, err)
			}
		}()
	}
}

func (l *tcpListener) Close(closeClients listeners.CloseFn) {
	if l.end.CompareAndSwap(false, true) {
		closeClients(l.id)
	}
	if l.ln != nil {
		l.ln.Close()
	}
}

// logConnError logs why a connection ended, naming a packet over the
// limit as such (mochi refuses it from its announced size).
func logConnError(c *connLimiter, conn net.Conn, err error) {
	if errors.Is(err, packets.ErrPacketTooLarge) {
		// A client that had connected is logged with its id
		// (accessHook.OnDisconnect); this is a CONNECT too large.
		if strings.HasPrefix(err.Error(), "read connection") {
			c.log.Warn("broker: packet refused", "addr", conn.RemoteAddr().String(), "packet", "CONNECT", "why", "larger than broker.max_packet", "max_packet", c.lim.MaxPacket)
		}
		return
	}
	if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
		return
	}
	c.log.Info("broker: connection ended", "addr", conn.RemoteAddr().String(), "error", err.Error())
}

// wsListener is the broker's MQTT-over-WebSocket listener, with limits.
type wsListener struct {
	id, addr string
	tc       *tls.Config
	c        *connLimiter
	log      *slog.Logger
	ln       net.Listener
	srv      *http.Server
	up       websocket.Upgrader
	end      atomic.Bool
}

func (l *wsListener) ID() string { return l.id }
func (l *wsListener) Address() string {
	if l.ln != nil {
		return l.ln.Addr().String()
	}
	return l.addr
}
func (l *wsListener) Protocol() string {
	if l.tc != nil {
		return "wss"
	}
	return "ws"
}

func (l *wsListener) Init(log *slog.Logger) error {
	l.log = log
	ln, err := l.c.listen(l.addr, l.tc)
	if err != nil {
		return err
	}
	l.ln = ln
	l.up = websocket.Upgrader{Subprotocols: []string{"mqtt"}, CheckOrigin: func(*http.Request) bool { return true },
		ReadBufferSize: 2048, WriteBufferSize: 2048}
	return nil
}

func (l *wsListener) Serve(establish listeners.EstablishFn) {
	l.srv = &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ws, err := l.up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer ws.Close()
			ws.SetReadLimit(int64(l.c.lim.MaxPacket) + 16)
			conn := &wsConn{Conn: ws.NetConn(), ws: ws}
			if err := establish(l.id, conn); err != nil {
				logConnError(l.c, conn, err)
			}
		}),
		ReadHeaderTimeout: l.c.lim.ConnectTimeout,
		MaxHeaderBytes:    8 << 10,
		ErrorLog:          slog.NewLogLogger(l.log.Handler(), slog.LevelDebug),
	}
	l.srv.Serve(l.ln)
}

func (l *wsListener) Close(closeClients listeners.CloseFn) {
	if l.end.CompareAndSwap(false, true) && l.srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		l.srv.Shutdown(ctx)
	}
	closeClients(l.id)
	if l.ln != nil {
		l.ln.Close()
	}
}

// wsConn carries MQTT in binary WebSocket messages, as a net.Conn.
type wsConn struct {
	net.Conn
	ws *websocket.Conn
	r  io.Reader
}

var errNotBinary = errors.New("websocket message not binary")

func (c *wsConn) Read(p []byte) (int, error) {
	for {
		if c.r == nil {
			op, r, err := c.ws.NextReader()
			if err != nil {
				return 0, err
			}
			if op != websocket.BinaryMessage {
				return 0, errNotBinary
			}
			c.r = r
		}
		n, err := c.r.Read(p)
		if errors.Is(err, io.EOF) {
			c.r = nil
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

func (c *wsConn) Write(p []byte) (int, error) {
	if err := c.ws.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}
