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

	"github.com/parchis-table/parchis/journal"
)

// The on-disk queue of events not yet acknowledged by the broker.
//
// Two files in the queue directory:
//
//	events.q    records appended in order, framed as the journal's
//	            (journal.AppendRecord): length, CRC-32C, payload (the
//	            event's JSON)
//	events.ack  the offset in events.q of the first record not yet
//	            acknowledged (uint64), the number of the last event
//	            acknowledged (uint64), and their CRC-32C (uint32)
//
// Every append is fsync'd before Event returns. An acknowledgement rewrites
// events.ack in place and fsyncs it; once every record is acknowledged,
// events.q is truncated to nothing. On open, a record that is cut short or
// fails its CRC (a crash in the middle of an append) ends the queue: the
// file is truncated there and the loss reported. A damaged events.ack makes
// every record pending again (delivered twice rather than lost).

const (
	queueFile = "events.q"
	ackFile   = "events.ack"
	ackLen    = 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// queueEntry is a record not yet acknowledged.
type queueEntry struct {
	payload []byte
	seq     uint64 // the event's number
	end     int64  // offset just past the record in events.q
}

// queue is the durable queue of events awaiting acknowledgement.
type queue struct {
	mu      sync.Mutex
	log     *os.File
	ack     *os.File
	size    int64 // end of the valid records
	pending []queueEntry
	acked   uint64        // number of the last event acknowledged, kept in events.ack
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

// openQueue opens (creating it if needed) the queue in dir; seqOf reads
// an event's number from its payload.
func openQueue(dir string, seqOf func([]byte) uint64) (*queue, QueueRecovery, error) {
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
	if err := q.load(&rec, seqOf); err != nil {
		lf.Close()
		af.Close()
		return nil, rec, err
	}
	rec.Pending = len(q.pending)
	return q, rec, nil
}

func (q *queue) load(rec *QueueRecovery, seqOf func([]byte) uint64) error {
	data, err := io.ReadAll(q.log)
	if err != nil {
		return fmt.Errorf("event queue: read %s: %w", q.log.Name(), err)
	}
	var ab [ackLen]byte
	head := int64(0)
	n, err := q.ack.ReadAt(ab[:], 0)
	switch {
	case n == len(ab) && crc32.Checksum(ab[:16], crcTable) == binary.BigEndian.Uint32(ab[16:]):
		head = int64(binary.BigEndian.Uint64(ab[:]))
		q.acked = binary.BigEndian.Uint64(ab[8:])
	case n == 0 && (err == nil || errors.Is(err, io.EOF)):
		// a new queue
	default:
		rec.AckReset = true
		rec.Cause = fmt.Errorf("%s damaged", q.ack.Name())
	}
	off := 0
	for off < len(data) {
		p, m, err := journal.DecodeRecord(data[off:])
		if err != nil {
			rec.Truncated = int64(len(data) - off)
			rec.Cause = fmt.Errorf("%s at offset %d: %w", q.log.Name(), off, err)
			break
		}
		off += m
		if int64(off) > head {
			q.pending = append(q.pending, queueEntry{payload: append([]byte(nil), p...), seq: seqOf(p), end: int64(off)})
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

// writeAck records that the records before off are acknowledged, the last
// being event q.acked.
func (q *queue) writeAck(off int64) error {
	var ab [ackLen]byte
	binary.BigEndian.PutUint64(ab[:], uint64(off))
	binary.BigEndian.PutUint64(ab[8:], q.acked)
	binary.BigEndian.PutUint32(ab[16:], crc32.Checksum(ab[:16], crcTable))
	if _, err := q.ack.WriteAt(ab[:], 0); err != nil {
		return fmt.Errorf("event queue: write acknowledgement: %w", err)
	}
	if err := q.ack.Sync(); err != nil {
		return fmt.Errorf("event queue: sync acknowledgement: %w", err)
	}
	return nil
}

// Append writes the record of event seq and fsyncs it.
func (q *queue) Append(payload []byte, seq uint64) error {
	if len(payload) == 0 || len(payload) > journal.MaxRecord {
		return fmt.Errorf("event queue: %w: %d", journal.ErrLength, len(payload))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.buf = journal.AppendRecord(q.buf[:0], payload)
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
	q.pending = append(q.pending, queueEntry{payload: append([]byte(nil), payload...), seq: seq, end: q.size})
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
	q.acked = e.seq
	if len(q.pending) == 0 {
		return q.reset()
	}
	return q.writeAck(e.end)
}

// LastSeq returns the number of the last event queued, acknowledged or
// not, as kept across restarts.
func (q *queue) LastSeq() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	// The newest event queued is the last; a new game may number its
	// events afresh, below those acknowledged before.
	if n := len(q.pending); n > 0 {
		return q.pending[n-1].seq
	}
	return q.acked
}

// Close closes the files.
func (q *queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return errors.Join(q.log.Close(), q.ack.Close())
}
