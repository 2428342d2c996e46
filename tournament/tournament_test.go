package tournament

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func load(t *testing.T, name string) *Event {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e, err := Parse(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// LigaResults are the twelve games of testdata/liga.yaml: the winner and
// each side's pieces in goal (the winners' 8).
var LigaResults = []Result{
	{1, "1", "YR", 8, 3}, {1, "2", "BG", 5, 8}, {1, "3", "YR", 8, 0}, {1, "4", "BG", 2, 8},
	{2, "1", "BG", 6, 8}, {2, "2", "YR", 8, 4}, {2, "3", "YR", 8, 1}, {2, "4", "YR", 8, 7},
	{3, "1", "BG", 2, 8}, {3, "2", "BG", 3, 8}, {3, "3", "YR", 8, 4}, {3, "4", "YR", 8, 5},
}

// LigaStandings is LigaResults ranked by hand:
//
//	P5 won all three: 3 points, 24 in goal.
//	P3, P4, P6: 2 points. Between them only P4–P3 (round 1, P4 won): P4
//	first on head to head although P3 has more in goal (21 to 20); then
//	P3 (21) before P6 (16) on pieces in goal.
//	P1, P2, P8: 1 point. Between them only P1–P2 (round 1, P1 won): P1
//	first although P8 has more in goal (20 to 16); then P8 (20) before P2
//	(14).
//	P7 lost all three: 0 points, 7 in goal.
var LigaStandings = []struct {
	Rank                              int
	ID                                string
	Played, Won, Lost, Points, H2H, G int
}{
	{1, "P5", 3, 3, 0, 3, 0, 24},
	{2, "P4", 3, 2, 1, 2, 1, 20},
	{3, "P3", 3, 2, 1, 2, 0, 21},
	{4, "P6", 3, 2, 1, 2, 0, 16},
	{5, "P1", 3, 1, 2, 1, 1, 16},
	{6, "P8", 3, 1, 2, 1, 0, 20},
	{7, "P2", 3, 1, 2, 1, 0, 14},
	{8, "P7", 3, 0, 3, 0, 0, 7},
}

func TestStandings_HandComputed(t *testing.T) {
	for _, file := range []string{"liga.yaml", "liga.csv"} {
		e := load(t, file)
		st, errs := e.Standings(LigaResults)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", file, errs)
		}
		for i, w := range LigaStandings {
			g := st[i]
			if g.Rank != w.Rank || g.ID != w.ID || g.Played != w.Played || g.Won != w.Won || g.Lost != w.Lost || g.Points != w.Points || g.HeadToHead != w.H2H || g.Goal != w.G {
				t.Errorf("%s: line %d: %+v, want %+v", file, i+1, g, w)
			}
		}
	}
}

// Both forms of the file describe the same tournament.
func TestParse_YAMLAndCSVAgree(t *testing.T) {
	y, c := load(t, "liga.yaml"), load(t, "liga.csv")
	if !reflect.DeepEqual(y, c) {
		t.Errorf("YAML %+v\nCSV %+v", y, c)
	}
	if g, ok := y.Game(2, "3"); !ok || g.YR != "P5" || g.BG != "P7" {
		t.Errorf("round 2 table 3: %+v", g)
	}
	if p := y.Players(Game{YR: "P1", BG: "P2"}); p["Y"] != "Ana" || p["R"] != "Bea" || p["B"] != "Carlos" || p["G"] != "Dora" {
		t.Errorf("players %v", p)
	}
}

func TestParse_Errors(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"x.yaml", "event: liga\npairs: [{id: A, players: [a, b]}]\n", "want at least 2"},
		{"x.yaml", "event: liga\npairs: [{id: A, players: [a, b]}, {id: A, players: [c, d]}]\nnum_rounds: 1\ndraw: swiss\ntables: [\"1\"]\n", "pair A given twice"},
		{"x.yaml", "event: liga\npairs: [{id: A, players: [a, b]}, {id: B, players: [c, \"\"]}]\nrounds: [[{table: \"1\", yr: A, bg: B}]]\n", "two names"},
		{"x.yaml", "event: liga\npairs: [{id: A, players: [a, b]}, {id: B, players: [c, d]}]\nrounds: [[{table: \"1\", yr: A, bg: C}]]\n", `no pair "C"`},
		{"x.yaml", "event: liga\npairs: [{id: A, players: [a, b]}, {id: B, players: [c, d]}]\nrounds: [[{table: \"1\", yr: A, bg: A}]]\n", "pair A plays twice"},
		{"x.yaml", "event: liga\nbogus: 1\n", "bogus"},
		{"x.yaml", "event: liga/x\npairs: [{id: A, players: [a, b]}, {id: B, players: [c, d]}]\nrounds: [[{table: \"1\", yr: A, bg: B}]]\n", "event"},
		{"x.yaml", "event: liga\npairs: [{id: A, players: [a, b]}, {id: B, players: [c, d]}]\nnum_rounds: 2\nrounds: [[{table: \"1\", yr: A, bg: B}]]\n", "give a draw"},
		{"x.csv", "event,liga\npair,name,club,p1,p2,r1\nA,,,a,b,1 YR\nB,,,c,d,1 XX\n", "TABLE YR or TABLE BG"},
		{"x.csv", "event,liga\npair,name,club,p1,p2,r1\nA,,,a,b,1 YR\nB,,,c,d,1 YR\n", "both play YR"},
		{"x.csv", "event,liga\nwho,knows\n", "want a setting"},
		{"x.csv", "event,liga\n", "no header row"},
	} {
		_, err := Parse(strings.NewReader(c.text), c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// A round robin in groups meets every pair of a group once, and a Swiss
// round pairs by points without a rematch while one is avoidable.
func TestDraw(t *testing.T) {
	e := load(t, "liga.yaml")
	e.Rounds, e.NumRounds, e.Draw, e.Groups, e.Tables = nil, 3, DrawRoundRobin, 2, []string{"1", "2", "3", "4"}
	met := map[string]int{}
	for r := 1; r <= 3; r++ {
		games, err := e.DrawRound(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != 4 {
			t.Fatalf("round %d: %d games", r, len(games))
		}
		if err := e.AddRound(games); err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			a, b := g.YR, g.BG
			if a > b {
				a, b = b, a
			}
			met[a+b]++
		}
	}
	// Groups by snake seeding: P1 P4 P5 P8 and P2 P3 P6 P7.
	for _, grp := range [][]string{{"P1", "P4", "P5", "P8"}, {"P2", "P3", "P6", "P7"}} {
		for i := range grp {
			for j := i + 1; j < len(grp); j++ {
				if met[grp[i]+grp[j]] != 1 {
					t.Errorf("%s and %s met %d times", grp[i], grp[j], met[grp[i]+grp[j]])
				}
			}
		}
	}
	if len(met) != 12 {
		t.Errorf("%d different games, want 12", len(met))
	}

	s := load(t, "liga.yaml")
	s.Rounds, s.NumRounds, s.Draw, s.Tables = s.Rounds[:1], 3, DrawSwiss, []string{"1", "2", "3", "4"}
	games, err := s.DrawRound(2, LigaResults[:4])
	if err != nil {
		t.Fatal(err)
	}
	// After round 1, winners P1 P4 P5 P8 (by seeding among equals) meet
	// the best winner not yet met; then the losers.
	var got []string
	for _, g := range games {
		got = append(got, g.YR+"-"+g.BG)
	}
	for _, g := range games {
		if prev, ok := s.Game(1, g.Table); ok && (prev.YR == g.YR && prev.BG == g.BG || prev.YR == g.BG && prev.BG == g.YR) {
			t.Errorf("rematch %v", g)
		}
	}
	st, _ := s.Standings(LigaResults[:4])
	top := map[string]bool{st[0].ID: true, st[1].ID: true, st[2].ID: true, st[3].ID: true}
	for _, g := range games[:2] {
		if !top[g.YR] || !top[g.BG] {
			t.Errorf("Swiss round 2 %v: the first games should be between round 1's winners", got)
		}
	}
	if _, err := s.DrawRound(4, nil); err == nil {
		t.Error("round 4 of 3 drawn")
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range []string{"liga.yaml", "liga.csv"} {
		b, _ := os.ReadFile("testdata/" + n)
		f.Add(string(b), strings.HasSuffix(n, ".csv"))
	}
	f.Fuzz(func(t *testing.T, text string, csv bool) {
		name := "f.yaml"
		if csv {
			name = "f.csv"
		}
		e, err := Parse(strings.NewReader(text), name)
		if err != nil {
			return
		}
		// A file that parses gives standings for every pair.
		st, _ := e.Standings(nil)
		if len(st) != len(e.Pairs) {
			t.Fatalf("%d standings for %d pairs", len(st), len(e.Pairs))
		}
	})
}

// BenchmarkStandings ranks 200 pairs after 9 Swiss rounds (900 results):
// the dashboard does it at every certification.
func BenchmarkStandings(b *testing.B) {
	e := &Event{Event: "open", Win: 1, NumRounds: 9, Draw: DrawSwiss}
	for i := range 200 {
		e.Pairs = append(e.Pairs, Pair{ID: "P" + itoa(i), Players: [2]string{"a", "b"}})
	}
	for i := range 100 {
		e.Tables = append(e.Tables, itoa(i+1))
	}
	var results []Result
	for r := 1; r <= 9; r++ {
		games, err := e.DrawRound(r, results)
		if err != nil {
			b.Fatal(err)
		}
		if err := e.AddRound(games); err != nil {
			b.Fatal(err)
		}
		for i, g := range games {
			w := "YR"
			if (i+r)%3 == 0 {
				w = "BG"
			}
			results = append(results, Result{Round: r, Table: g.Table, Winner: w, GoalYR: 8, GoalBG: i % 8})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if st, errs := e.Standings(results); len(st) != 200 || len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
