package hw

import (
	"testing"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
)

var t0 = time.Date(2025, 5, 1, 18, 0, 0, 0, time.UTC)

// scanAt is one raw scan: the sites present at a time.
type scanAt struct {
	ms    int
	sites []engine.Site
}

func snap(sites ...engine.Site) *board.Snapshot {
	var s board.Snapshot
	for _, x := range sites {
		s.Sites[x].Count++
	}
	return &s
}

// run feeds scans every 5 ms from the list (each holding until the next)
// until end ms and returns the times (ms) and snapshots of reported changes.
func run(d *Debouncer, scans []scanAt, end int) (times []int, snaps []*board.Snapshot) {
	i := 0
	for ms := 0; ms <= end; ms += 5 {
		for i+1 < len(scans) && scans[i+1].ms <= ms {
			i++
		}
		if d.Feed(t0.Add(time.Duration(ms)*time.Millisecond), snap(scans[i].sites...)) {
			times = append(times, ms)
			s := *d.Stable()
			snaps = append(snaps, &s)
		}
	}
	return
}

func TestDebounce(t *testing.T) {
	s12, s13, s14, s15 := engine.TrackSite(12), engine.TrackSite(13), engine.TrackSite(14), engine.TrackSite(15)
	opts := DebounceOpts{Integrate: 4, Settle: 100 * time.Millisecond}
	tests := []struct {
		name  string
		scans []scanAt
		want  []*board.Snapshot // reported snapshots, in order
	}{
		{"PlacedOnce", []scanAt{{0, nil}, {20, []engine.Site{s12}}}, []*board.Snapshot{snap(s12)}},
		{"BouncingSwitch", []scanAt{
			{0, nil}, {20, []engine.Site{s12}}, {25, nil}, {30, []engine.Site{s12}}, {35, nil},
			{40, []engine.Site{s12}}, {45, nil}, {50, []engine.Site{s12}},
		}, []*board.Snapshot{snap(s12)}},
		{"SingleGlitchIgnored", []scanAt{{0, nil}, {20, []engine.Site{s13}}, {25, nil}}, nil},
		{"HandHoversMagnetOverSeveralSquares", []scanAt{
			{0, []engine.Site{s12}},
			{20, []engine.Site{s12, s13}}, {60, []engine.Site{s12, s14}}, {90, []engine.Site{s12, s15}},
			{130, []engine.Site{s12, s14}}, {170, []engine.Site{s12}},
		}, nil},
		{"PieceSlidAcrossSquaresReportedWhereItRests", []scanAt{
			{0, []engine.Site{s12}}, {20, []engine.Site{s13}}, {60, []engine.Site{s14}}, {100, []engine.Site{s15}},
		}, []*board.Snapshot{snap(s15)}},
		{"LiftThenPlaceApart", []scanAt{{0, []engine.Site{s12}}, {20, nil}, {400, []engine.Site{s15}}},
			[]*board.Snapshot{snap(), snap(s15)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDebouncer(snap(tc.scans[0].sites...), opts)
			times, got := run(d, tc.scans, 1000)
			if len(got) != len(tc.want) {
				t.Fatalf("reported %d changes at %v ms, want %d", len(got), times, len(tc.want))
			}
			for i := range got {
				if *got[i] != *tc.want[i] {
					t.Errorf("change %d at %d ms: wrong snapshot", i, times[i])
				}
			}
			if d.Pending() {
				t.Error("still pending at the end")
			}
		})
	}
}

func TestDebounce_SettleTime(t *testing.T) {
	d := NewDebouncer(snap(), DebounceOpts{Integrate: 2, Settle: 100 * time.Millisecond})
	times, _ := run(d, []scanAt{{0, nil}, {50, []engine.Site{engine.HomeSite(engine.Red)}}}, 500)
	// Confirmed at 55 ms (second scan), reported 100 ms later.
	if len(times) != 1 || times[0] != 155 {
		t.Errorf("reported at %v ms, want [155]", times)
	}
}

func BenchmarkDebouncerFeed(b *testing.B) {
	d := NewDebouncer(snap(), DefaultDebounceOpts)
	raw := [2]*board.Snapshot{snap(), snap(engine.TrackSite(5))}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.Feed(t0.Add(time.Duration(i)*5*time.Millisecond), raw[i/100%2])
	}
}
