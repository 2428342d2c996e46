package tiles

import (
	"errors"
	"fmt"

	"github.com/parchis-table/parchis/firmware/protocol"
)

// ErrBadThresholds means thresholds that a tile cannot classify with
// (protocol.Calibration.Validate): they are refused before anything is
// sent, since a tile would only stay silent.
var ErrBadThresholds = errors.New("thresholds refused")

// Status is what a tile reports of itself at bring-up.
type Status struct {
	Addr uint8
	// Boot is the tile's boot number: it changes at every reset.
	Boot uint16
	// Seq is the number of the tile's latest change.
	Seq uint16
	// Channels is how many sensor channels the tile scans.
	Channels int
	// Calibration is the classification thresholds in force, the ones the
	// tile keeps in its EEPROM.
	Calibration protocol.Calibration
}

// Setup reaches tiles one at a time to read and set their classification
// thresholds (KindCalibrate), as parchisd tiles does at bring-up. It must
// not share a line with a Dev that is scanning: each would take the other's
// answers as stale. Its methods report a failing tile as a *TileError.
type Setup struct {
	T Transport
	// Retries is how many more times a request is sent after a bad or
	// missing answer. Every request Setup sends may be repeated: setting
	// the same thresholds twice, or taking the baselines twice, is harmless.
	Retries int

	tag  uint8
	req  []byte
	resp [protocol.MaxFrameLen]byte
	snap [protocol.MaxChannels]protocol.Reading
}

// Status asks tile addr for a snapshot (its boot number and channels) and
// for its thresholds.
func (s *Setup) Status(addr uint8) (Status, error) {
	f, err := s.ask(addr, func(tag uint8) { s.req = protocol.AppendSnapshotReq(s.req[:0], addr, tag) }, func(f protocol.Frame) error {
		_, err := protocol.ParseSnapshot(f, s.snap[:0])
		return err
	})
	if err != nil {
		return Status{}, err
	}
	snap, _ := protocol.ParseSnapshot(f, s.snap[:0])
	st := Status{Addr: addr, Boot: snap.Boot, Seq: snap.Seq, Channels: len(snap.Readings)}
	st.Calibration, err = s.Calibration(addr)
	return st, err
}

// Calibration asks tile addr for the thresholds in force.
func (s *Setup) Calibration(addr uint8) (protocol.Calibration, error) {
	return s.calibrate(addr, nil, false)
}

// Calibrate sets tile addr's thresholds to c, which the tile stores in its
// EEPROM; with rebaseline the tile also takes its next scan as every
// site's empty baseline, so the board must be empty. It returns the
// thresholds the tile answers with, and an error when they are not c.
// Thresholds that fail c.Validate are refused (ErrBadThresholds) without
// sending anything.
func (s *Setup) Calibrate(addr uint8, c protocol.Calibration, rebaseline bool) (protocol.Calibration, error) {
	if err := c.Validate(); err != nil {
		return protocol.Calibration{}, &TileError{Addr: addr, Err: fmt.Errorf("%w: %w", ErrBadThresholds, err)}
	}
	got, err := s.calibrate(addr, &c, rebaseline)
	if err == nil && got != c {
		err = &TileError{Addr: addr, Err: fmt.Errorf("answered with thresholds %+v, not the %+v sent", got, c)}
	}
	return got, err
}

func (s *Setup) calibrate(addr uint8, c *protocol.Calibration, rebaseline bool) (protocol.Calibration, error) {
	f, err := s.ask(addr, func(tag uint8) { s.req = protocol.AppendCalibrate(s.req[:0], addr, tag, c, rebaseline) }, func(f protocol.Frame) error {
		_, err := protocol.ParseCalibration(f)
		return err
	})
	if err != nil {
		return protocol.Calibration{}, err
	}
	return protocol.ParseCalibration(f)
}

// ask sends the request that build writes into s.req until an answer
// passes check, at most Retries+1 times.
func (s *Setup) ask(addr uint8, build func(tag uint8), check func(protocol.Frame) error) (protocol.Frame, error) {
	if addr < protocol.MinAddr || addr > protocol.MaxAddr {
		return protocol.Frame{}, &TileError{Addr: addr, Err: fmt.Errorf("address out of range %d…%d", protocol.MinAddr, protocol.MaxAddr)}
	}
	var last error
	for range max(s.Retries, 0) + 1 {
		s.tag++
		build(s.tag)
		f, err := exchange(s.T, addr, s.tag, s.req, s.resp[:0:protocol.MaxFrameLen])
		if err == nil {
			if err = check(f); err == nil {
				return f, nil
			}
		}
		last = err
	}
	if errors.Is(last, ErrSilent) {
		return protocol.Frame{}, &TileError{Addr: addr, Err: last}
	}
	return protocol.Frame{}, &TileError{Addr: addr, Err: fmt.Errorf("no good answer: %w", last)}
}
