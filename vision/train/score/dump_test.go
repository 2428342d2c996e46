package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
	"github.com/parchis-table/parchis/vision/synth"
)

// TestDump_OneLineACrop writes two crops' lines and reads them back: the
// label, the network's answer with every value accepted, its eight
// probabilities and embedding, the pip rules' answer; a second writer
// appends to the same file.
func TestDump_OneLineACrop(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	for i, seed := range []uint64{21, 22} {
		d, err := newDumpWriter(path, "synth", learned.Opts{})
		if err != nil {
			t.Fatal(err)
		}
		s := synth.RandomScene(seed, 128, 128, synth.Flat, 50, 60)
		want, _ := vision.ParseLabel("5")
		d.add(vision.Label{File: "crops/" + string(rune('a'+i)) + ".png", Want: want}, synth.Render(s), 55)
		if err := d.close(); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var l dumpLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		if l.Source != "synth" || l.Want != "5" || l.Size != 55 || l.Net == "" || l.Pips == "" {
			t.Errorf("line %d: %+v", n+1, l)
		}
		if len(l.Probs) != 8 || len(l.Emb) == 0 {
			t.Errorf("line %d: %d probabilities and %d values of embedding, want 8 and some", n+1, len(l.Probs), len(l.Emb))
		}
		if l.Net != "unsure" && l.Net != "none" && l.Net != "multi" && l.Net != "edge" && l.NetConf <= 0 {
			t.Errorf("line %d: value %s with confidence %g", n+1, l.Net, l.NetConf)
		}
		n++
	}
	if n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}
