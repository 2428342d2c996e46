package engine_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/parchis-table/parchis/engine"
)

// offRoute reports whether track square n (1…68) is off colour c's route:
// the squares after its entry square and before its exit square (for
// Yellow, 1–4).
func offRoute(c engine.Colour, n int) bool {
	exit := 5 + 17*int(c)
	for k := 1; k <= 4; k++ {
		if (exit-k+67)%68+1 == n {
			return true
		}
	}
	return false
}

// checkInvariants checks a position reached in play against RULES.md and
// NOTATION.md, independently of Position.Validate.
func checkInvariants(p *engine.Position) error {
	var count [engine.NumColours]int
	for s := engine.Site(0); s < engine.NumSites; s++ {
		n, a, b := p.Occupants(s)
		switch s.Kind() {
		case engine.Track, engine.Column:
			if n > 2 {
				return fmt.Errorf("%s holds %d pieces", s, n)
			}
			cols := []engine.Colour{a, b}[:n]
			for _, c := range cols {
				count[c]++
				if s.Kind() == engine.Track && offRoute(c, s.Square()) {
					return fmt.Errorf("a %s piece on %s, off its route", c.Name(), s)
				}
				if s.Kind() == engine.Column && s.Owner() != c {
					return fmt.Errorf("a %s piece in %s", c.Name(), s)
				}
			}
			if n == 2 && a.Partner() != b && a != b && !s.Safe() {
				return fmt.Errorf("non-partners share unsafe %s", s)
			}
		default:
			count[s.Owner()] += n
		}
	}
	for c, k := range count {
		if k != 4 {
			return fmt.Errorf("%s has %d pieces", engine.Colour(c).Name(), k)
		}
	}
	ph, sixes := p.Phase(), p.Sixes()
	switch {
	case sixes < 0 || sixes > 2:
		return fmt.Errorf("sixes %d", sixes)
	case ph == engine.DiePhase(6) && sixes == 0:
		return fmt.Errorf("a 6 to play with sixes 0")
	case ph.IsDie() && ph != engine.DiePhase(6) && sixes != 0:
		return fmt.Errorf("a %s to play with sixes %d", ph, sixes)
	case ph == engine.PhaseEnd && (sixes != 0 || p.Last() != engine.NoSite):
		return fmt.Errorf("end with sixes %d, last %s", sixes, p.Last())
	case ph != engine.PhaseEnd && p.Finished(p.Turn()):
		return fmt.Errorf("finished %s to move", p.Turn().Name())
	}
	var ml engine.MoveList
	p.LegalMoves(&ml)
	if (ph.IsDie() || ph.IsBonus()) != (ml.Len() > 0) {
		return fmt.Errorf("phase %s with %d legal moves", ph, ml.Len())
	}
	if ph == engine.PhaseEnd {
		w, ok := p.Winner()
		if !ok {
			return fmt.Errorf("the game is over with no winner")
		}
		if p.FinishedInPair(w) <= p.FinishedInPair(1-w) {
			return fmt.Errorf("winner %s has no more finished players", w)
		}
	}
	// Every legal move passes Check; the same move with the kill written
	// the other way is refused unless it is legal too.
	for _, m := range ml.Moves() {
		if err := p.Check(m); err != nil {
			return fmt.Errorf("legal move %s refused: %v", m, err)
		}
		alt := m
		alt.Kill = !alt.Kill
		if p.Check(alt) == nil && !ml.Contains(alt) {
			return fmt.Errorf("%s accepted but not listed", alt)
		}
		if m.From.Kind() == engine.Home && p.Phase() != engine.DiePhase(5) {
			return fmt.Errorf("%s out of home with %s", m, p.Phase())
		}
	}
	// PPN and JSON round-trips.
	s := p.String()
	q, err := engine.ParsePPN(s)
	if err != nil {
		return fmt.Errorf("PPN %q: %v", s, err)
	}
	if q != *p {
		return fmt.Errorf("PPN %q reads back differently", s)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	var r engine.Position
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf("JSON %s: %v", b, err)
	}
	if r != *p {
		return fmt.Errorf("JSON %s reads back differently", b)
	}
	return nil
}

// TestProperty_RandomGames plays random games through the public API and
// checks every position reached, and that every game ends.
func TestProperty_RandomGames(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 40
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var ml engine.MoveList
	endings := map[string]int{}
	for i := range games {
		p := engine.NewPosition(engine.Colour(i % engine.NumColours))
		n := 0
		for ; p.Phase() != engine.PhaseEnd; n++ {
			if n > engine.MaxGameActions {
				t.Fatalf("game %d does not end: %q", i, p)
			}
			before := p
			var out engine.Outcome
			var err error
			if p.Phase() == engine.PhaseThrow {
				d := 1 + rng.IntN(6)
				out, err = p.Throw(d)
				if err == nil && !out.TurnPassed && !out.GameOver && p.Turn() != before.Turn() {
					err = fmt.Errorf("turn changed without passing")
				}
				if err == nil && d != 6 && !out.TurnPassed && p.Sixes() != 0 {
					err = fmt.Errorf("sixes %d after a %d", p.Sixes(), d)
				}
				if err == nil && out.ThirdSix != (d == 6 && before.Sixes() == 2) {
					err = fmt.Errorf("third 6 %v after sixes %d and a %d", out.ThirdSix, before.Sixes(), d)
				}
			} else {
				p.LegalMoves(&ml)
				if ml.Len() == 0 {
					t.Fatalf("no legal move in %q", p)
				}
				m := ml.At(rng.IntN(ml.Len()))
				out, err = p.Play(m)
				if err == nil && out.Killed != engine.NoSite && !m.Kill {
					err = fmt.Errorf("%s killed", m)
				}
			}
			if err != nil {
				t.Fatalf("game %d, action %d on %q: %v", i, n, before, err)
			}
			if err := checkInvariants(&p); err != nil {
				t.Fatalf("game %d, action %d, from %q to %q: %v", i, n, before, p, err)
			}
			if out.TiePlay {
				endings["tie play"]++
			}
		}
		w, _ := p.Winner()
		endings[w.String()]++
	}
	if endings["YR"]+endings["BG"] != games {
		t.Errorf("endings %v", endings)
	}
}

// TestProperty_SelfPlay: the engine's own invariant check over more games,
// and every game ends.
func TestProperty_SelfPlay(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	st, err := engine.SelfPlay(200, 7, true)
	if err != nil {
		t.Fatal(err)
	}
	if st.Unfinished != 0 || st.Wins[0]+st.Wins[1] != st.Games {
		t.Errorf("checked self-play: %+v", st)
	}
	st, err = engine.SelfPlay(n, 8, false)
	if err != nil {
		t.Fatal(err)
	}
	if st.Games != n || st.Unfinished != 0 || st.Wins[0]+st.Wins[1] != n {
		t.Errorf("self-play: %+v", st)
	}
	if st.Wins[0] == 0 || st.Wins[1] == 0 || st.TiePlay == 0 {
		t.Errorf("self-play never saw some ending: %+v", st)
	}
}

// TestProperty_RecordsReplay: random games written as records replay to the
// same game.
func TestProperty_RecordsReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := range 30 {
		g, err := playRecordedGame(rng, engine.Colour(i%engine.NumColours))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		g.WriteTo(&b)
		r, err := engine.ReadRecord(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if r.Pos != g.Pos {
			t.Fatalf("game %d replays to %q, played to %q", i, r.Pos, g.Pos)
		}
		var b2 bytes.Buffer
		r.WriteTo(&b2)
		if !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Fatalf("game %d: rewritten record differs", i)
		}
	}
}

// TestProperty_PlayRandomGameFromPosition: random play from a set-up
// position keeps the invariants and ends.
func TestProperty_PlayRandomGameFromPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, s := range []string{
		"5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y",
		"YG:YYYY,R7:R,RG:RRR,G7:G,GG:GGG R throw 0 - Y",
		"20:YY,40:YY,60:GG,B1:BB,BG:BB,RG:RRRR,GG:GG G throw 1 - B",
	} {
		for range 20 {
			end, _, _, err := engine.PlayRandomGame(rng, mustPPN(t, s), true)
			if err != nil {
				t.Fatalf("from %q: %v", s, err)
			}
			if end.Phase() != engine.PhaseEnd {
				t.Fatalf("from %q: no end", s)
			}
		}
	}
}
