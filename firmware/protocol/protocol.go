// Package protocol is the wire protocol between the Pi (hw/tiles) and the
// sensor tiles (firmware/): CRC-checked, addressed frames, small enough for
// an RS-485 multi-drop line or an I2C bus.
//
// A frame is:
//
//	offset  size  field
//	0       1     Start, always 0xA5
//	1       1     Addr: the tile's address (MinAddr…MaxAddr), in requests and responses
//	2       1     Kind: KindPoll, KindSnapshotReq, KindChanges or KindSnapshot
//	3       1     Tag: the request's number, echoed by the response
//	4       1     Len: payload length, 0…MaxPayload
//	5       Len   payload
//	5+Len   2     CRC-16/CCITT-FALSE of Addr…payload, big-endian
//
// The tile numbers its debounced changes (a 16-bit change counter, Seq) and
// draws a Boot number at power-on. The Pi polls with the number of the next
// change it needs; the tile answers with the changes from there on
// (KindChanges) or, when it no longer has them, with every channel
// (KindSnapshot). The Pi resynchronises with a KindSnapshotReq whenever a
// change number is missing (a gap), a frame fails its CRC, or Boot differs
// from the one it knows (the tile was reset).
//
// The package is plain Go with no allocations on its hot paths, so the same
// rules hold in the daemon and in the Go reference model of the tiles
// (firmware/tile), which the C firmware (firmware/avr) is tested against.
package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Frame constants.
const (
	Start       = 0xA5
	HeaderLen   = 5
	CRCLen      = 2
	MaxPayload  = 200
	MaxFrameLen = HeaderLen + MaxPayload + CRCLen

	// MinAddr and MaxAddr bound tile addresses; 0 is never a tile.
	MinAddr = 1
	MaxAddr = 247

	// MaxChannels is the most sensor channels one tile has.
	MaxChannels = 64

	// Baud is the rate of the RS-485/UART line, 8N1. It is a standard
	// termios rate, so the Pi's UART and any USB adapter take it without
	// the custom-rate interface; a 207-byte frame (the largest) takes 9 ms.
	Baud = 230400
)

// Kind is a frame's type.
type Kind uint8

// Frame kinds.
const (
	// KindPoll asks for changes; payload: the next change number wanted (u16).
	KindPoll Kind = 1
	// KindSnapshotReq asks for every channel; no payload.
	KindSnapshotReq Kind = 2
	// KindChanges answers a poll; payload: Boot (u16), Seq (u16, the tile's
	// latest change number), then records of 4 bytes: change number (u16),
	// channel, reading, in increasing change number, starting at the number
	// polled for. No records when nothing changed since.
	KindChanges Kind = 3
	// KindSnapshot answers a snapshot request or a poll the tile cannot
	// answer with changes; payload: Boot (u16), Seq (u16), channel count,
	// then one reading per channel.
	KindSnapshot Kind = 4
	// KindCalibrate sets a tile's classification thresholds, which it
	// stores; payload: none (only asks for them), or a Calibration
	// (CalibrationLen bytes) and a flags byte (CalibrateRebaseline).
	KindCalibrate Kind = 5
	// KindCalibration answers a KindCalibrate with the thresholds in force;
	// payload: a Calibration.
	KindCalibration Kind = 6
)

func (k Kind) String() string {
	switch k {
	case KindPoll:
		return "poll"
	case KindSnapshotReq:
		return "snapshot-request"
	case KindChanges:
		return "changes"
	case KindSnapshot:
		return "snapshot"
	case KindCalibrate:
		return "calibrate"
	case KindCalibration:
		return "calibration"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Frame is one decoded frame. Payload aliases the decoded buffer.
type Frame struct {
	Addr    uint8
	Kind    Kind
	Tag     uint8
	Payload []byte
}

// Decoding errors.
var (
	// ErrShort means the buffer holds the beginning of a frame only.
	ErrShort = errors.New("protocol: frame incomplete")
	// ErrNoStart means the buffer holds no start byte.
	ErrNoStart = errors.New("protocol: no start byte")
	// ErrCRC means a frame failed its CRC check.
	ErrCRC = errors.New("protocol: bad CRC")
	// ErrLength means a frame's length field exceeds MaxPayload.
	ErrLength = errors.New("protocol: bad length")
	// ErrKind means a frame of unknown kind.
	ErrKind = errors.New("protocol: unknown kind")
)

// Append encodes f at the end of dst and returns the extended slice.
func Append(dst []byte, f Frame) ([]byte, error) {
	if len(f.Payload) > MaxPayload {
		return dst, fmt.Errorf("%w: payload of %d bytes", ErrLength, len(f.Payload))
	}
	at := len(dst)
	dst = append(dst, Start, f.Addr, byte(f.Kind), f.Tag, byte(len(f.Payload)))
	dst = append(dst, f.Payload...)
	crc := CRC16(dst[at+1:])
	return binary.BigEndian.AppendUint16(dst, crc), nil
}

// Decode reads the first frame in buf. It returns the frame and the number
// of bytes consumed, including any garbage skipped before the start byte.
// On ErrShort nothing is consumed beyond skipped garbage: call again with
// more bytes. On ErrCRC, ErrLength or ErrKind, n bytes (the bad start byte
// and anything before it) should be dropped before decoding again.
func Decode(buf []byte) (f Frame, n int, err error) {
	i := 0
	for i < len(buf) && buf[i] != Start {
		i++
	}
	if i == len(buf) {
		return Frame{}, i, ErrNoStart
	}
	b := buf[i:]
	if len(b) < HeaderLen {
		return Frame{}, i, ErrShort
	}
	l := int(b[4])
	if l > MaxPayload {
		return Frame{}, i + 1, ErrLength
	}
	if len(b) < HeaderLen+l+CRCLen {
		return Frame{}, i, ErrShort
	}
	body := b[1 : HeaderLen+l]
	if CRC16(body) != binary.BigEndian.Uint16(b[HeaderLen+l:]) {
		return Frame{}, i + 1, ErrCRC
	}
	k := Kind(b[2])
	if k < KindPoll || k > KindCalibration {
		return Frame{}, i + 1, fmt.Errorf("%w %d", ErrKind, b[2])
	}
	return Frame{Addr: b[1], Kind: k, Tag: b[3], Payload: b[HeaderLen : HeaderLen+l]}, i + HeaderLen + l + CRCLen, nil
}

// CRC16 is CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF).
func CRC16(b []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, x := range b {
		crc ^= uint16(x) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
