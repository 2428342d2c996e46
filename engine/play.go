package engine

import "fmt"

// Outcome tells what an action did besides moving the piece: the
// consequences a table shows and a record writes.
type Outcome struct {
	// Lost is set when a throw had no legal move and was lost.
	Lost bool
	// Killed is the site where a piece was killed, or NoSite; Victim is
	// its colour.
	Killed Site
	Victim Colour
	// Goal is set when the move brought a piece into its goal.
	Goal bool
	// BonusLost is the bonus (10 or 20) that was earned but could not be
	// played, or 0.
	BonusLost int
	// ThirdSix is set when the throw was a third 6; SentHome is the site
	// whose piece went back home for it, or NoSite.
	ThirdSix bool
	SentHome Site
	// Finished is set when the move finished its player.
	Finished bool
	// TurnPassed is set when the turn went to another player.
	TurnPassed bool
	// GameOver is set when the action ended the game; TiePlay when it
	// ended at once because a player finished with the pairs level (§9).
	GameOver bool
	TiePlay  bool
}

func noOutcome() Outcome { return Outcome{Killed: NoSite, SentHome: NoSite} }

// Throw applies a throw of die value d (1…6) by the side to move, resolving
// at once a throw that cannot be played (lost) and a third 6 (RULES.md §3).
func (p *Position) Throw(d int) (Outcome, error) {
	out := noOutcome()
	if p.phase != PhaseThrow {
		return out, &RuleError{Rule: RuleIllegalMove, Ref: "§3", Reason: fmt.Sprintf("no throw is due: the phase is %s", p.phase)}
	}
	if d < 1 || d > 6 {
		return out, fmt.Errorf("bad die value %d: want 1…6", d)
	}
	p.throw(d, &out)
	return out, nil
}

func (p *Position) throw(d int, out *Outcome) {
	if d != 6 {
		p.sixes = 0
	} else if p.sixes++; p.sixes == 3 {
		out.ThirdSix = true
		if s := p.last; s != NoSite && s.Kind() == Track {
			if n, a, b := p.Occupants(s); (n >= 1 && a == p.turn) || (n == 2 && b == p.turn) {
				p.sendHome(p.turn, s)
				out.SentHome = s
			}
		}
		p.passTurn(out)
		return
	}
	p.phase = Phase(d)
	if !p.HasLegalMove() {
		out.Lost = true
		p.afterPlay(out)
	}
}

// Play applies a legal move of the side to move, with its kill, goal,
// bonuses, finishing and turn passing (RULES.md §3–§9). An illegal move
// leaves the position unchanged and returns a *RuleError.
func (p *Position) Play(m Move) (Outcome, error) {
	var ml MoveList
	p.LegalMoves(&ml)
	if !ml.Contains(m) {
		return noOutcome(), p.explain(m, &ml)
	}
	return p.PlayLegal(m), nil
}

// PlayLegal applies m, which must be one of the moves LegalMoves returned
// for this position; it skips the check, for callers that chose m from
// that list.
func (p *Position) PlayLegal(m Move) Outcome {
	out := noOutcome()
	c := p.turn
	if m.From.Kind() == Home {
		p.cells[m.From].n--
	} else {
		p.cells[m.From].removeColour(c)
	}
	to := &p.cells[m.To]
	if victim, ok := p.Victim(m); ok {
		p.sendHome(victim, m.To)
		out.Killed, out.Victim = m.To, victim
	}
	if m.To.Holds2() {
		to.c[to.n] = c
	}
	to.n++
	p.movePiece(c, m.From, m.To)
	p.last = m.To

	switch {
	case m.Kill:
		p.phase = PhaseBonus20
	case m.To.Kind() == Goal:
		out.Goal = true
		p.phase = PhaseBonus10
		if p.Finished(c) {
			out.Finished = true
			// Tie play (§10): the pairs were level, and not at zero,
			// before this finish.
			mine, theirs := p.FinishedInPair(c.Pair())-1, p.FinishedInPair(1-c.Pair())
			if mine == theirs && mine > 0 {
				out.TiePlay = true
				p.end(&out)
				return out
			}
		}
	default:
		p.afterPlay(&out)
		return out
	}
	// A bonus was earned: play it if any piece can.
	if !p.HasLegalMove() {
		out.BonusLost = int(p.phase)
		p.afterPlay(&out)
	}
	return out
}

// Settle resolves a die or bonus phase that has no legal move, as a throw
// or a bonus that cannot be played is resolved in play (lost; the turn goes
// on or passes). A set-up position or a judge's correction may be such a
// position (NOTATION.md accepts it); play cannot go on from it unsettled.
func (p *Position) Settle() Outcome {
	out := noOutcome()
	for (p.phase.IsDie() || p.phase.IsBonus()) && !p.HasLegalMove() {
		if p.phase.IsBonus() {
			out.BonusLost = int(p.phase)
		} else {
			out.Lost = true
		}
		p.afterPlay(&out)
	}
	return out
}

// afterPlay ends a play whose throw and bonuses are done: the same player
// throws again after a 6 unless finished, else the turn passes.
func (p *Position) afterPlay(out *Outcome) {
	if p.sixes > 0 && !p.Finished(p.turn) {
		p.phase = PhaseThrow
		return
	}
	p.passTurn(out)
}

// passTurn gives the turn to the next unfinished player to the right,
// ending the game at the end of a round when the pairs have different
// numbers of finished players (§9).
func (p *Position) passTurn(out *Outcome) {
	c := p.turn
	roundEnd := p.starter.Prev()
	for seats := 0; ; seats++ {
		// Nobody left to play (every player finished, a position no game
		// reaches but a valid one) also ends the game.
		if seats == NumColours || c == roundEnd && p.FinishedInPair(PairYR) != p.FinishedInPair(PairBG) {
			p.end(out)
			return
		}
		c = c.Next()
		if !p.Finished(c) {
			break
		}
	}
	p.turn, p.phase, p.sixes, p.last = c, PhaseThrow, 0, NoSite
	out.TurnPassed = true
}

// end ends the game; the side to move stays the colour that played last.
func (p *Position) end(out *Outcome) {
	p.phase, p.sixes, p.last = PhaseEnd, 0, NoSite
	out.GameOver = true
}
