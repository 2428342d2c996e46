package broadcast

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// The on-disk queue of events not yet acknowledged by the broker.
//
// Two files in the queue directory:
//
//	events.q    records appended in order: length (uint32, big endian),
//	            CRC-32C of the payload (uint32), payload (the event's JSON)
//	events.ack  the offset in events.q of the first record not yet
//	            acknowledged (uint64) and its CRC-32C (uint32)
//
// Every append is fsync'd before Event returns. An acknowledgement rewrites
// events.ack in place and fsyncs it; once every record is acknowledged,
// events.q is truncated to nothing. On open, a record that is cut short or
// fails its CRC (a crash in the middle of an append) ends the queue: the
// file is truncated there and the loss reported. A damaged events.ack makes
// every record pending again (delivered twice rather than lost).

const (
	queueFile     = "events.q"
	ackFile       = "events.ack"
	recordHeader  = 8
	maxRecordSize = 1 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Errors of decodeRecord.
var (
	errShortRecord = errors.New("record cut short")
	errRecordCRC   = errors.New("record CRC mismatch")
	errRecordSize  = errors.New("record length out of range")
)

// appendRecord appends the record of payload to b.
func appendRecord(b, payload []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.BigEndian.AppendUint32(b, crc32.Checksum(payload, crcTable))
	return append(b, payload...)
}

// decodeRecord decodes the record at the start of b, returning its payload
// (a slice of b) and its length in b.
func decodeRecord(b []byte) (payload []byte, n int, err error) {
	if len(b) < recordHeader {
		return nil, 0, errShortRecord
	}
	size := binary.BigEndian.Uint32(b)
	if size == 0 || size > maxRecordSize {
		return nil, 0, fmt.Errorf("%w: %d", errRecordSize, size)
	}
	if uint64(len(b)-recordHeader) < uint64(size) {
		return nil, 0, errShortRecord
	}
	payload = b[recordHeader : recordHeader+int(size)]
	if crc32.Checksum(payload, crcTable) != binary.BigEndian.Uint32(b[4:]) {
		return nil, 0, errRecordCRC
	}
	return payload, recordHeader + int(size), nil
}

// queueEntry is a record not yet acknowledged.
type queueEntry struct {
	payload []byte
	end     int64 // offset just past the record in events.q
}

// queue is the durable queue of events awaiting acknowledgement.
type queue struct {
	mu      sync.Mutex
	log     *os.File
	ack     *os.File
	size    int64 // end of the valid records
	pending []queueEntry
	ready   chan struct{} // signalled on append
	buf     []byte
}

// QueueRecovery says what opening a queue found.
type QueueRecovery struct {
	Pending   int   // records awaiting delivery
	Truncated int64 // bytes of a damaged tail removed, 0 when none
	Cause     error // why the tail or the acknowledgement was damaged
	AckReset  bool  // events.ack was damaged: every record is pending again
}

// openQueue opens (creating it if needed) the queue in dir.
func openQueue(dir string) (*queue, QueueRecovery, error) {
	var rec QueueRecovery
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, rec, fmt.Errorf("event queue: %w", err)
	}
	lf, err := os.OpenFile(filepath.Join(dir, queueFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, rec, fmt.Errorf("event queue: %w", err)
	}
	af, err := os.OpenFile(filepath.Join(dir, ackFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		lf.Close()
		return nil, rec, fmt.Errorf("event queue: %w", err)
	}
	q := &queue{log: lf, ack: af, ready: make(chan struct{}, 1)}
	if err := q.load(&rec); err != nil {
		lf.Close()
		af.Close()
		return nil, rec, err
	}
	rec.Pending = len(q.pending)
	return q, rec, nil
}

func (q *queue) load(rec *QueueRecovery) error {
	data, err := io.ReadAll(q.log)
	if err != nil {
		return fmt.Errorf("event queue: read %s: %w", q.log.Name(), err)
	}
	var ab [12]byte
	head := int64(0)
	n, err := q.ack.ReadAt(ab[:], 0)
	switch {
	case n == len(ab) && crc32.Checksum(ab[:8], crcTable) == binary.BigEndian.Uint32(ab[8:]):
		head = int64(binary.BigEndian.Uint64(ab[:]))
	case n == 0 && (err == nil || errors.Is(err, io.EOF)):
		// a new queue
	default:
		rec.AckReset = true
		rec.Cause = fmt.Errorf("%s damaged", q.ack.Name())
	}
	off := 0
	for off < len(data) {
		p, m, err := decodeRecord(data[off:])
		if err != nil {
			rec.Truncated = int64(len(data) - off)
			rec.Cause = fmt.Errorf("%s at offset %d: %w", q.log.Name(), off, err)
			break
		}
		off += m
		if int64(off) > head {
			q.pending = append(q.pending, queueEntry{payload: append([]byte(nil), p...), end: int64(off)})
		}
	}
	q.size = int64(off)
	if rec.Truncated > 0 {
		if err := q.log.Truncate(q.size); err != nil {
			return fmt.Errorf("event queue: truncate damaged tail: %w", err)
		}
		if err := q.log.Sync(); err != nil {
			return fmt.Errorf("event queue: sync: %w", err)
		}
	}
	if len(q.pending) == 0 {
		return q.reset()
	}
	if _, err := q.log.Seek(q.size, io.SeekStart); err != nil {
		return fmt.Errorf("event queue: %w", err)
	}
	return nil
}

// reset empties both files; the caller holds mu or owns q.
func (q *queue) reset() error {
	if err := q.log.Truncate(0); err != nil {
		return fmt.Errorf("event queue: truncate: %w", err)
	}
	if _, err := q.log.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("event queue: %w", err)
	}
	if err := q.log.Sync(); err != nil {
		return fmt.Errorf("event queue: sync: %w", err)
	}
	q.size = 0
	q.pending = q.pending[:0]
	return q.writeAck(0)
}

func (q *queue) writeAck(off int64) error {
	var ab [12]byte
	binary.BigEndian.PutUint64(ab[:], uint64(off))
	binary.BigEndian.PutUint32(ab[8:], crc32.Checksum(ab[:8], crcTable))
	if _, err := q.ack.WriteAt(ab[:], 0); err != nil {
		return fmt.Errorf("event queue: write acknowledgement: %w", err)
	}
	if err := q.ack.Sync(); err != nil {
		return fmt.Errorf("event queue: sync acknowledgement: %w", err)
	}
	return nil
}

// Append writes a record and fsyncs it.
func (q *queue) Append(payload []byte) error {
	if len(payload) == 0 || len(payload) > maxRecordSize {
		return fmt.Errorf("event queue: %w: %d", errRecordSize, len(payload))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = appendRecord(q.buf[:0], payload)
	if _, err := q.log.Write(q.buf); err != nil {
		// Cut off whatever part was written, so the next record follows a whole one.
		q.log.Truncate(q.size)
		q.log.Seek(q.size, io.SeekStart)
		return fmt.Errorf("event queue: append: %w", err)
	}
	if err := q.log.Sync(); err != nil {
		return fmt.Errorf("event queue: sync: %w", err)
	}
	q.size += int64(len(q.buf))
	q.pending = append(q.pending, queueEntry{payload: append([]byte(nil), payload...), end: q.size})
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return nil
}

// Peek returns up to n of the oldest pending payloads.
func (q *queue) Peek(n int) [][]byte {
	q.mu.Lock()
	defer q.mu.Unlock()
	n = min(n, len(q.pending))
	out := make([][]byte, n)
	for i := range out {
		out[i] = q.pending[i].payload
	}
	return out
}

// Len returns the number of pending records.
func (q *queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}

// Ack removes the oldest pending record, acknowledged by the broker.
func (q *queue) Ack() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) == 0 {
		return errors.New("event queue: acknowledgement with nothing pending")
	}
	e := q.pending[0]
	q.pending = q.pending[1:]
	if len(q.pending) == 0 {
		return q.reset()
	}
	return q.writeAck(e.end)
}

// Close closes the files.
func (q *queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return errors.Join(q.log.Close(), q.ack.Close())
}
