// Package sim is the simulated table's hardware: an in-memory board whose
// pieces tests and the simulated table place and lift, and in-memory lights
// that record the frame shown. Board is an hw.Scanner, so the daemon runs it
// under the same hw.Watcher and debouncer as the real sensors; Lights is an
// hw.Lights. Render draws both in a terminal with ANSI colours.
package sim

import (
	"context"
	"fmt"
	"sync"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
)

// BoardOpts configures a simulated board.
type BoardOpts struct {
	// PresenceOnly makes the board read like the direct back-end: a count
	// of 0 or 1 per site and no colours.
	PresenceOnly bool
}

// Board is an in-memory board. Its methods are safe for concurrent use.
type Board struct {
	opts   BoardOpts
	notify chan struct{}

	mu    sync.Mutex
	sites board.Snapshot
	fail  error
}

// NewBoard returns an empty board (every piece off the table).
func NewBoard(o *BoardOpts) *Board {
	b := &Board{notify: make(chan struct{}, 1)}
	if o != nil {
		b.opts = *o
	}
	return b
}

// capacity is how many pieces a site holds.
func capacity(s engine.Site) uint8 {
	if s.Holds2() {
		return 2
	}
	return 4
}

// Place puts a piece of colour c on site s.
func (b *Board) Place(s engine.Site, c engine.Colour) error {
	if !s.Valid() || c >= engine.NumColours {
		return fmt.Errorf("sim: place %v on %v: no such site or colour", c, s)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &b.sites.Sites[s]
	if r.Count >= capacity(s) {
		return fmt.Errorf("sim: place %v on %v: site full (%d pieces)", c, s, r.Count)
	}
	r.Count++
	r.Coloured = true
	r.ByColour[c]++
	b.changed()
	return nil
}

// Lift takes a piece of colour c off site s.
func (b *Board) Lift(s engine.Site, c engine.Colour) error {
	if !s.Valid() || c >= engine.NumColours {
		return fmt.Errorf("sim: lift %v from %v: no such site or colour", c, s)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &b.sites.Sites[s]
	if r.ByColour[c] == 0 {
		return fmt.Errorf("sim: lift %v from %v: no %v piece there", c, s, c)
	}
	r.Count--
	r.ByColour[c]--
	r.Coloured = r.Count > 0
	b.changed()
	return nil
}

// Set sets site s's reading as a sensor would report it (a stray object, a
// faulty sensor, a bouncing switch step).
func (b *Board) Set(s engine.Site, r board.Reading) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sites.Sites[s] = r
	b.changed()
}

// SetAll sets every site at once.
func (b *Board) SetAll(snap *board.Snapshot) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sites = *snap
	b.changed()
}

// Fail makes every Scan fail with err (nil to read again), as a chip that
// stops answering would.
func (b *Board) Fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fail = err
	b.changed()
}

// Pieces returns the board as it is (not as the sensors report it).
func (b *Board) Pieces() board.Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sites
}

func (b *Board) changed() {
	select {
	case b.notify <- struct{}{}:
	default:
	}
}

// Caps implements hw.Scanner.
func (b *Board) Caps() hw.Caps {
	if b.opts.PresenceOnly {
		return hw.Caps{}
	}
	return hw.Caps{Counts: true, Colours: true}
}

// Scan implements hw.Scanner.
func (b *Board) Scan(_ context.Context, dst *board.Snapshot) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fail != nil {
		return b.fail
	}
	*dst = b.sites
	if b.opts.PresenceOnly {
		for i := range dst.Sites {
			n := min(dst.Sites[i].Count, 1)
			dst.Sites[i] = board.Reading{Count: n}
		}
	}
	return nil
}

// Notify implements hw.Notifier: every change wakes the watcher at once.
func (b *Board) Notify(context.Context) <-chan struct{} { return b.notify }

// Lights records the frame on show. Its methods are safe for concurrent use.
type Lights struct {
	mu    sync.Mutex
	frame board.Frame
	shows int
}

// NewLights returns lights that are all off.
func NewLights() *Lights { return &Lights{} }

// Show implements hw.Lights.
func (l *Lights) Show(f *board.Frame) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.frame = *f
	l.shows++
	return nil
}

// Frame returns the frame on show.
func (l *Lights) Frame() board.Frame {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frame
}

// Light returns what site s's light shows.
func (l *Lights) Light(s engine.Site) board.Light {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.frame.Sites[s]
}

// Shows returns how many frames have been shown.
func (l *Lights) Shows() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shows
}
