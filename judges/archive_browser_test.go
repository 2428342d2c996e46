package judges

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// TestBrowser_Archive: the dashboard keeps every result it receives in the
// club's archive folder, beside a record a club copied there from a
// table. The archive page lists the three games, filters them by player,
// date and table, shows one with the board stepper, and downloads one
// record and a zip of those listed.
func TestBrowser_Archive(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := shotsDir(t)
	dir := t.TempDir()
	// A record from a table's games/ folder, copied by the club.
	rec, g := playedGame(t, 5, "2026.04.12", "9", [4]string{"Rosa", "Sara", "Tomás", "Uxía"})
	if err := os.WriteFile(filepath.Join(dir, "2026-04-12_9_1.txt"), rec, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "club", []string{"1", "2"})
	srv := startDashboard(t, ctx, br.url, Opts{Archive: dir})
	t1 := startTable(t, ctx, br.url, "club", "1", srv.JudgeKeys(), 61)
	t2 := startTable(t, ctx, br.url, "club", "2", srv.JudgeKeys(), 62)
	t2.newGame(map[string]string{"Y": "Xoán", "B": "Yago", "R": "Zoe", "G": "Álex"}, engine.Yellow)
	t1.playToEnd()
	t2.playToEnd()
	waitFor(t, "both results in the archive", 20*time.Second, func() bool {
		f, _ := filepath.Glob(filepath.Join(dir, "2026-05-01_*.json"))
		return len(f) == 2
	})
	// A judge certifies table 1's: the archive keeps the verdict.
	tb, ok := srv.Store().Get("club/1")
	if !ok || tb.Result == nil {
		t.Fatal("table 1's result is not on the dashboard")
	}
	if err := srv.act(ctx, srv.judges[DemoJudgeName], tb, broadcast.CmdCertify, url.Values{"record": {tb.Result.RecordSHA256}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the verdict in the archive", 10*time.Second, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "2026-05-01_1_1.json"))
		return bytes.Contains(b, []byte(`"certified"`))
	})

	base := "http://" + srv.Addr().String()
	b := browsertest.Start(t, ctx, base+"/archive")
	rows := func() []string {
		var r []string
		if err := b.Eval(ctx, `Array.from(document.querySelectorAll("#archive tbody tr[data-name]")).map(function (r) { return r.getAttribute("data-name"); })`, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	b.WaitJS(ctx, t, `document.querySelectorAll("#archive tbody tr[data-name]").length === 3`, browsertest.WaitLong)
	if got := rows(); !slices.Equal(got, []string{"2026-05-01_2_1.txt", "2026-05-01_1_1.txt", "2026-04-12_9_1.txt"}) {
		t.Errorf("archive lists %v", got)
	}
	var verdict string
	_ = b.Eval(ctx, `document.querySelector('#archive tr[data-name="2026-05-01_1_1.txt"] .verdict').textContent`, &verdict)
	if verdict != "Certificado" {
		t.Errorf("table 1's verdict shows %q", verdict)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "archive-laptop.png"))
	for _, c := range []struct{ field, value, want string }{
		{"f-player", "xoán", "2026-05-01_2_1.txt"},
		{"f-date", "2026-04", "2026-04-12_9_1.txt"},
		{"f-table", "1", "2026-05-01_1_1.txt"},
	} {
		b.Navigate(ctx, t, base+"/archive")
		_ = b.Eval(ctx, `document.getElementById("`+c.field+`").value = "`+c.value+`"; document.getElementById("archive-filters").submit(); true`, nil)
		b.WaitJS(ctx, t, `location.search.indexOf("`+strings.TrimPrefix(c.field, "f-")+`=") >= 0 && document.readyState === "complete"`, browsertest.WaitLong)
		if got := rows(); !slices.Equal(got, []string{c.want}) {
			t.Errorf("filtered by %s %q: %v, want %s", c.field, c.value, got, c.want)
		}
	}
	b.SetViewport(ctx, t, 390, 844, true)
	b.Screenshot(ctx, t, filepath.Join(shots, "archive-phone.png"))
	b.SetViewport(ctx, t, 1280, 1000, false)

	// One game, with the stepper: a click on a line shows the board after
	// it, as the engine replays the record.
	b.Navigate(ctx, t, base+"/archive/g/2026-04-12_9_1.txt")
	b.WaitJS(ctx, t, `document.querySelectorAll("#history li.ev").length > 20`, browsertest.WaitLong)
	var positions []engine.Position
	var lines []int
	if _, err := engine.ReadRecordFunc(bytes.NewReader(rec), func(line int, _ string, pos engine.Position) {
		lines = append(lines, line)
		positions = append(positions, pos)
	}); err != nil {
		t.Fatal(err)
	}
	i := len(lines) / 3
	_ = b.Eval(ctx, `document.querySelector('#history li.ev[data-seq="`+itoa(lines[i])+`"]').click(); true`, nil)
	b.WaitJS(ctx, t, `document.body.classList.contains("stepping")`, browsertest.WaitLong)
	var got []string
	if err := b.Eval(ctx, boardPieces, &got); err != nil {
		t.Fatal(err)
	}
	if want := piecesOf(t, positions[i].String()); !slices.Equal(got, want) {
		t.Errorf("board after line %d:\n%v\nwant\n%v", lines[i], got, want)
	}
	_ = b.Eval(ctx, `document.getElementById("step-fwd").click(); true`, nil)
	_ = b.Eval(ctx, boardPieces, &got)
	if want := piecesOf(t, positions[i+1].String()); !slices.Equal(got, want) {
		t.Errorf("board after ▶ (line %d):\n%v\nwant\n%v", lines[i+1], got, want)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "archive-game.png"))
	if g.Pos.String() != positions[len(positions)-1].String() {
		t.Fatalf("replay ends at %s, the game at %s", positions[len(positions)-1].String(), g.Pos.String())
	}

	// Downloads: one record, and a zip of the games of May.
	var text string
	if err := b.Eval(ctx, `(function () { var x = new XMLHttpRequest(); x.open("GET", document.getElementById("download").getAttribute("href"), false); x.send(); return x.responseText; })()`, &text); err != nil || text != string(rec) {
		t.Errorf("downloaded record differs (err %v)", err)
	}
	resp, err := http.Get(base + "/archive.zip?date=2026-05")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("zip: %v", err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	slices.Sort(names)
	if want := []string{"2026-05-01_1_1.json", "2026-05-01_1_1.txt", "2026-05-01_2_1.json", "2026-05-01_2_1.txt"}; !slices.Equal(names, want) {
		t.Errorf("zip holds %v, want %v", names, want)
	}
}

// playedGame plays a random game to its end with the given header and
// returns its record.
func playedGame(t *testing.T, seed uint64, date, table string, players [4]string) ([]byte, *engine.Game) {
	t.Helper()
	g := engine.NewGame(engine.NewPosition(engine.Yellow), engine.Tag{Key: "Event", Value: "club"}, engine.Tag{Key: "Date", Value: date},
		engine.Tag{Key: "Table", Value: table}, engine.Tag{Key: "Yellow", Value: players[0]}, engine.Tag{Key: "Blue", Value: players[1]},
		engine.Tag{Key: "Red", Value: players[2]}, engine.Tag{Key: "Green", Value: players[3]})
	st := &simTable{g: g}
	_ = st
	var ml engine.MoveList
	n := seed
	for g.Pos.Phase() != engine.PhaseEnd {
		if g.Pos.Phase() == engine.PhaseThrow {
			n = n*6364136223846793005 + 1442695040888963407
			if _, err := g.Throw(int(n>>33%6) + 1); err != nil {
				t.Fatal(err)
			}
			continue
		}
		g.Pos.LegalMoves(&ml)
		n = n*6364136223846793005 + 1442695040888963407
		if _, err := g.Play(ml.At(int(n >> 33 % uint64(ml.Len())))); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	_, _ = g.WriteTo(&b)
	return b.Bytes(), g
}
