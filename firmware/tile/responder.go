package tile

import (
	"github.com/parchis-table/parchis/firmware/protocol"
)

// Tile is the state of one sensor tile: its schedule, classifier,
// baselines, debouncer and change log, and the answers to the Pi.
type Tile struct {
	Addr     uint8
	Boot     uint16
	Schedule Schedule
	Class    Classifier
	Deb      Debouncer

	base    [protocol.MaxChannels]uint16
	samples [protocol.MaxChannels]uint16
	raw     [protocol.MaxChannels]protocol.Reading
	log     Log
	// rebase makes the next Step take its samples as the baselines.
	rebase bool
	recs   [protocol.MaxRecords]protocol.Change
	out    [protocol.MaxFrameLen]byte
}

// Calibrate takes the current samples as the empty-board baselines.
func (t *Tile) Calibrate(f Front) {
	t.Schedule.Scan(f, t.base[:t.Schedule.Channels()])
}

// Step scans once, classifies, debounces and logs the changes; after a
// calibration request that asked for new baselines, it takes the scan as
// the baselines instead.
func (t *Tile) Step(f Front) {
	n := t.Schedule.Channels()
	t.Schedule.Scan(f, t.samples[:n])
	if t.rebase {
		copy(t.base[:n], t.samples[:n])
		t.rebase = false
		return
	}
	for ch := 0; ch < n; ch++ {
		t.raw[ch] = t.Class.Classify(t.samples[ch], t.base[ch], t.Deb.Stable(ch))
	}
	t.Deb.Feed(t.raw[:n], t.log.Add)
}

// Seq returns the number of the latest change.
func (t *Tile) Seq() uint16 { return t.log.Seq() }

// Handle answers one request frame (a poll, a snapshot request or a
// calibration request, whose thresholds the tile then classifies with) and
// returns the response to send, or
// nil when the request is not for this tile or is garbled (the Pi times
// out and resynchronises). The response aliases the tile's buffer.
func (t *Tile) Handle(req []byte) []byte {
	f, _, err := protocol.Decode(req)
	if err != nil || f.Addr != t.Addr {
		return nil
	}
	switch f.Kind {
	case protocol.KindPoll:
		want, err := protocol.PollWant(f)
		if err != nil {
			return nil
		}
		if recs, ok := t.log.Since(want, t.recs[:]); ok {
			return protocol.AppendChanges(t.out[:0], t.Addr, f.Tag, t.Boot, t.log.Seq(), recs)
		}
		return t.snapshot(f.Tag)
	case protocol.KindSnapshotReq:
		return t.snapshot(f.Tag)
	case protocol.KindCalibrate:
		c, rebase, err := protocol.ParseCalibrate(f)
		if err != nil {
			return nil
		}
		if c != nil {
			t.Class = Classifier(*c)
			t.rebase = t.rebase || rebase
		}
		return protocol.AppendCalibration(t.out[:0], t.Addr, f.Tag, protocol.Calibration(t.Class))
	}
	return nil
}

func (t *Tile) snapshot(tag uint8) []byte {
	n := t.Schedule.Channels()
	var rs [protocol.MaxChannels]protocol.Reading
	for ch := 0; ch < n; ch++ {
		rs[ch] = t.Deb.Stable(ch)
	}
	return protocol.AppendSnapshot(t.out[:0], t.Addr, tag, t.Boot, t.log.Seq(), rs[:n])
}
