// Package tile is the logic of a sensor tile's firmware, in plain Go so it
// is tested on the host: scan scheduling over the analog multiplexers,
// classification of each hall sensor's reading into a piece count and
// colours, debouncing, the numbered change log, and the answers to the Pi's
// frames (firmware/protocol). It is the reference model: the firmware that
// runs on the tiles (firmware/avr, in C) is held to it byte for byte by
// firmware/avrsim's differential test, and tilestest emulates tiles with it.
package tile

import (
	"fmt"

	"github.com/parchis-table/parchis/firmware/protocol"
)

// Front is the analog front end: multiplexers sharing their select lines,
// each feeding one ADC input.
type Front interface {
	// Select sets the multiplexers' select lines to input addr and waits
	// for the analog signal to settle.
	Select(addr uint8)
	// Read samples multiplexer mux's ADC input (12 bits).
	Read(mux int) uint16
}

// Schedule is the order of a scan: for each select address in turn, every
// multiplexer is sampled, so a full scan changes the select lines only
// PerMux times. Channel m*PerMux+a is input a of multiplexer m.
type Schedule struct {
	Muxes  int // multiplexers (ADC inputs): 1…4 (the ATmega328P tile has 4)
	PerMux int // inputs used on each multiplexer: 1…16
}

// Channels returns the number of channels scanned.
func (s Schedule) Channels() int { return s.Muxes * s.PerMux }

// Validate checks the schedule against the hardware and protocol limits.
func (s Schedule) Validate() error {
	if s.Muxes < 1 || s.Muxes > 4 || s.PerMux < 1 || s.PerMux > 16 || s.Channels() > protocol.MaxChannels {
		return fmt.Errorf("tile: schedule of %d multiplexers × %d inputs out of range", s.Muxes, s.PerMux)
	}
	return nil
}

// Scan samples every channel into dst (Channels long).
func (s Schedule) Scan(f Front, dst []uint16) {
	for a := 0; a < s.PerMux; a++ {
		f.Select(uint8(a))
		for m := 0; m < s.Muxes; m++ {
			dst[m*s.PerMux+a] = f.Read(m)
		}
	}
}

// Classifier turns a hall sensor's sample into a reading. A piece's magnet
// moves the sample away from the empty-site baseline, up for a north pole
// facing the sensor and down for a south pole; two pieces move it about
// twice as far.
type Classifier struct {
	// One and Two are the deviations from the baseline (ADC counts) from
	// which one and two pieces are read.
	One, Two uint16
	// Hysteresis keeps a reading until the deviation is this far past the
	// threshold the other way, so a sample near a threshold does not flicker.
	Hysteresis uint16
	// Colours tells whether the pieces' magnets are fitted by colour; North
	// and South are then the colours (0 Yellow, 1 Blue, 2 Red, 3 Green) of
	// the pieces whose north or south pole faces down.
	Colours      bool
	North, South uint8
}

// DefaultClassifier suits an SS49E-type sensor at 3.3 V with 6 mm magnets
// in the pieces, north for Yellow and south for Red pieces.
var DefaultClassifier = Classifier{One: 180, Two: 420, Hysteresis: 30, Colours: true, North: 0, South: 2}

// Classify returns the reading of a sample against its baseline, given the
// channel's previous reading (for hysteresis).
func (c *Classifier) Classify(sample, baseline uint16, prev protocol.Reading) protocol.Reading {
	d := int(sample) - int(baseline)
	north := d >= 0
	if d < 0 {
		d = -d
	}
	one, two := int(c.One), int(c.Two)
	h := int(c.Hysteresis)
	switch prev.Count() {
	case 0:
		one += h
		two += h
	case 1:
		one -= h
		two += h
	default:
		one -= h
		two -= h
	}
	var n uint8
	switch {
	case d >= two:
		n = 2
	case d >= one:
		n = 1
	default:
		return protocol.MakeReading(0)
	}
	if !c.Colours {
		return protocol.MakeReading(n)
	}
	col := c.South
	if north {
		col = c.North
	}
	return protocol.MakeColoured(n, col, col)
}

// Debouncer is a per-channel integrator over classified readings: a new
// reading is accepted after it has been seen N more times than the current
// one.
type Debouncer struct {
	N      uint8
	stable [protocol.MaxChannels]protocol.Reading
	cand   [protocol.MaxChannels]protocol.Reading
	level  [protocol.MaxChannels]uint8
}

// Stable returns channel ch's debounced reading.
func (d *Debouncer) Stable(ch int) protocol.Reading { return d.stable[ch] }

// Feed takes one scan's readings and calls changed for every channel whose
// debounced reading changed.
func (d *Debouncer) Feed(rs []protocol.Reading, changed func(ch int, r protocol.Reading)) {
	n := max(d.N, 1)
	for ch, r := range rs {
		switch {
		case r == d.stable[ch]:
			if d.level[ch] > 0 {
				d.level[ch]--
			}
			continue
		case r == d.cand[ch] && d.level[ch] > 0:
			d.level[ch]++
		default:
			d.cand[ch], d.level[ch] = r, 1
		}
		if d.level[ch] >= n {
			d.stable[ch], d.level[ch] = r, 0
			changed(ch, r)
		}
	}
}

// LogLen is how many changes the tile remembers for the Pi.
const LogLen = 64

// Log is the numbered change log: change number n is the n-th debounced
// change since the tile started (numbers wrap at 65536).
type Log struct {
	seq  uint16
	recs [LogLen]protocol.Change
	n    int // records held, ≤ LogLen
}

// Seq returns the number of the latest change (0: none yet).
func (l *Log) Seq() uint16 { return l.seq }

// Add records that channel ch now reads r.
func (l *Log) Add(ch int, r protocol.Reading) {
	l.seq++
	l.recs[l.seq%LogLen] = protocol.Change{Num: l.seq, Channel: uint8(ch), Reading: r}
	l.n = min(l.n+1, LogLen)
}

// Since returns up to len(dst) changes from number want on, and false when
// the log no longer holds change want (or want is in the future).
func (l *Log) Since(want uint16, dst []protocol.Change) ([]protocol.Change, bool) {
	ahead := l.seq - want + 1 // changes from want to seq, modulo 2^16
	if want == l.seq+1 {
		return dst[:0], true
	}
	if int(ahead) > l.n || ahead == 0 {
		return nil, false
	}
	out := dst[:0]
	for n := want; len(out) < cap(dst); n++ {
		out = append(out, l.recs[n%LogLen])
		if n == l.seq {
			break
		}
	}
	return out, true
}
