package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

// midGame is a position from the middle of a game: pieces of every colour
// out, a shared safe square, a partner barrier, pieces in columns and goals.
const midGame = "5:Y,12:B,20:RY,29:GY,40:R,46:B,60:G,Y3:Y,B5:B,RG:R,GG:G Y 4 0 - Y"

func BenchmarkLegalMoves(b *testing.B) {
	p := mustPPN(b, midGame)
	var ml engine.MoveList
	b.ReportAllocs()
	for b.Loop() {
		p.LegalMoves(&ml)
	}
	if ml.Len() == 0 {
		b.Fatal("no moves")
	}
}

func BenchmarkPlay(b *testing.B) {
	p := mustPPN(b, midGame)
	m := mustMove(b, "20-24")
	b.ReportAllocs()
	for b.Loop() {
		q := p
		if _, err := q.Play(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlayLegal(b *testing.B) {
	p := mustPPN(b, midGame)
	m := mustMove(b, "20-24")
	b.ReportAllocs()
	for b.Loop() {
		q := p
		q.PlayLegal(m)
	}
}

func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	start := engine.NewPosition(engine.Yellow)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := engine.PlayRandomGame(rng, start, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkParsePPN(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := engine.ParsePPN(midGame); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrintPPN(b *testing.B) {
	p := mustPPN(b, midGame)
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.AppendPPN(buf[:0])
	}
}

func BenchmarkString(b *testing.B) {
	p := mustPPN(b, midGame)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.String()
	}
}

// TestHotPathsAllocateNothing pins the promise of doc.go: legal moves,
// throws and moves allocate nothing.
func TestHotPathsAllocateNothing(t *testing.T) {
	p := mustPPN(t, midGame)
	m := mustMove(t, "20-24")
	tp := mustPPN(t, "5:Y,12:B,20:RY,29:GY,40:R,46:B,60:G,Y3:Y,B5:B,RG:R,GG:G Y throw 0 - Y")
	var ml engine.MoveList
	for name, f := range map[string]func(){
		"LegalMoves": func() { p.LegalMoves(&ml) },
		"Play":       func() { q := p; q.Play(m) },
		"Throw":      func() { q := tp; q.Throw(6) },
		"Check":      func() { p.Check(m) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %.0f times", name, n)
		}
	}
}
