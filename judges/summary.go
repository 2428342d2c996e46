package judges

import (
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/engine"
)

// Summary is what a judge reads of a finished game before certifying it,
// taken from its record: how many moves, infractions and corrections, and
// how long it lasted (from the first to the last time the record notes).
type Summary struct {
	Moves, Infractions, Corrections int
	// Duration is zero when the record notes no times.
	Duration time.Duration
	// Err says why the record could not be read; the counts are then
	// zero.
	Err error
}

// Summarise reads a game record.
func Summarise(record string) Summary {
	var s Summary
	var first, last time.Duration
	var times int
	seen := func(note string) {
		// A time is the note's first word: HH:MM:SS.
		w, _, _ := strings.Cut(note, " ")
		t, err := time.Parse("15:04:05", w)
		if err != nil {
			return
		}
		d := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute + time.Duration(t.Second())*time.Second
		if times == 0 {
			first = d
		} else if d < last {
			d += 24 * time.Hour // past midnight
		}
		last = d
		times++
	}
	g, err := engine.ReadRecord(strings.NewReader(record))
	if err != nil {
		s.Err = err
		return s
	}
	for _, a := range g.Actions {
		switch a.Kind {
		case engine.ActMove:
			s.Moves++
			seen(a.Note)
		case engine.ActNone, engine.ActThirdSix:
			seen(a.Note)
		case engine.ActComment:
			switch {
			case strings.HasPrefix(a.Note, "judge set "):
				s.Corrections++
				if _, at, ok := strings.Cut(a.Note, " at "); ok {
					seen(at)
				}
			case strings.Contains(a.Note, "infraction "):
				s.Infractions++
				seen(a.Note)
			}
		}
	}
	if times > 1 {
		s.Duration = last - first
		for s.Duration > 24*time.Hour {
			s.Duration -= 24 * time.Hour
		}
	}
	return s
}

// durationText writes a duration as a judge reads it: 1 h 05 min, 12 min
// 30 s.
func durationText(d time.Duration) string {
	if d <= 0 {
		return "—"
	}
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	switch {
	case h > 0:
		return itoa(h) + " h " + pad2(m) + " min"
	case m > 0:
		return itoa(m) + " min " + pad2(s) + " s"
	}
	return itoa(s) + " s"
}

func itoa(n int) string { return strconv.Itoa(n) }

func pad2(n int) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}
