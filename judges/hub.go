package judges

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// clientBuffer is how many messages may wait for a slow page before it is
// dropped (its EventSource then reconnects and the page reloads).
const clientBuffer = 256

// sseClient is one open /events stream.
type sseClient struct {
	lang  string
	table string // only this table's messages, or "" for all
	view  string // "tiles" for the multiboard's deltas, or "" for cards
	ch    chan []byte
}

// hub fans the store's changes out to the open event streams, rendered
// once per language in use.
type hub struct {
	render func(c Change, lang, view string) []byte
	in     chan Change

	mu      sync.Mutex
	clients map[*sseClient]struct{}
}

func newHub(render func(c Change, lang, view string) []byte) *hub {
	return &hub{render: render, in: make(chan Change, 4096), clients: map[*sseClient]struct{}{}}
}

// publish queues a change for the streams; it never blocks the MQTT
// client for long.
func (h *hub) publish(c Change) {
	select {
	case h.in <- c:
	case <-time.After(time.Second):
	}
}

// run renders and sends the queued changes until ctx is done.
func (h *hub) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			h.mu.Lock()
			for c := range h.clients {
				delete(h.clients, c)
				close(c.ch)
			}
			h.mu.Unlock()
			return
		case c := <-h.in:
			h.send(c)
		}
	}
}

func (h *hub) send(c Change) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var byLang map[string][]byte
	for cl := range h.clients {
		if cl.table != "" && cl.table != c.ID || (cl.view == viewStandings) != (c.ID == standingsID) {
			continue
		}
		key := cl.lang + "/" + cl.view
		msg, ok := byLang[key]
		if !ok {
			if byLang == nil {
				byLang = map[string][]byte{}
			}
			msg = h.render(c, cl.lang, cl.view)
			byLang[key] = msg
		}
		if msg == nil {
			continue
		}
		select {
		case cl.ch <- msg:
		default:
			delete(h.clients, cl)
			close(cl.ch)
		}
	}
}

func (h *hub) add(cl *sseClient) {
	h.mu.Lock()
	h.clients[cl] = struct{}{}
	h.mu.Unlock()
}

func (h *hub) remove(cl *sseClient) {
	h.mu.Lock()
	if _, ok := h.clients[cl]; ok {
		delete(h.clients, cl)
		close(cl.ch)
	}
	h.mu.Unlock()
}

// viewTiles asks the event stream for the multiboard's tiles.
const viewTiles = "tiles"

// serveEvents streams changes as server-sent events until the client
// goes or ctx is done: "table" events whose data is a JSON object with
// the table's id, its newest event number and the HTML to swap in, or
// with ?view=tiles "tile" events whose data is a Tile.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	if _, ok := w.(http.Flusher); !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	s.streams.Add(1)
	defer s.streams.Add(-1)
	view := ""
	switch v := r.URL.Query().Get("view"); v {
	case viewTiles, viewStandings:
		view = v
	}
	cl := &sseClient{lang: pickLang(r, s.opts.Lang), table: r.URL.Query().Get("table"), view: view, ch: make(chan []byte, clientBuffer)}
	s.hub.add(cl)
	defer s.hub.remove(cl)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	// The stream outlives the server's WriteTimeout; each write gets its
	// own deadline instead, so that a browser that stops reading frees the
	// stream instead of holding it for ever.
	rc := http.NewResponseController(w)
	deadline := func() { _ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)) }
	deadline()
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("retry: 2000\nevent: hello\ndata: {}\n\n"))
	_ = rc.Flush()
	ping := time.NewTicker(20 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ping.C:
			deadline()
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		case msg, ok := <-cl.ch:
			if !ok {
				return
			}
			deadline()
			if _, err := w.Write(msg); err != nil {
				return
			}
			s.streamBytes.Add(int64(len(msg)))
			s.streamMsgs.Add(1)
			// Send what else is waiting in the same write.
			for more := true; more; {
				select {
				case m, ok := <-cl.ch:
					if !ok {
						_ = rc.Flush()
						return
					}
					_, _ = w.Write(m)
					s.streamBytes.Add(int64(len(m)))
					s.streamMsgs.Add(1)
				default:
					more = false
				}
			}
			if rc.Flush() != nil {
				return
			}
		}
	}
}

// streamWriteTimeout bounds each write of an event stream (a variable for
// the tests).
var streamWriteTimeout = 10 * time.Second
