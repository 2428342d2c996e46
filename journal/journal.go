// Package journal keeps a table's inputs durably so that a restart — after
// a power cut or a kill -9 — resumes the exact game. It is an append-only
// file of framed records, each with its length, a CRC-32C and a SHA-256
// hash chaining it to the record before, so a torn or corrupt tail is found
// and cut on open and the whole history can be checked afterwards.
//
// Record layout (little-endian):
//
//	uint32 length of payload
//	uint32 CRC-32C (Castagnoli) of payload
//	payload
//
// The hash of record i is certify.Next(hash of record i-1, payload),
// SHA-256 of the two, starting from 32 zero bytes. The live feed's event
// queue uses the same framing.
package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/parchis-table/parchis/certify"
)

// MaxRecord bounds a record's payload; a larger length in a file is
// corruption.
const MaxRecord = 1 << 20

const headerLen = 8

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Hash is a link of the hash chain.
type Hash = certify.Hash

// Repair describes damage found on open: a torn or corrupt tail, cut off,
// or damage in the middle, after which valid records follow.
type Repair struct {
	Offset int64  // where the good records end
	Cut    int64  // how many bytes were cut
	Reason string // what was wrong at Offset
	// Middle is set when valid records follow the damage: the file was
	// not cut short by a crash, its middle was damaged. The journal then
	// resumes at Offset, the last consistent point, and the original
	// file is kept as Original.
	Middle bool
	// Recovered are the valid records found after the damage, and
	// RecoveredAt their offsets in the original file.
	Recovered   [][]byte
	RecoveredAt []int64
	// Original is where the damaged file was kept, untouched.
	Original string
}

// String says what the damage is, in a sentence.
func (r *Repair) String() string {
	if r == nil {
		return "whole"
	}
	if !r.Middle {
		return fmt.Sprintf("damaged tail at byte %d (%s): %d bytes cut", r.Offset, r.Reason, r.Cut)
	}
	return fmt.Sprintf("damaged at byte %d (%s), %d valid records after it, from byte %d", r.Offset, r.Reason, len(r.Recovered), r.RecoveredAt[0])
}

// Scan reads the records of a journal's bytes without changing anything:
// the valid records from the start, and, when a record is damaged, what
// the damage is and the valid records found after it (nil when whole).
func Scan(data []byte) (payloads [][]byte, head Hash, repair *Repair) {
	off := 0
	for off < len(data) {
		p, n, err := DecodeRecord(data[off:])
		if err != nil {
			repair = &Repair{Offset: int64(off), Cut: int64(len(data) - off), Reason: err.Error()}
			break
		}
		payloads = append(payloads, p)
		head = certify.Next(head, p)
		off += n
	}
	if repair == nil {
		return payloads, head, nil
	}
	// Valid records after the damage: a record found at a later offset,
	// each whole record after it followed, and the search going on past
	// the next damage.
	for at := off + 1; at+headerLen < len(data); {
		p, n, err := DecodeRecord(data[at:])
		if err != nil {
			at++
			continue
		}
		repair.Recovered = append(repair.Recovered, p)
		repair.RecoveredAt = append(repair.RecoveredAt, int64(at))
		at += n
	}
	repair.Middle = len(repair.Recovered) > 0
	return payloads, head, repair
}

// Journal is an open journal file.
type Journal struct {
	f       *os.File
	path    string
	size    int64
	head    Hash
	records int
	onSync  func(time.Duration)
}

// Open opens (or creates) the journal at path, reads every intact record,
// and cuts a torn or corrupt tail, which it reports in repair (nil when the
// file was whole). The payloads are returned in order.
func Open(path string) (j *Journal, payloads [][]byte, repair *Repair, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("journal %s: reading: %w", path, err)
	}
	j = &Journal{f: f, path: path}
	payloads, j.head, repair = Scan(data)
	j.records = len(payloads)
	off := int64(len(data))
	if repair != nil {
		off = repair.Offset
		if repair.Middle {
			// Kept untouched beside the journal before it is cut.
			repair.Original = path + ".damaged-" + time.Now().UTC().Format("20060102T150405.000")
			if err := WriteFileAtomic(repair.Original, data, 0o600); err != nil {
				f.Close()
				return nil, nil, nil, fmt.Errorf("journal %s: keeping the damaged file: %w", path, err)
			}
		}
		if err := f.Truncate(off); err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("journal %s: cutting the damaged tail at %d: %w", path, off, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, nil, fmt.Errorf("journal %s: %w", path, err)
		}
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("journal %s: %w", path, err)
	}
	j.size = off
	return j, payloads, repair, nil
}

// Errors of DecodeRecord: why bytes are not a whole, intact record.
var (
	ErrTorn   = errors.New("record cut short")
	ErrCRC    = errors.New("record CRC mismatch")
	ErrLength = errors.New("record length out of range")
)

// DecodeRecord reads the record at the start of b and returns its payload
// (a slice of b) and its length in b, or an error wrapping ErrTorn, ErrCRC
// or ErrLength.
func DecodeRecord(b []byte) (payload []byte, n int, err error) {
	if len(b) < headerLen {
		return nil, 0, ErrTorn
	}
	size := binary.LittleEndian.Uint32(b)
	if size == 0 || size > MaxRecord {
		return nil, 0, fmt.Errorf("%w: %d", ErrLength, size)
	}
	if uint64(len(b)-headerLen) < uint64(size) {
		return nil, 0, ErrTorn
	}
	payload = b[headerLen : headerLen+int(size)]
	if crc32.Checksum(payload, castagnoli) != binary.LittleEndian.Uint32(b[4:]) {
		return nil, 0, ErrCRC
	}
	return payload, headerLen + int(size), nil
}

// AppendRecord appends the framed record of payload to dst.
func AppendRecord(dst, payload []byte) []byte {
	var h [headerLen]byte
	binary.LittleEndian.PutUint32(h[:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(payload, castagnoli))
	return append(append(dst, h[:]...), payload...)
}

// Append writes a record; with sync it also waits until the record is on
// stable storage. Records written without sync reach it with the next
// synced one.
func (j *Journal) Append(payload []byte, sync bool) error {
	if len(payload) == 0 || len(payload) > MaxRecord {
		return fmt.Errorf("journal %s: record of %d bytes: want 1 to %d", j.path, len(payload), MaxRecord)
	}
	// One write per record, so a crash tears at most the last one.
	buf := AppendRecord(make([]byte, 0, headerLen+len(payload)), payload)
	_, err := j.f.Write(buf)
	if err == nil && sync {
		if err = j.sync(); err != nil {
			err = fmt.Errorf("sync: %w", err)
		}
	}
	if err != nil {
		// A record that failed (a full disk) is taken back whole, so
		// that the next one follows the last good one and the caller
		// may append it again later.
		if terr := j.f.Truncate(j.size); terr != nil {
			err = errors.Join(err, fmt.Errorf("taking back the failed record: %w", terr))
		}
		if _, serr := j.f.Seek(j.size, io.SeekStart); serr != nil {
			err = errors.Join(err, serr)
		}
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	j.size += int64(len(buf))
	j.head = certify.Next(j.head, payload)
	j.records++
	return nil
}

// Sync waits until every record is on stable storage.
func (j *Journal) Sync() error { return j.sync() }

// OnSync sets a function told how long each fsync of the records took
// (nil for none): the daemon's metrics watch the storage's latency.
func (j *Journal) OnSync(f func(time.Duration)) { j.onSync = f }

func (j *Journal) sync() error {
	if j.onSync == nil {
		return j.f.Sync()
	}
	t0 := time.Now()
	err := j.f.Sync()
	j.onSync(time.Since(t0))
	return err
}

// Head returns the hash of the last record (zero for an empty journal).
func (j *Journal) Head() Hash { return j.head }

// Records returns the number of records.
func (j *Journal) Records() int { return j.records }

// Path returns the journal's file name.
func (j *Journal) Path() string { return j.path }

// Close syncs and closes the file.
func (j *Journal) Close() error {
	err := j.f.Sync()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Rotate archives the journal as archive (a file name) and starts a new
// one at the same path whose first record is first. A crash at any moment
// leaves at the path either the old journal, whole, or the new one with its
// first record: the old one is linked to its archive name, the new one is
// written aside and renamed over it.
//
// When it fails (a full disk), the journal is left as it was, open, and
// the rotation may be tried again.
func (j *Journal) Rotate(archive string, first []byte) error {
	if err := j.sync(); err != nil {
		return fmt.Errorf("journal %s: sync: %w", j.path, err)
	}
	dir := filepath.Dir(j.path)
	if err := os.Link(j.path, archive); err != nil {
		return fmt.Errorf("journal %s: archiving to %s: %w", j.path, archive, err)
	}
	if err := WriteFileAtomic(j.path, AppendRecord(nil, first), 0o600); err != nil {
		os.Remove(archive)
		return fmt.Errorf("journal %s: starting anew: %w", j.path, err)
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	nj, _, _, err := Open(j.path)
	if err != nil {
		return err
	}
	j.f.Close()
	onSync := j.onSync
	*j = *nj
	j.onSync = onSync
	return nil
}

// WriteFileAtomic writes data to path so that a crash leaves either the old
// file or the new one, never a part: a temporary file, synced, renamed,
// and the directory synced.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// Verify reads a journal file without changing it and returns its head
// hash and record count, or an error naming the first damaged offset and
// what follows it.
func Verify(r io.Reader) (Hash, int, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Hash{}, 0, err
	}
	payloads, h, rep := Scan(data)
	if rep != nil {
		return h, len(payloads), fmt.Errorf("journal %s; the hash chain holds over the %d records before it", rep, len(payloads))
	}
	return h, len(payloads), nil
}
