package bots_test

import (
	"math/rand/v2"
	"testing"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
)

// FuzzBots: on every position the PPN parser accepts (the engine's
// FuzzParsePPN seeds, and more), every bot returns a legal move when one
// is due, and a playout ends.
func FuzzBots(f *testing.F) {
	for _, s := range []string{
		"- Y throw 0 - Y",
		"5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y",
		"YG:YYYY,RG:RRRR,GG:GGGG R end 0 - Y",
		"20:YY,40:Y Y 6 1 - Y",
		"24:Y,40:Y Y +20 2 24 G",
		midGame,
		"40:Y,43:R Y 3 0 - Y",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pos, err := engine.ParsePPN(s)
		if err != nil {
			return
		}
		pos.Settle()
		var ml engine.MoveList
		pos.LegalMoves(&ml)
		if ml.Len() > 0 {
			for _, b := range []bots.Bot{bots.NewRandom(1), bots.Greedy{}, bots.NewMC(4, 1)} {
				if m := b.Choose(&pos); !ml.Contains(m) {
					t.Fatalf("%s chose %s on %q; legal: %s", b.Name(), m, s, ml.String())
				}
			}
		}
		end := bots.Playout(pos, rand.New(rand.NewPCG(1, 2)))
		if end.Phase() != engine.PhaseEnd {
			t.Fatalf("playout from %q did not end: %s", s, end)
		}
	})
}
