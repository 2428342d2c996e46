package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/journal"
	"github.com/parchis-table/parchis/table"
)

// tableDir plays a finished game and the start of the next through
// parchisd script -journal, leaving a directory with an archived game and
// a current journal.
func tableDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	end, err := os.ReadFile("../../referee/testdata/scripts/end.script")
	if err != nil {
		t.Fatal(err)
	}
	more := "at 20 judge start B by marta\nat 21 throw 5\nat 22 throw 3\n"
	script := filepath.Join(t.TempDir(), "game.script")
	os.WriteFile(script, append(end, more...), 0o644)
	var out, errb bytes.Buffer
	if st := run([]string{"script", "-journal", dir, script}, nil, &out, &errb); st != exitOK {
		t.Fatalf("script: %d\n%s", st, errb.String())
	}
	return dir
}

// parchisd journal check names every damage — a byte flipped at the head,
// in the middle or at the tail of the journal, an archive cut short —
// without changing anything; salvage keeps the original, cuts at the last
// consistent point, recovers the records after the damage and says where
// the chain breaks.
func TestJournalCommand_CheckAndSalvage(t *testing.T) {
	recordAt := func(data []byte, i int) int {
		off := 0
		for range i {
			_, n, err := journal.DecodeRecord(data[off:])
			if err != nil {
				t.Fatal(err)
			}
			off += n
		}
		return off
	}
	cases := []struct {
		name      string
		damage    func(t *testing.T, dir string)
		check     []string // in check's output
		salvage   []string // in salvage's output, "" when not run
		afterExit int      // check's exit after the salvage
	}{
		{"whole", func(*testing.T, string) {}, []string{"whole"}, nil, exitOK},
		{"flip at the head", func(t *testing.T, dir string) {
			flip(t, filepath.Join(dir, table.JournalName), func([]byte) int { return 1 })
		},
			[]string{"DAMAGED at byte 0", "valid records follow"}, []string{"kept:", "breaks at byte 0 (record 1)", "recovered:"}, exitFail},
		{"flip in the middle", func(t *testing.T, dir string) {
			flip(t, filepath.Join(dir, table.JournalName), func(d []byte) int { return recordAt(d, 2) + 9 })
		}, []string{"DAMAGED at byte", "holds over the 2 records before it"}, []string{"cut to the 2 records", "(record 3)"}, exitFail},
		{"flip at the tail", func(t *testing.T, dir string) {
			flip(t, filepath.Join(dir, table.JournalName), func(d []byte) int { return len(d) - 1 })
		}, []string{"damaged tail at byte"}, []string{"bytes cut"}, exitOK},
		{"archive cut short", func(t *testing.T, dir string) {
			a, _ := filepath.Glob(filepath.Join(dir, "games", "*.journal"))
			b, _ := os.ReadFile(a[0])
			os.WriteFile(a[0], b[:len(b)-5], 0o600)
		}, []string{"_table_1.journal", "damaged tail", "is not the one"}, nil, exitFail},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tableDir(t)
			tc.damage(t, dir)
			before, _ := os.ReadFile(filepath.Join(dir, table.JournalName))
			var out, errb bytes.Buffer
			st := run([]string{"journal", "check", dir}, nil, &out, &errb)
			if want := map[bool]int{true: exitOK, false: exitFail}[tc.name == "whole"]; st != want {
				t.Errorf("check exit %d, want %d\n%s%s", st, want, out.String(), errb.String())
			}
			for _, w := range tc.check {
				if !strings.Contains(out.String(), w) {
					t.Errorf("check says\n%s\nwithout %q", out.String(), w)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(dir, table.JournalName)); !bytes.Equal(after, before) {
				t.Error("check changed the journal")
			}
			if tc.salvage == nil {
				return
			}
			out.Reset()
			if st := run([]string{"journal", "salvage", dir}, nil, &out, &errb); st != exitOK {
				t.Fatalf("salvage exit %d: %s", st, errb.String())
			}
			for _, w := range tc.salvage {
				if !strings.Contains(out.String(), w) {
					t.Errorf("salvage says\n%s\nwithout %q", out.String(), w)
				}
			}
			if kept, _ := filepath.Glob(filepath.Join(dir, table.JournalName+".damaged-*")); strings.Contains(out.String(), "kept:") {
				found := false
				for _, k := range kept {
					b, _ := os.ReadFile(k)
					found = found || bytes.Equal(b, before)
				}
				if !found {
					t.Errorf("the original is not kept untouched among %v", kept)
				}
			}
			out.Reset()
			if st := run([]string{"journal", "check", dir}, nil, &out, &errb); st != tc.afterExit {
				t.Errorf("check after salvage: exit %d, want %d\n%s", st, tc.afterExit, out.String())
			}
		})
	}
}

func flip(t *testing.T, path string, at func([]byte) int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[at(b)] ^= 0x04
	os.WriteFile(path, b, 0o600)
}

// parchisd script refuses a time going backwards, a seq that would
// overflow and a line too long, each with its real line number, exit 2.
func TestScript_BadInput_RealLineNumbers(t *testing.T) {
	long := strings.Repeat("#", 1<<20+10)
	cases := []struct {
		name, script, want string
	}{
		{"time backwards", "players A B C D\nstart Y\nat 2 throw 5\nat 1.5 throw 3\n", `line 4: "at 1.5 throw 3": time goes backwards: at 1.5 after at 2`},
		{"seq overflow", "players A B C D\nseq 18446744073709551615\n", "line 2:"},
		{"line too long", "players A B C D\nstart Y\n" + long + "\nat 1 throw 5\n", "line 3: line longer than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.script")
			os.WriteFile(path, []byte(tc.script), 0o644)
			var out, errb bytes.Buffer
			st := run([]string{"script", path}, nil, &out, &errb)
			if st != exitUsage || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, %q; want %d and %q", st, errb.String(), exitUsage, tc.want)
			}
		})
	}
}

// TestJournalCommand_Spanish: check and salvage say the damage in the
// locale's language.
func TestJournalCommand_Spanish(t *testing.T) {
	dir := tableDir(t)
	data, _ := os.ReadFile(filepath.Join(dir, table.JournalName))
	off := 0
	for range 2 {
		_, n, err := journal.DecodeRecord(data[off:])
		if err != nil {
			t.Fatal(err)
		}
		off += n
	}
	flip(t, filepath.Join(dir, table.JournalName), func([]byte) int { return off + 9 })
	t.Setenv("LANG", "es_ES.UTF-8")
	for _, c := range []struct {
		cmd    string
		status int
		want   []string
	}{
		{"check", exitFail, []string{"DAÑADO en el byte", "(el CRC del registro no cuadra)", "se mantiene en los 2 registros anteriores", "problemas"}},
		{"salvage", exitOK, []string{"dañado en el byte", "cortado a los 2 registros anteriores al daño", "(registro 3)", "un juez debe revisar la partida"}},
		{"check", exitFail, []string{"un juez debe revisar la partida: el diario se dañó en el byte"}},
	} {
		var out, errb bytes.Buffer
		if st := run([]string{"journal", c.cmd, dir}, nil, &out, &errb); st != c.status {
			t.Errorf("%s: exit %d, want %d: %s", c.cmd, st, c.status, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s says\n%s\nwithout %q", c.cmd, out.String(), w)
			}
		}
		if w := spanish.EnglishIn(out.String()); len(w) > 0 {
			t.Errorf("%s: English words %q in:\n%s", c.cmd, w, out.String())
		}
	}
}
