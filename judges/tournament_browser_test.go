package judges

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/internal/browsertest"
	"github.com/parchis-table/parchis/tournament"
)

// ligaResults are the twelve games of tournament/testdata/liga.yaml and
// ligaStandings their standings computed by hand; the tournament package's
// tests hold the same (LigaResults, LigaStandings) with the reasoning.
var ligaResults = []tournament.Result{
	{Round: 1, Table: "1", Winner: "YR", GoalYR: 8, GoalBG: 3}, {Round: 1, Table: "2", Winner: "BG", GoalYR: 5, GoalBG: 8},
	{Round: 1, Table: "3", Winner: "YR", GoalYR: 8, GoalBG: 0}, {Round: 1, Table: "4", Winner: "BG", GoalYR: 2, GoalBG: 8},
	{Round: 2, Table: "1", Winner: "BG", GoalYR: 6, GoalBG: 8}, {Round: 2, Table: "2", Winner: "YR", GoalYR: 8, GoalBG: 4},
	{Round: 2, Table: "3", Winner: "YR", GoalYR: 8, GoalBG: 1}, {Round: 2, Table: "4", Winner: "YR", GoalYR: 8, GoalBG: 7},
	{Round: 3, Table: "1", Winner: "BG", GoalYR: 2, GoalBG: 8}, {Round: 3, Table: "2", Winner: "BG", GoalYR: 3, GoalBG: 8},
	{Round: 3, Table: "3", Winner: "YR", GoalYR: 8, GoalBG: 4}, {Round: 3, Table: "4", Winner: "YR", GoalYR: 8, GoalBG: 5},
}

// ligaStandings: rank, pair, points, head to head, pieces in goal.
var ligaStandings = []string{
	"1 P5 3 0 24", "2 P4 2 1 20", "3 P3 2 0 21", "4 P6 2 0 16",
	"5 P1 1 1 16", "6 P8 1 0 20", "7 P2 1 0 14", "8 P7 0 0 7",
}

// finalPosition is a game's last position with the given result: the
// winners' eight pieces in their goals, the losers' k.
func finalPosition(r tournament.Result) string {
	goal := func(c string, n int) string { return strings.Repeat(c, n) }
	var first, second string
	var parts []string
	add := func(site, cols string) {
		if cols != "" {
			parts = append(parts, site+":"+cols)
		}
	}
	if r.Winner == "YR" {
		k := r.GoalBG
		first, second = goal("B", min(k, 4)), goal("G", max(k-4, 0))
		add("YG", "YYYY")
		add("BG", first)
		add("RG", "RRRR")
		add("GG", second)
		return strings.Join(parts, ",") + " R end 0 - Y"
	}
	k := r.GoalYR
	first, second = goal("Y", min(k, 4)), goal("R", max(k-4, 0))
	add("YG", first)
	add("BG", "BBBB")
	add("RG", second)
	add("GG", "GGGG")
	return strings.Join(parts, ",") + " G end 0 - Y"
}

// TestBrowser_Tournament: eight pairs over three rounds on four simulated
// tables. A judge starts each round from the standings page — the tables
// get the players' names and the round with new-game — the games end,
// the judge certifies each result on its table's page, and the public
// standings, the retained standings on the feed and the CSV export match
// the hand computation. Screenshots of the standings at a laptop's and a
// phone's width and of the printable page.
func TestBrowser_Tournament(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := shotsDir(t)
	f, err := os.Open("../tournament/testdata/liga.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := tournament.Parse(f, "liga.yaml")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tables := []string{"1", "2", "3", "4"}
	br := startBroker(t, ctx, "liga", tables)
	srv := startDashboard(t, ctx, br.url, Opts{Tournament: ev})
	sims := map[string]*simTable{}
	for i, tb := range tables {
		sims[tb] = startTable(t, ctx, br.url, "liga", tb, srv.JudgeKeys(), uint64(50+i))
	}
	waitFor(t, "the tables on the dashboard", 10*time.Second, func() bool { return len(srv.Store().All()) == 4 })
	base := "http://" + srv.Addr().String()

	b := browsertest.Start(t, ctx, base+"/login?next=/standings")
	signInJudge(ctx, t, b)

	for round := 1; round <= 3; round++ {
		rs := strconv.Itoa(round)
		b.WaitJS(ctx, t, `location.pathname === "/standings" && document.getElementById("start-round") && document.querySelector('input[name="round"]').value === "`+rs+`"`, browsertest.WaitLong)
		_ = b.Eval(ctx, `document.getElementById("start-round").click(); true`, nil)
		b.WaitJS(ctx, t, `document.querySelector("#flash.ok")`, browsertest.WaitLong)
		// Every table has the round's players and the round.
		for _, g := range ev.Rounds[round-1] {
			st := sims[g.Table]
			want := ev.Players(g)
			waitFor(t, "the players at table "+g.Table, 5*time.Second, func() bool {
				st.mu.Lock()
				defer st.mu.Unlock()
				return st.round == rs && st.players["Y"] == want["Y"] && st.players["B"] == want["B"] && st.players["R"] == want["R"] && st.players["G"] == want["G"]
			})
		}
		// The multiboard names each table's round and pairs, and filters
		// by round.
		if round == 2 {
			b.Navigate(ctx, t, base+"/")
			b.WaitJS(ctx, t, `document.getElementById("tile-liga/1").getAttribute("data-round") === "2" && document.querySelector('#round-filter option[value="2"]')`, browsertest.WaitLong)
			var pairs string
			_ = b.Eval(ctx, `document.querySelector('#tile-liga\\/3 .pairs').textContent`, &pairs)
			if pairs != "La Meta – Ficha Tocada" {
				t.Errorf("table 3 in round 2 shows the pairs %q", pairs)
			}
			var needs []string
			_ = b.Eval(ctx, `Array.from(document.querySelectorAll("#tables .tile")).map(function (t) { return t.getAttribute("data-need"); })`, &needs)
			if strings.Join(needs, " ") != "3 3 3 3" {
				t.Errorf("round 2 just started: tiles' needs %v, want four live games", needs)
			}
			b.Screenshot(ctx, t, filepath.Join(shots, "tournament-multiboard.png"))
		}
		// The games end; the judge certifies each result on its page.
		for _, r := range ligaResults {
			if r.Round != round {
				continue
			}
			st := sims[r.Table]
			st.endWith(finalPosition(r))
			waitFor(t, "the result of table "+r.Table, 10*time.Second, func() bool {
				tb, ok := srv.Store().Get("liga/" + r.Table)
				return ok && tb.Pending()
			})
			if tb, _ := srv.Store().Get("liga/" + r.Table); tb.ResultProblem != "" {
				t.Fatalf("table %s: %s", r.Table, tb.ResultProblem)
			}
			b.Navigate(ctx, t, base+"/t/liga/"+r.Table)
			b.WaitJS(ctx, t, `document.getElementById("certify") && document.body.getAttribute("data-stream") === "open"`, browsertest.WaitLong)
			_ = b.Eval(ctx, `document.getElementById("certify").click(); true`, nil)
			b.WaitJS(ctx, t, `document.getElementById("certify-box").open`, browsertest.WaitLong)
			_ = b.Eval(ctx, `document.getElementById("certify-confirm").click(); true`, nil)
			b.WaitJS(ctx, t, `document.getElementById("flash")`, browsertest.WaitLong)
			var flash string
			_ = b.Eval(ctx, `document.getElementById("flash").className + ": " + document.getElementById("flash").textContent`, &flash)
			if !strings.HasPrefix(flash, "flash ok") {
				t.Fatalf("table %s, round %d: certifying: %s", r.Table, round, flash)
			}
			b.WaitJS(ctx, t, `document.querySelector("#result .v-certified")`, browsertest.WaitLong)
		}
		waitFor(t, "round "+rs+" in the standings", 10*time.Second, func() bool {
			srv.tour.mu.Lock()
			defer srv.tour.mu.Unlock()
			return len(srv.tour.results) == 4*round
		})
		b.Navigate(ctx, t, base+"/standings")
		if round == 1 {
			b.Screenshot(ctx, t, filepath.Join(shots, "standings-round1.png"))
		}
	}

	// The standings page after the last round.
	b.Navigate(ctx, t, base+"/standings")
	var lines []string
	if err := b.Eval(ctx, `Array.from(document.querySelectorAll("#standings tbody tr")).map(function (r) { var c = r.children;
		return [c[0].textContent, r.getAttribute("data-id"), c[7].textContent, c[8].textContent, c[9].textContent].join(" "); })`, &lines); err != nil {
		t.Fatal(err)
	}
	if strings.Join(lines, "\n") != strings.Join(ligaStandings, "\n") {
		t.Errorf("standings page:\n%s\nwant, by hand:\n%s", strings.Join(lines, "\n"), strings.Join(ligaStandings, "\n"))
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "standings-laptop.png"))
	b.SetViewport(ctx, t, 390, 844, true)
	b.Screenshot(ctx, t, filepath.Join(shots, "standings-phone.png"))
	b.SetViewport(ctx, t, 1280, 1000, false)

	// The CSV export.
	var csvText string
	if err := b.Eval(ctx, `(function () { var x = new XMLHttpRequest(); x.open("GET", "/standings.csv", false); x.send(); return x.responseText; })()`, &csvText); err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(csvText), "\n")
	if len(rows) != 9 || !strings.HasPrefix(rows[0], "puesto,pareja,") || !strings.HasPrefix(rows[1], "1,P5,La Meta,Club Lugo,Inés,Javi,3,3,0,3,0,24") ||
		!strings.HasPrefix(rows[8], "8,P7,") {
		t.Errorf("CSV:\n%s", csvText)
	}
	// After round 1 only.
	b.Navigate(ctx, t, base+"/standings?round=1")
	var first string
	_ = b.Eval(ctx, `document.querySelector("#standings tbody tr").getAttribute("data-id") + " " + document.querySelector("#standings tbody tr td.pts").textContent`, &first)
	if first != "P1 1" {
		t.Errorf("after round 1 the first line is %q, want P1 with 1 point (the best in goal of the winners is shared: all 8; P1 first by seeding)", first)
	}
	b.Navigate(ctx, t, base+"/standings/print")
	b.Screenshot(ctx, t, filepath.Join(shots, "standings-print.png"))

	// The retained standings on the feed.
	got := make(chan StandingsFeed, 1)
	o := mqtt.NewClientOptions().AddBroker(br.url).SetClientID("standings-reader")
	c := mqtt.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	defer c.Disconnect(100)
	c.Subscribe("parchis/v1/liga/standings", 1, func(_ mqtt.Client, m mqtt.Message) {
		var f StandingsFeed
		if err := json.Unmarshal(m.Payload(), &f); err != nil || !m.Retained() {
			t.Logf("standings message: retained %v, %v: %.200s", m.Retained(), err, m.Payload())
		} else {
			select {
			case got <- f:
			default:
			}
		}
	})
	select {
	case f := <-got:
		var fl []string
		for _, s := range f.Standings {
			fl = append(fl, strconv.Itoa(s.Rank)+" "+s.ID+" "+strconv.Itoa(s.Points)+" "+strconv.Itoa(s.HeadToHead)+" "+strconv.Itoa(s.Goal))
		}
		if strings.Join(fl, "\n") != strings.Join(ligaStandings, "\n") || f.Round != 3 || len(f.Games) != 12 {
			t.Errorf("retained standings (round %d, %d games):\n%s", f.Round, len(f.Games), strings.Join(fl, "\n"))
		}
	case <-time.After(10 * time.Second):
		t.Error("no retained standings on parchis/v1/liga/standings")
	}
}
