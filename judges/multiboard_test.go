package judges

import (
	"testing"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

// fullTable is a table with its feed at the history's bound.
func fullTable(b testing.TB) *Table {
	st := NewStore(DefaultHistory)
	pos := engine.NewPosition(engine.Yellow).String()
	for seq := uint64(1); seq <= DefaultHistory; seq++ {
		e := referee.Event{Seq: seq, Type: referee.EventMove, Colour: "Y", Throw: "5", Move: "YH-5", Position: "5:Y B throw 0 - Y"}
		if seq == 1 {
			e = referee.Event{Seq: 1, Type: referee.EventStart, Colour: "Y", Position: pos}
		}
		if _, _, err := st.Apply("parchis/v1/liga/7/events", mustJSON(b, e)); err != nil {
			b.Fatal(err)
		}
	}
	t, _ := st.Get("liga/7")
	return t
}

// The multiboard's order: a result to certify, then what needs checking,
// then offline tables, then live games, then finished ones.
func TestNeedOf(t *testing.T) {
	live := fullTable(t)
	pending := fullTable(t)
	pending.Result = &broadcast.Result{Result: "YR"}
	mism := fullTable(t)
	mism.State = &broadcast.State{Seq: mism.PositionSeq, Mismatch: []string{"12"}}
	repeated := fullTable(t)
	repeated.Feed = append(repeated.Feed, Entry{Event: referee.Event{Type: referee.EventInfraction}}, Entry{Event: referee.Event{Type: referee.EventInfraction}})
	off := fullTable(t)
	off.Status = "offline"
	done := fullTable(t)
	done.Position = "YG:YYYY,BG:B,RG:RRRR R end 0 - Y"
	done.Result = &broadcast.Result{Result: "YR", Certification: &broadcast.Certification{Verdict: broadcast.VerdictCertified}}
	// A judged result stays retained while the next game is played.
	next := fullTable(t)
	next.Result = done.Result
	for _, c := range []struct {
		t    *Table
		want int
	}{{pending, NeedCertify}, {mism, NeedCheck}, {repeated, NeedCheck}, {off, NeedOffline}, {live, NeedLive}, {next, NeedLive}, {done, NeedFinished}} {
		if got, why := needOf(LangES, c.t); got != c.want {
			t.Errorf("need %d (%s), want %d", got, why, c.want)
		}
	}
	tile := viewTile(LangES, live, "2", "")
	if tile.Pos == "" || tile.LastSite != "5" || tile.Round != "2" || len(tileEvent(tile)) > 1024 {
		t.Errorf("tile %+v (%d bytes)", tile, len(tileEvent(tile)))
	}
}

// BenchmarkTileEvent is the multiboard's work for one event of one table
// with a full history: its tile, as a server-sent event.
func BenchmarkTileEvent(b *testing.B) {
	t := fullTable(b)
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(tileEvent(viewTile(LangES, t, "3", "Los Dados – Barrera")))
	}
	b.ReportMetric(float64(n), "bytes/event")
}

// BenchmarkCardEvent is the same change rendered as a table's card, the
// stream of a table's page.
func BenchmarkCardEvent(b *testing.B) {
	srv, err := New(Opts{Logger: quietLog()})
	if err != nil {
		b.Fatal(err)
	}
	for seq := uint64(1); seq <= DefaultHistory; seq++ {
		e := referee.Event{Seq: seq, Type: referee.EventMove, Colour: "Y", Throw: "5", Move: "YH-5", Position: "5:Y B throw 0 - Y"}
		_, _, _ = srv.store.Apply("parchis/v1/liga/7/events", mustJSON(b, e))
	}
	b.ReportAllocs()
	var n int
	for b.Loop() {
		n = len(srv.renderChange(Change{ID: "liga/7", Seq: DefaultHistory}, LangES, ""))
	}
	b.ReportMetric(float64(n), "bytes/event")
}
