package broadcast

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/mochi-mqtt/server/v2/packets"
)

// brokerLog is the embedded broker's log handler. It never writes a
// packet's payload: a packet in a record (mochi logs the packet it
// refused) becomes its type, topic and size. And it lets through at most
// burst records of one message per period, then counts the rest and says
// how many it left out when the next one gets through: a client sending
// refused packets in a loop cannot fill the disk.
type brokerLog struct {
	inner slog.Handler
	rl    *rateLimit
}

type rateLimit struct {
	mu     sync.Mutex
	period time.Duration
	burst  int
	now    func() time.Time
	seen   map[string]*window
}

type window struct {
	start   time.Time
	n       int
	dropped int
}

// allow reports whether a record with message msg may be written now,
// and how many of the same were left out since the last one written.
func (r *rateLimit) allow(msg string) (bool, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	w := r.seen[msg]
	if w == nil {
		if len(r.seen) > 1024 { // messages are constants; this is a safety net
			clear(r.seen)
		}
		w = &window{start: now}
		r.seen[msg] = w
	}
	if now.Sub(w.start) >= r.period {
		w.start, w.n = now, 0
	}
	if w.n >= r.burst {
		w.dropped++
		return false, 0
	}
	w.n++
	d := w.dropped
	w.dropped = 0
	return true, d
}

func newBrokerLog(h slog.Handler) *brokerLog {
	return &brokerLog{inner: h, rl: &rateLimit{period: time.Minute, burst: 20, now: time.Now, seen: map[string]*window{}}}
}

func (h *brokerLog) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *brokerLog) Handle(ctx context.Context, r slog.Record) error {
	ok, dropped := h.rl.allow(r.Message)
	if !ok {
		return nil
	}
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(safeAttr(a))
		return true
	})
	if dropped > 0 {
		out.AddAttrs(slog.Int("repeats_not_logged", dropped))
	}
	return h.inner.Handle(ctx, out)
}

func (h *brokerLog) WithAttrs(as []slog.Attr) slog.Handler {
	safe := make([]slog.Attr, len(as))
	for i, a := range as {
		safe[i] = safeAttr(a)
	}
	return &brokerLog{inner: h.inner.WithAttrs(safe), rl: h.rl}
}

func (h *brokerLog) WithGroup(name string) slog.Handler {
	return &brokerLog{inner: h.inner.WithGroup(name), rl: h.rl}
}

// safeAttr replaces a packet by what may be logged of it.
func safeAttr(a slog.Attr) slog.Attr {
	switch v := a.Value.Any().(type) {
	case packets.Packet:
		return slog.Group(a.Key, packetSummary(&v)...)
	case *packets.Packet:
		if v != nil {
			return slog.Group(a.Key, packetSummary(v)...)
		}
	case []byte:
		return slog.Int(a.Key+"_bytes", len(v))
	}
	return a
}

func packetSummary(pk *packets.Packet) []any {
	s := []any{"type", packets.PacketNames[pk.FixedHeader.Type], "size", pk.FixedHeader.Remaining}
	if pk.TopicName != "" {
		s = append(s, "topic", truncate(pk.TopicName, 200))
	}
	if len(pk.Payload) > 0 {
		s = append(s, "payload_bytes", len(pk.Payload))
	}
	if pk.Connect.ClientIdentifier != "" {
		s = append(s, "client", truncate(pk.Connect.ClientIdentifier, 100))
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
