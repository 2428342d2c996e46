package broadcast

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func openTestQueue(t *testing.T, dir string) (*queue, QueueRecovery) {
	t.Helper()
	q, rec, err := openQueue(dir, testSeq)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q, rec
}

// testSeq reads the number of a test payload {"seq":N}.
func testSeq(b []byte) uint64 {
	var n uint64
	fmt.Sscanf(string(b), `{"seq":%d}`, &n)
	return n
}

func payloads(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, `{"seq":%d}`, i+1)
	}
	return out
}

func TestQueue_AckedRecordsGone_PendingSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	q, _ := openTestQueue(t, dir)
	ps := payloads(5)
	for _, p := range ps {
		if err := q.Append(p, testSeq(p)); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if err := q.Ack(); err != nil {
			t.Fatal(err)
		}
	}
	q.Close()
	q2, rec := openTestQueue(t, dir)
	if rec.Pending != 3 || rec.Cause != nil {
		t.Fatalf("reopened: %+v, want 3 pending and no damage", rec)
	}
	got := q2.Peek(10)
	for i, p := range got {
		if !bytes.Equal(p, ps[i+2]) {
			t.Errorf("pending %d: %s, want %s", i, p, ps[i+2])
		}
	}
	for range 3 {
		q2.Ack()
	}
	if fi, err := os.Stat(filepath.Join(dir, queueFile)); err != nil || fi.Size() != 0 {
		t.Errorf("queue file after everything acknowledged: %v, %v; want empty", fi.Size(), err)
	}
}

func TestQueue_DamagedTail_TruncatedAndReported(t *testing.T) {
	tests := []struct {
		name   string
		damage func(b []byte) []byte
		keep   int
	}{
		{"cut in a payload", func(b []byte) []byte { return b[:len(b)-3] }, 2},
		{"cut in a header", func(b []byte) []byte { return append(b, 0, 0, 0) }, 3},
		{"flipped payload byte", func(b []byte) []byte { b[len(b)-2] ^= 0x40; return b }, 2},
		{"zero length", func(b []byte) []byte { return append(b, make([]byte, 12)...) }, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			q, _ := openTestQueue(t, dir)
			for _, p := range payloads(3) {
				q.Append(p, testSeq(p))
			}
			q.Close()
			file := filepath.Join(dir, queueFile)
			b, _ := os.ReadFile(file)
			os.WriteFile(file, tt.damage(b), 0o600)
			q2, rec := openTestQueue(t, dir)
			if rec.Pending != tt.keep || rec.Truncated == 0 || rec.Cause == nil {
				t.Fatalf("reopened: %+v, want %d pending and a truncation reported", rec, tt.keep)
			}
			if err := q2.Append([]byte(`{"seq":4}`), 4); err != nil {
				t.Fatal(err)
			}
			q2.Close()
			_, rec = openTestQueue(t, dir)
			if rec.Pending != tt.keep+1 || rec.Cause != nil {
				t.Fatalf("after appending to the repaired queue: %+v, want %d pending, no damage", rec, tt.keep+1)
			}
		})
	}
}

func TestQueue_DamagedAck_EverythingPendingAgain(t *testing.T) {
	dir := t.TempDir()
	q, _ := openTestQueue(t, dir)
	for _, p := range payloads(3) {
		q.Append(p, testSeq(p))
	}
	q.Ack()
	q.Close()
	os.WriteFile(filepath.Join(dir, ackFile), []byte("garbage of 12"), 0o600)
	_, rec := openTestQueue(t, dir)
	if rec.Pending != 3 || !rec.AckReset {
		t.Fatalf("reopened: %+v, want all 3 pending again", rec)
	}
}

// BenchmarkQueueAppend measures an event's trip to disk (write and fsync).
func BenchmarkQueueAppend(b *testing.B) {
	q, _, err := openQueue(b.TempDir(), testSeq)
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	p := []byte(`{"seq":12,"type":"move","time":"2025-05-01T18:30:00Z","colour":"Y","move":"5-12","position":"5:Y,YG:YYY,… Y throw 0 - Y"}`)
	b.ReportAllocs()
	b.SetBytes(int64(len(p)))
	for i := 0; b.Loop(); i++ {
		if err := q.Append(p, uint64(i+1)); err != nil {
			b.Fatal(err)
		}
		if i%64 == 63 {
			for range 64 {
				q.Ack()
			}
		}
	}
}

func TestQueue_LastSeqSurvivesFullAcknowledgement(t *testing.T) {
	dir := t.TempDir()
	q, _ := openTestQueue(t, dir)
	for _, p := range payloads(4) {
		q.Append(p, testSeq(p))
	}
	for range 4 {
		if err := q.Ack(); err != nil {
			t.Fatal(err)
		}
	}
	if got := q.LastSeq(); got != 4 {
		t.Fatalf("LastSeq = %d, want 4", got)
	}
	q.Close()
	q2, rec := openTestQueue(t, dir)
	if rec.Pending != 0 || q2.LastSeq() != 4 {
		t.Fatalf("reopened: %d pending, LastSeq %d; want 0 and 4", rec.Pending, q2.LastSeq())
	}
}

// A new game numbering its events afresh: the last queued is the newest,
// not the highest acknowledged, also after a restart.
func TestQueue_LastSeq_NumbersStartedAfresh(t *testing.T) {
	dir := t.TempDir()
	q, _ := openTestQueue(t, dir)
	for _, p := range payloads(5) {
		q.Append(p, testSeq(p))
	}
	for range 5 {
		q.Ack()
	}
	q.Append([]byte(`{"seq":1}`), 1)
	q.Append([]byte(`{"seq":2}`), 2)
	q.Close()
	q2, _ := openTestQueue(t, dir)
	if got := q2.LastSeq(); got != 2 {
		t.Fatalf("LastSeq = %d, want 2", got)
	}
}
