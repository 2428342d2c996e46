package referee_test

import (
	"sort"
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// BenchmarkReferee_Snapshot measures a stable snapshot's way to the lights
// frame and the events, in mid-game: each op is one snapshot, alternately
// a piece lifted (in hand) and the move made (accepted), then the position
// restored. It reports the 99th percentile as p99-ns.
func BenchmarkReferee_Snapshot(b *testing.B) {
	pos, err := engine.ParsePPN("3:R,10:Y,14:B,22:BB,30:G,35:Y,41:R,50:G,56:G,60:Y,Y2:Y,BG:B,R5:R Y 4 0 - Y")
	if err != nil {
		b.Fatal(err)
	}
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	m := ml.At(0)
	before := board.Expected(&pos)
	after := pos
	after.PlayLegal(m)
	moved := board.Expected(&after)
	lifted := before
	lifted.Sites[m.From].Count--
	lifted.Sites[m.From].ByColour[engine.Yellow]--
	at := time.Unix(0, 0)
	newRef := func() *referee.Referee {
		r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
		r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
		r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: before})
		return r
	}
	r := newRef()
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := referee.Input{At: at, Kind: referee.InputBoard, Board: lifted}
		if i%2 == 1 {
			in.Board = moved
		}
		t0 := time.Now()
		r.Handle(in)
		_ = r.Lights()
		times = append(times, time.Since(t0))
		if i%2 == 1 {
			b.StopTimer()
			r = newRef()
			b.StartTimer()
		}
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
	}
}

// BenchmarkReferee_CountingOut measures the snapshots of a piece counted
// out square by square, in mid-game: each op is one hop's snapshot, the
// piece resting on a square on its way (provisional) or lifted again (in
// hand), until it lands and the move is accepted. It reports the 99th
// percentile as p99-ns.
func BenchmarkReferee_CountingOut(b *testing.B) {
	pos, err := engine.ParsePPN("3:R,10:Y,14:B,22:BB,30:G,35:Y,41:R,50:G,56:G,60:Y,Y2:Y,BG:B,R5:R Y +20 0 10 Y")
	if err != nil {
		b.Fatal(err)
	}
	from, to := engine.TrackSite(10), engine.TrackSite(30)
	var hops []board.Snapshot
	base := board.Expected(&pos)
	base.Sites[from].Count--
	base.Sites[from].ByColour[engine.Yellow]--
	for k := 1; k <= engine.Steps(engine.Yellow, from, to); k++ {
		hops = append(hops, base)
		s, _ := engine.Advance(engine.Yellow, from, k)
		on := base
		on.Sites[s].Count++
		on.Sites[s].ByColour[engine.Yellow]++
		on.Sites[s].Coloured = true
		hops = append(hops, on)
	}
	at := time.Unix(0, 0)
	newRef := func() *referee.Referee {
		r := referee.New(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
		r.Handle(referee.Input{At: at, Kind: referee.InputSetup, Position: pos})
		r.Handle(referee.Input{At: at, Kind: referee.InputBoard, Board: board.Expected(&pos)})
		return r
	}
	r := newRef()
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(hops)
		in := referee.Input{At: at.Add(time.Duration(i) * 300 * time.Millisecond), Kind: referee.InputBoard, Board: hops[k]}
		t0 := time.Now()
		r.Handle(in)
		_ = r.Lights()
		times = append(times, time.Since(t0))
		if k == len(hops)-1 {
			b.StopTimer()
			r = newRef()
			b.StartTimer()
		}
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
	}
}
