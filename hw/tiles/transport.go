package tiles

import (
	"errors"
	"fmt"
	"io"

	"periph.io/x/conn/v3/i2c"

	"github.com/parchis-table/parchis/firmware/protocol"
)

// ErrSilent means a tile did not answer in time.
var ErrSilent = errors.New("no answer")

// Transport carries one request to a tile and brings back its answer.
type Transport interface {
	// Exchange sends req to the tile at addr and returns the bytes of its
	// answer (in resp's storage), ErrSilent when none came in time.
	Exchange(addr uint8, req, resp []byte) ([]byte, error)
}

// Serial is the RS-485 (or plain UART) multi-drop transport: every tile
// hears every request and only the one addressed answers.
//
// The port must return from Read within the answer timeout when nothing
// arrives (a serial port opened with a read timeout, such as hw/serial's,
// returns 0 bytes or a timeout error): that ends the wait and the tile is
// taken as silent. Any other read error is reported with ErrSilent.
//
// When the port can discard unread input (a FlushInput method, as
// hw/serial's Port has), it is flushed before each request, so a late
// answer from a tile already taken as silent is not read as the next
// tile's. Request frames read back are skipped: on a line whose RS-485
// transceiver keeps its receiver on while sending, the Pi hears its own
// request before the answer.
type Serial struct {
	Port io.ReadWriter
}

// Exchange implements Transport.
func (s *Serial) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	if f, ok := s.Port.(interface{ FlushInput() error }); ok {
		if err := f.FlushInput(); err != nil {
			return nil, fmt.Errorf("flush: %w", err)
		}
	}
	if _, err := s.Port.Write(req); err != nil {
		return nil, fmt.Errorf("write: %w", err)
	}
	buf := resp[:0]
	for {
		if len(buf) == cap(buf) {
			return buf, nil // let the decoder find what is wrong
		}
		n, err := s.Port.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		for {
			f, used, derr := protocol.Decode(buf)
			if derr == nil && (f.Kind == protocol.KindPoll || f.Kind == protocol.KindSnapshotReq || f.Kind == protocol.KindCalibrate) {
				buf = buf[:copy(buf, buf[used:])] // our own request, heard back
				continue
			}
			if derr == nil || (derr != protocol.ErrShort && derr != protocol.ErrNoStart) {
				return buf, nil
			}
			break
		}
		if n == 0 || err != nil {
			if len(buf) > 0 {
				return buf, nil // a partial frame: the decoder reports it
			}
			var te interface{ Timeout() bool }
			if err != nil && !(errors.As(err, &te) && te.Timeout()) {
				return nil, fmt.Errorf("%w: read: %w", ErrSilent, err)
			}
			return nil, ErrSilent
		}
	}
}

// I2C is the transport over the Pi's I2C bus: each tile is an I2C target at
// its address. A request is one write; the answer is read as its header,
// then the rest.
type I2C struct {
	Bus i2c.Bus
}

// Exchange implements Transport.
func (t *I2C) Exchange(addr uint8, req, resp []byte) ([]byte, error) {
	if err := t.Bus.Tx(uint16(addr), req, nil); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSilent, err)
	}
	h := resp[:protocol.HeaderLen]
	if err := t.Bus.Tx(uint16(addr), nil, h); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSilent, err)
	}
	if h[0] != protocol.Start || int(h[4]) > protocol.MaxPayload {
		return h, nil // garbled: the decoder reports it
	}
	rest := resp[protocol.HeaderLen : protocol.HeaderLen+int(h[4])+protocol.CRCLen]
	if err := t.Bus.Tx(uint16(addr), nil, rest); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSilent, err)
	}
	return resp[:protocol.HeaderLen+len(rest)], nil
}
