package bots_test

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
)

// midGame is engine's benchmark position: pieces of every colour out, a
// shared safe square, a partner barrier, pieces in columns and goals.
const midGame = "5:Y,12:B,20:RY,29:GY,40:R,46:B,60:G,Y3:Y,B5:B,RG:R,GG:G Y 4 0 - Y"

// BenchmarkPlayout measures one greedy playout from the middle of a game
// to its end, the unit of the mc bot's and the win chance's budgets.
func BenchmarkPlayout(b *testing.B) {
	pos := mustPPN(b, midGame)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		bots.Playout(pos, rng)
	}
	reportCPU(b, cpu)
}

// BenchmarkPlayoutFromStart measures a greedy playout of a whole game.
func BenchmarkPlayoutFromStart(b *testing.B) {
	pos := engine.NewPosition(engine.Yellow)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		bots.Playout(pos, rng)
	}
	reportCPU(b, cpu)
}

// BenchmarkWinChance20000 is `parchis winprob -n 20000` on a mid-game
// position (the bar: 1.5 s on one core).
func BenchmarkWinChance20000(b *testing.B) {
	pos := mustPPN(b, midGame)
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		bots.WinChance(pos, 20000, 1)
	}
	reportCPU(b, cpu)
}

// BenchmarkWinChance2000 is the table's estimate after a move (the
// configuration's default win_chance.playouts), on one core: in the middle
// of a game, and at its start, where the playouts are longest. The Pi
// figure (2,000 playouts within 1 s) is estimated from these (docs/bots.md).
func BenchmarkWinChance2000(b *testing.B) {
	for _, bc := range []struct{ name, ppn string }{
		{"mid", midGame},
		{"start", "- Y throw 0 - Y"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			pos := mustPPN(b, bc.ppn)
			b.ReportAllocs()
			cpu := cpuTime(b)
			for b.Loop() {
				bots.WinChance(pos, 2000, 1)
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkGreedyChoose measures one choice of the greedy bot.
func BenchmarkGreedyChoose(b *testing.B) {
	pos := mustPPN(b, midGame)
	b.ReportAllocs()
	for b.Loop() {
		bots.Greedy{}.Choose(&pos)
	}
}

// BenchmarkMCChoose measures one choice of the mc bot at its default
// budget (about 200 ms of one core over a game's choices), in the middle
// of a game.
func BenchmarkMCChoose(b *testing.B) {
	pos := mustPPN(b, midGame)
	bot := bots.NewMC(bots.DefaultPlayouts, 1)
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		bot.Choose(&pos)
	}
	reportCPU(b, cpu)
}

// BenchmarkMCChooseOpening measures one choice of the mc bot at its
// default budget early in a game, where playouts are longest.
func BenchmarkMCChooseOpening(b *testing.B) {
	pos := mustPPN(b, "5:Y,9:Y,22:B,39:R,56:G Y 3 0 - Y")
	bot := bots.NewMC(bots.DefaultPlayouts, 1)
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		bot.Choose(&pos)
	}
	reportCPU(b, cpu)
}

// cpuTime returns the process's CPU time so far. On a machine shared with
// other work, a benchmark's wall time per op overstates what one core
// needs; the CPU time per op (cpu-ns/op) does not, as long as the
// benchmark runs on one thread (-cpu 1).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

func mustPPN(t testing.TB, s string) engine.Position {
	t.Helper()
	p, err := engine.ParsePPN(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkLive_Post measures what the win chance costs the table's
// goroutine after a move: handing the position to the estimator (which
// runs on its own goroutine, here busy with an earlier one).
func BenchmarkLive_Post(b *testing.B) {
	pos := mustPPN(b, midGame)
	l := bots.NewLive(1_000_000_000, 1, 1)
	b.ReportAllocs()
	var seq uint64
	for b.Loop() {
		seq++
		l.Post(pos, seq)
	}
}

// countingBot counts the choices its bot makes with more than one legal
// move.
type countingBot struct {
	bots.Bot
	n *int
}

func (c countingBot) Choose(pos *engine.Position) engine.Move {
	var ml engine.MoveList
	pos.LegalMoves(&ml)
	if ml.Len() > 1 {
		*c.n++
	}
	return c.Bot.Choose(pos)
}

// BenchmarkMCDecisionInGame measures the mean CPU time of the mc bot's
// real choices (those with more than one legal move) over whole games
// against greedy, at 2,000 playouts a choice: cpu-ns/choice says what a
// budget costs, to compare with 200 ms a move (DefaultPlayouts). Run it
// with -cpu 1.
func BenchmarkMCDecisionInGame(b *testing.B) {
	choices := 0
	cpu := cpuTime(b)
	for i := 0; b.Loop(); i++ {
		var ps [engine.NumColours]bots.Bot
		for c := range ps {
			if engine.Colour(c).Pair() == engine.PairYR {
				ps[c] = countingBot{bots.NewMC(2000, uint64(i*4+c)), &choices}
			} else {
				ps[c] = bots.Greedy{}
			}
		}
		if _, err := bots.Game(ps, engine.NewPosition(engine.Colour(i%4)), bots.NewDice(uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(choices), "cpu-ns/choice")
	b.ReportMetric(float64(choices)/float64(b.N), "choices/game")
}
