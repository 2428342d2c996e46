package protocol

import (
	"encoding/binary"
	"fmt"
)

// Calibration is a tile's classification thresholds, in 12-bit ADC counts
// of deviation from a site's empty baseline. On the wire (CalibrationLen
// bytes): One (u16), Two (u16), Hysteresis (u16), then a colours byte: bit
// 7 set when colours are read, bits 0…1 the North colour, bits 2…3 the
// South colour, other bits zero.
//
// The snapshot's layout is fixed (ParseSnapshot takes exactly one byte per
// channel after its header), so the thresholds are reported in their own
// answer, KindCalibration.
type Calibration struct {
	One, Two, Hysteresis uint16
	Colours              bool
	North, South         uint8
}

// Calibration payload layout.
const (
	CalibrationLen = 7
	CalibrateLen   = CalibrationLen + 1

	// CalibrateRebaseline, in a KindCalibrate's flags byte, makes the tile
	// take its next scan as every site's empty baseline: send it with the
	// board empty.
	CalibrateRebaseline = 0x01

	colourBit = 0x80
)

// Validate checks that the thresholds can classify: Hysteresis < One <
// Two ≤ 4095, colours 0…3.
func (c Calibration) Validate() error {
	if c.Hysteresis >= c.One || c.One >= c.Two || c.Two > 4095 || c.North > 3 || c.South > 3 {
		return fmt.Errorf("protocol: calibration %+v out of range: want hysteresis < one < two ≤ 4095 and colours 0…3", c)
	}
	return nil
}

func (c Calibration) append(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint16(dst, c.One)
	dst = binary.BigEndian.AppendUint16(dst, c.Two)
	dst = binary.BigEndian.AppendUint16(dst, c.Hysteresis)
	b := c.North&3 | (c.South&3)<<2
	if c.Colours {
		b |= colourBit
	}
	return append(dst, b)
}

// parseCalibration decodes CalibrationLen bytes.
func parseCalibration(p []byte) (Calibration, error) {
	b := p[6]
	c := Calibration{
		One:        binary.BigEndian.Uint16(p),
		Two:        binary.BigEndian.Uint16(p[2:]),
		Hysteresis: binary.BigEndian.Uint16(p[4:]),
		Colours:    b&colourBit != 0,
		North:      b & 3,
		South:      b >> 2 & 3,
	}
	if b&0x70 != 0 {
		return c, fmt.Errorf("protocol: calibration colours byte %#02x has reserved bits set", b)
	}
	return c, c.Validate()
}

// AppendCalibrate encodes a KindCalibrate frame to tile addr: with c nil
// it only asks for the thresholds in force; otherwise it sets c, and with
// rebaseline the empty-site baselines too.
func AppendCalibrate(dst []byte, addr, tag uint8, c *Calibration, rebaseline bool) []byte {
	var p []byte
	if c != nil {
		p = c.append(make([]byte, 0, CalibrateLen))
		var flags byte
		if rebaseline {
			flags |= CalibrateRebaseline
		}
		p = append(p, flags)
	}
	dst, _ = Append(dst, Frame{Addr: addr, Kind: KindCalibrate, Tag: tag, Payload: p})
	return dst
}

// ParseCalibrate decodes a KindCalibrate frame: the thresholds to set (nil
// when it only asks) and whether to take new baselines.
func ParseCalibrate(f Frame) (c *Calibration, rebaseline bool, err error) {
	switch {
	case f.Kind != KindCalibrate || (len(f.Payload) != 0 && len(f.Payload) != CalibrateLen):
		return nil, false, fmt.Errorf("protocol: bad calibrate: %s frame with %d payload bytes", f.Kind, len(f.Payload))
	case len(f.Payload) == 0:
		return nil, false, nil
	}
	cal, err := parseCalibration(f.Payload)
	if err != nil {
		return nil, false, err
	}
	return &cal, f.Payload[CalibrationLen]&CalibrateRebaseline != 0, nil
}

// AppendCalibration encodes a KindCalibration frame.
func AppendCalibration(dst []byte, addr, tag uint8, c Calibration) []byte {
	dst, _ = Append(dst, Frame{Addr: addr, Kind: KindCalibration, Tag: tag, Payload: c.append(make([]byte, 0, CalibrationLen))})
	return dst
}

// ParseCalibration decodes a KindCalibration frame.
func ParseCalibration(f Frame) (Calibration, error) {
	if f.Kind != KindCalibration || len(f.Payload) != CalibrationLen {
		return Calibration{}, fmt.Errorf("protocol: bad calibration: %s frame with %d payload bytes", f.Kind, len(f.Payload))
	}
	return parseCalibration(f.Payload)
}
