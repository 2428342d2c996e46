package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/tablescript"
	"github.com/parchis-table/parchis/termboard"
)

// tourScene is one situation the tour stages: a judge sets the position
// (the first scene sets it up), then the players act.
type tourScene struct {
	pos string
	// steps are table-script lines, each after its time in seconds from
	// the scene's start: "1 lift 20".
	steps []string
}

// tourScenes stage every infraction of the rules once, a rethrow, both
// owed actions (a killed piece and the piece of a third 6 to take home),
// and the end of a game. After each fault the pieces are put right and a
// legal move is played, as players do when the table flags them.
var tourScenes = []tourScene{
	// A die on its edge, then ficha tocada es ficha jugada: the piece on
	// 20 is lifted and put back, the one on 30 is moved.
	{"20:Y,30:Y Y throw 0 - Y", []string{
		"1 throw edge", "3 throw 4", "4 lift 20", "5 place 20 Y", "6 lift 30", "7 place 34 Y", "8.5 timer",
		"10 lift 34", "11 place 30 Y", "12 lift 20", "13 place 24 Y"}},
	// A throw while the 4 is still to be played.
	{"20:Y Y 4 0 - Y", []string{"1 throw 2", "3 lift 20", "4 place 24 Y"}},
	// A piece counted one square too far.
	{"20:Y Y 4 0 - Y", []string{"1 lift 20", "2 place 25 Y", "3.5 timer", "5 lift 25", "6 place 24 Y"}},
	// A piece moved backwards.
	{"20:Y Y 4 0 - Y", []string{"1 lift 20", "2 place 16 Y", "3.5 timer", "5 lift 16", "6 place 24 Y"}},
	// The partner's piece moved, then an opponent's.
	{"20:Y,30:R,45:B Y 3 0 - Y", []string{
		"1 lift 30 R", "2 place 33 R", "3.5 timer", "5 lift 33 R", "6 place 30 R",
		"7 lift 45 B", "8 place 48 B", "9.5 timer", "11 lift 48 B", "12 place 45 B", "13 lift 20 Y", "14 place 23 Y"}},
	// A piece through a barrier.
	{"20:Y,23:BB,40:Y Y 4 0 - Y", []string{"1 lift 20", "2 place 24 Y", "3.5 timer", "5 lift 24", "6 place 20 Y", "7 lift 40", "8 place 44 Y"}},
	// A 5 with a piece at home, played with another piece.
	{"20:Y Y 5 0 - Y", []string{"1 lift 20", "2 place 25 Y", "3.5 timer", "5 lift 25", "6 place 20 Y", "7 lift YH", "8 place 5 Y"}},
	// A 6 with an own barrier, played with another piece.
	{"20:YY,40:Y,YG:Y Y 6 1 - Y", []string{"1 lift 40", "2 place 47 Y", "3.5 timer", "5 lift 47", "6 place 40 Y", "7 lift 20", "8 place 27 Y"}},
	// A piece moved before the throw.
	{"20:Y Y throw 0 - Y", []string{"1 lift 20", "2 place 23 Y", "3.5 timer", "5 lift 23", "6 place 20 Y"}},
	// A kill: the victim is owed home, and a throw before the bonus 20.
	{"7:R,10:B,R3:R R throw 0 - Y", []string{
		"1 throw 3", "2 lift 7", "3 place 10 R", "5 lift 10 B", "6 place BH B", "7 throw 4", "9 lift 10 R", "10 place 30 R"}},
	// A kill whose victim stays on the board at the next throw.
	{"7:R,10:B,R3:R R throw 0 - Y", []string{
		"1 throw 3", "2 lift 7", "3 place 10 R", "4 lift 10 R", "5 place 30 R", "6 throw 2", "8 lift 10 B", "9 place BH B", "10 throw 2"}},
	// Three 6s: the piece moved last is owed home, and a throw before it
	// is there.
	{"20:Y,30:Y Y throw 0 - Y", []string{
		"1 throw 6", "2 lift 20", "3 place 26 Y", "4 throw 6", "5 lift 26", "6 place 32 Y", "7 throw 6",
		"9 throw 2", "11 lift 32", "12 place YH Y"}},
	// Yellow's last piece reaches the goal, Red having finished: Yellow and
	// Red win once the round is completed.
	{"30:B,40:G,Y7:Y,YG:YYY,RG:RRRR Y throw 0 - Y", []string{
		"1 throw 1", "2 lift Y7", "3 place YG Y", "4 throw 3", "5 lift 30 B", "6 place 33 B", "7 throw 2", "8 lift 40 G", "9 place 42 G"}},
}

// tourPause is how long the tour stays on what it explains, at speed 1.
const tourPause = 8 * time.Second

// tourEnding is what the tour says at its end: how to certify the result.
func tourEnding(cfg *config.Daemon, lang termboard.Lang) []string {
	lines := []string{lang.Pick("The tour is over: Yellow and Red have won.", "Fin de la visita: han ganado Amarillo y Rojo.")}
	if cfg.Dashboard.Enabled {
		login := ""
		if cfg.Dashboard.Judges == "" {
			login = lang.Pick(" (user juez, password juez)", " (usuario juez, contraseña juez)")
		}
		lines = append(lines, lang.Pick("Certify the result as a judge: open ", "Certifica el resultado como juez: abre ")+dashboardURL(cfg)+login+".")
	}
	return append(lines, lang.Pick("Ctrl-C stops; parchisd sim without -tour plays whole games.", "Ctrl-C para; parchisd sim sin -tour juega partidas enteras."))
}

// tourJudge is the judge who sets each scene.
const tourJudge = "tour"

// tourScript returns the tour as one table script.
func tourScript() (string, error) {
	var b strings.Builder
	b.WriteString("players Ana Bea Carla Dani\n")
	sec := func(t float64) string { return strconv.FormatFloat(t, 'f', -1, 64) }
	t := 0.0
	for i, sc := range tourScenes {
		pos, err := engine.ParsePPN(sc.pos)
		if err != nil {
			return "", fmt.Errorf("tour scene %d: %w", i+1, err)
		}
		if i == 0 {
			fmt.Fprintf(&b, "setup %s\n", sc.pos)
		} else {
			// The judge sets the scene, and the players put the pieces
			// as it says.
			t += 2
			snap := board.Expected(&pos)
			fmt.Fprintf(&b, "at %s judge set %s by %s\n", sec(t), sc.pos, tourJudge)
			fmt.Fprintf(&b, "at %s board %s\n", sec(t+1), tablescript.FormatBoard(&snap))
			t++
		}
		last := 0.0
		for _, st := range sc.steps {
			at, rest, _ := strings.Cut(st, " ")
			s, err := strconv.ParseFloat(at, 64)
			if err != nil {
				return "", fmt.Errorf("tour scene %d: %q: %w", i+1, st, err)
			}
			fmt.Fprintf(&b, "at %s %s\n", sec(t+s), rest)
			last = s
		}
		t += last
	}
	return b.String(), nil
}

// tourPauses reports whether the tour stops after e to explain it.
func tourPauses(e referee.Event) bool {
	switch e.Type {
	case referee.EventInfraction, referee.EventRethrow, referee.EventThirdSix, referee.EventResult:
		return true
	case referee.EventMove:
		return strings.Contains(e.Move, "x")
	}
	return false
}

// tourer plays the tour's script on the daemon's table at the pace of
// real time (times speed), pausing after each thing worth explaining.
type tourer struct {
	d      *daemon
	scr    *screen
	lang   termboard.Lang
	speed  float64
	pause  time.Duration
	ending []string
	// lastAt is the time of the last input handed to the table.
	lastAt time.Time
}

// play runs the tour until its end or ctx's; after the end it serves the
// judges' commands (to certify the result) until ctx ends.
func (t *tourer) play(ctx context.Context) error {
	text, err := tourScript()
	if err != nil {
		return err
	}
	sc, err := tablescript.ReadAll(strings.NewReader(text))
	if err != nil {
		return fmt.Errorf("tour: %w", err)
	}
	// The runner turns the script's lines into inputs, as it does for a
	// script; its referee follows the same inputs, so that a lift without
	// a colour means what it means on the table.
	run := tablescript.NewRunner(referee.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	start := time.Now()
	// Pauses move the table's clock on, so that its inputs keep the
	// wall time.
	var paused time.Duration
	for i, l := range sc.Lines {
		if l.Err != nil {
			return fmt.Errorf("tour: line %d: %w", l.N, l.Err)
		}
		if !l.OK {
			continue
		}
		run.SetAhead(sc.Ahead(i))
		in, ok, err := run.Input(l.Step)
		if err != nil {
			return fmt.Errorf("tour: line %d: %w", l.N, err)
		}
		if !ok {
			continue
		}
		scriptAt := in.At.Sub(tablescript.Epoch)
		if err := t.wait(ctx, start.Add(time.Duration(float64(scriptAt)/t.speed)+paused)); err != nil {
			return nil
		}
		inputs := []referee.Input{in}
		switch in.Kind {
		case referee.InputStart, referee.InputSetup, referee.InputOpening:
			// The pieces are placed as the game starts.
			inputs = append(inputs, referee.Input{At: in.At, Kind: referee.InputBoard, Board: *run.Board()})
		}
		for _, in := range inputs {
			run.Referee.Handle(in)
			in.At = start.Add(scriptAt + paused)
			t.lastAt = in.At
			events, err := t.d.table.Handle(in, "tour line "+strconv.Itoa(l.N))
			if err != nil {
				return err
			}
			for _, e := range events {
				if e.Type == referee.EventCorrection {
					t.say(t.lang.Pick("A judge sets up the next situation; the players put the pieces as it says.",
						"Un juez prepara la siguiente situación; los jugadores colocan las fichas."))
				}
				if !tourPauses(e) {
					continue
				}
				t.say(t.lang.Pick("The table saw: ", "La mesa vio: ")+t.lang.EventLine(e),
					t.lang.Pick("The lights ask: ", "Las luces piden: ")+t.lang.Ask(e))
				p0 := time.Now()
				if err := t.wait(ctx, p0.Add(t.pause)); err != nil {
					return nil
				}
				paused += time.Since(p0)
				t.say()
			}
		}
	}
	t.say(t.ending...)
	for t.wait(ctx, time.Now().Add(time.Hour)) == nil {
	}
	return nil
}

// wait serves the judges' commands, and tries again every second what a
// full disk held back, until the time comes; an error when ctx ends
// first.
func (t *tourer) wait(ctx context.Context, until time.Time) error {
	timer := time.NewTimer(time.Until(until))
	defer timer.Stop()
	retry := time.NewTicker(time.Second)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-retry.C:
			t.d.retry()
		case req := <-t.d.commands():
			// Faster than real time, the tour's inputs are ahead of the
			// clock: a judge's command never goes back before them.
			at := time.Now()
			if at.Before(t.lastAt) {
				at = t.lastAt
			}
			t.d.command(req, at)
		case <-timer.C:
			return nil
		}
	}
}

func (t *tourer) say(lines ...string) {
	if err := t.scr.say(lines); err != nil {
		t.d.log.Warn("tour: screen", "err", err)
	}
}
