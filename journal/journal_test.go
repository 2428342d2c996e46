package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

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
