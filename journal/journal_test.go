package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/certify"
)

func records(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte("at " + string(rune('0'+i%10)) + " throw 5")
	}
	return out
}

func TestJournal_AppendReopen_SameRecordsAndHead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.journal")
	j, got, rep, err := Open(path)
	if err != nil || len(got) != 0 || rep != nil {
		t.Fatalf("new journal: %v, %d records, repair %v", err, len(got), rep)
	}
	want := records(5)
	var head Hash
	for i, p := range want {
		if err := j.Append(p, i%2 == 0); err != nil {
			t.Fatal(err)
		}
		head = certify.Next(head, p)
	}
	if j.Head() != head || j.Records() != 5 {
		t.Fatalf("head %s after %d records, want %s after 5", j.Head(), j.Records(), head)
	}
	j.Close()
	j2, got, rep, err := Open(path)
	if err != nil || rep != nil {
		t.Fatalf("reopen: %v, repair %+v", err, rep)
	}
	defer j2.Close()
	if len(got) != len(want) {
		t.Fatalf("reopened with %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("record %d: %q, want %q", i, got[i], want[i])
		}
	}
	if j2.Head() != head {
		t.Errorf("reopened head %s, want %s", j2.Head(), head)
	}
}

// Damage of every kind at the tail is cut on open, reported, and the
// records before it are kept; appending afterwards works.
func TestJournal_DamagedTail_CutAndReported(t *testing.T) {
	whole := func() []byte {
		var b []byte
		for _, p := range records(3) {
			b = AppendRecord(b, p)
		}
		return b
	}
	last := len(whole()) - len(AppendRecord(nil, records(3)[2]))
	cases := []struct {
		name   string
		damage func([]byte) []byte
		kept   int
		reason error
	}{
		{"torn header", func(b []byte) []byte { return b[:last+3] }, 2, ErrTorn},
		{"torn payload", func(b []byte) []byte { return b[:len(b)-2] }, 2, ErrTorn},
		{"bad CRC", func(b []byte) []byte { b[len(b)-1] ^= 0xff; return b }, 2, ErrCRC},
		{"zero length", func(b []byte) []byte { return append(b, make([]byte, 12)...) }, 3, ErrLength},
		{"huge length", func(b []byte) []byte { return append(b, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0) }, 3, ErrLength},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.journal")
			if err := os.WriteFile(path, tc.damage(whole()), 0o600); err != nil {
				t.Fatal(err)
			}
			j, got, rep, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if len(got) != tc.kept || rep == nil || rep.Cut == 0 {
				t.Fatalf("kept %d records, repair %+v; want %d kept and a repair", len(got), rep, tc.kept)
			}
			if _, _, err := DecodeRecord(tc.damage(whole())[rep.Offset:]); !errors.Is(err, tc.reason) {
				t.Errorf("damage reads as %v, want %v", err, tc.reason)
			}
			if err := j.Append([]byte("after repair"), true); err != nil {
				t.Fatal(err)
			}
			j.Close()
			_, got, rep, err = Open(path)
			if err != nil || rep != nil || len(got) != tc.kept+1 || string(got[tc.kept]) != "after repair" {
				t.Fatalf("after repair and append: %d records, repair %+v, err %v", len(got), rep, err)
			}
		})
	}
}

func TestJournal_Rotate_ArchivesAndStartsEmpty(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.journal")
	j, _, _, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range records(3) {
		j.Append(p, false)
	}
	head := j.Head()
	if err := j.Rotate(filepath.Join(dir, "old.journal"), []byte("seq 3")); err != nil {
		t.Fatal(err)
	}
	if j.Records() != 1 || j.Head() != certify.Next(Hash{}, []byte("seq 3")) {
		t.Fatalf("after rotate: %d records", j.Records())
	}
	j.Append([]byte("new"), true)
	j.Close()
	if _, got, _, _ := Open(path); len(got) != 2 || string(got[0]) != "seq 3" || string(got[1]) != "new" {
		t.Errorf("new journal holds %q", got)
	}
	f, _ := os.Open(filepath.Join(dir, "old.journal"))
	defer f.Close()
	h, n, err := Verify(f)
	if err != nil || n != 3 || h != head {
		t.Fatalf("archive verifies as %s, %d records, %v; want %s, 3", h, n, err, head)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "snap.json")
	for _, s := range []string{"first", "second"} {
		if err := WriteFileAtomic(path, []byte(s), 0o640); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != s {
			t.Fatalf("read %q, want %q", b, s)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func FuzzDecodeRecord(f *testing.F) {
	f.Add(AppendRecord(nil, []byte("at 1 throw 5")))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 'x'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, n, err := DecodeRecord(b)
		if err != nil {
			if !errors.Is(err, ErrTorn) && !errors.Is(err, ErrCRC) && !errors.Is(err, ErrLength) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if n > len(b) || n != headerLen+len(p) {
			t.Fatalf("decoded %d bytes of %d with a %d-byte payload", n, len(b), len(p))
		}
		if !bytes.Equal(AppendRecord(nil, p), b[:n]) {
			t.Fatalf("record does not re-encode to itself")
		}
	})
}

func BenchmarkAppend(b *testing.B) {
	j, _, _, err := Open(filepath.Join(b.TempDir(), "t.journal"))
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	p := []byte("at 1764412345.123 board 5:Y,12:YB,YH:YYY,BH:BBBB,RH:RRRR,GH:GGGG")
	b.ReportAllocs()
	for b.Loop() {
		if err := j.Append(p, false); err != nil {
			b.Fatal(err)
		}
	}
}

// A byte flipped anywhere is found: at the tail it is cut as a torn write
// would be; at the head or in the middle, where valid records follow, the
// original is kept untouched beside the journal, the records after the
// damage are recovered, and the journal resumes at the last consistent
// point, its hash chain whole up to there.
func TestJournal_Damage_HeadMiddleTail(t *testing.T) {
	recs := records(10)
	var whole []byte
	var offs []int
	for _, p := range recs {
		offs = append(offs, len(whole))
		whole = AppendRecord(whole, p)
	}
	cases := []struct {
		name      string
		at        int // byte flipped
		kept      int
		middle    bool
		recovered int
	}{
		{"length of the first record", 2, 0, true, 9},
		{"CRC of the first record", 5, 0, true, 9},
		{"payload in the middle", offs[4] + headerLen + 1, 4, true, 5},
		{"length in the middle", offs[6], 6, true, 3},
		{"payload of the last record", len(whole) - 1, 9, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t.journal")
			damaged := bytes.Clone(whole)
			damaged[tc.at] ^= 0x10
			os.WriteFile(path, damaged, 0o600)
			j, got, rep, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			if rep == nil || len(got) != tc.kept || rep.Middle != tc.middle || len(rep.Recovered) != tc.recovered {
				t.Fatalf("kept %d, repair %v; want %d kept, middle %v, %d recovered", len(got), rep, tc.kept, tc.middle, tc.recovered)
			}
			for i, p := range rep.Recovered {
				if want := recs[len(recs)-tc.recovered+i]; !bytes.Equal(p, want) {
					t.Errorf("recovered record %d: %q, want %q", i, p, want)
				}
			}
			var head Hash
			for _, p := range recs[:tc.kept] {
				head = certify.Next(head, p)
			}
			if j.Head() != head {
				t.Errorf("head %s, want the chain of the first %d records %s", j.Head(), tc.kept, head)
			}
			if tc.middle {
				orig, err := os.ReadFile(rep.Original)
				if err != nil || !bytes.Equal(orig, damaged) {
					t.Errorf("the original was not kept untouched beside the journal (%s): %v", rep.Original, err)
				}
				if filepath.Dir(rep.Original) != dir {
					t.Errorf("original kept in %s", rep.Original)
				}
			}
		})
	}
}

// Verify reads without changing, and names where the chain breaks.
func TestVerify_NamesTheBreak(t *testing.T) {
	var whole []byte
	for _, p := range records(4) {
		whole = AppendRecord(whole, p)
	}
	cut := whole[:len(whole)-3] // an archive cut short
	_, n, err := Verify(bytes.NewReader(cut))
	if err == nil || n != 3 || !strings.Contains(err.Error(), "byte") {
		t.Errorf("truncated: %d records, %v", n, err)
	}
	flipped := bytes.Clone(whole)
	flipped[3] ^= 1
	_, n, err = Verify(bytes.NewReader(flipped))
	if err == nil || n != 0 || !strings.Contains(err.Error(), "3 valid records after it") {
		t.Errorf("flipped: %d records, %v", n, err)
	}
}

// Scan never panics, and what it finds is consistent: the valid records
// come first and re-encode to the bytes before the damage, and whatever
// it recovers decodes where it says.
func FuzzScan(f *testing.F) {
	var whole []byte
	for _, p := range records(4) {
		whole = AppendRecord(whole, p)
	}
	f.Add(whole)
	flipped := bytes.Clone(whole)
	flipped[20] ^= 1
	f.Add(flipped)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		payloads, _, rep := Scan(data)
		var again []byte
		for _, p := range payloads {
			again = AppendRecord(again, p)
		}
		end := len(data)
		if rep != nil {
			end = int(rep.Offset)
		}
		if !bytes.Equal(again, data[:end]) {
			t.Fatalf("the valid records do not make the bytes before the damage")
		}
		if rep == nil {
			return
		}
		if rep.Middle != (len(rep.Recovered) > 0) {
			t.Fatalf("middle %v with %d recovered", rep.Middle, len(rep.Recovered))
		}
		for i, p := range rep.Recovered {
			got, _, err := DecodeRecord(data[rep.RecoveredAt[i]:])
			if err != nil || !bytes.Equal(got, p) || rep.RecoveredAt[i] <= rep.Offset {
				t.Fatalf("recovered record %d at %d does not decode there", i, rep.RecoveredAt[i])
			}
		}
	})
}

// TestJournal_OnSync_TimesEveryFsync: the observer hears of each synced
// append, each Sync and the rotation's, and keeps hearing after Rotate.
func TestJournal_OnSync_TimesEveryFsync(t *testing.T) {
	dir := t.TempDir()
	j, _, _, err := Open(filepath.Join(dir, "t.journal"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var syncs []time.Duration
	j.OnSync(func(d time.Duration) { syncs = append(syncs, d) })
	steps := []struct {
		name string
		do   func() error
		want int
	}{
		{"append without sync", func() error { return j.Append([]byte("a"), false) }, 0},
		{"append with sync", func() error { return j.Append([]byte("b"), true) }, 1},
		{"Sync", j.Sync, 2},
		{"Rotate", func() error { return j.Rotate(filepath.Join(dir, "old.journal"), []byte("c")) }, 3},
		{"append with sync after Rotate", func() error { return j.Append([]byte("d"), true) }, 4},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if len(syncs) != s.want {
			t.Fatalf("after %s: %d fsyncs timed, want %d", s.name, len(syncs), s.want)
		}
	}
	for i, d := range syncs {
		if d < 0 {
			t.Errorf("fsync %d took %v", i, d)
		}
	}
}
