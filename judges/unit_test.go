package judges

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
)

var pieceRe = regexp.MustCompile(`class="piece" data-site="([^"]+)" data-colour="([YBRG])"`)

func TestBoard_PiecesOfPPN(t *testing.T) {
	tests := []struct {
		ppn  string
		want map[string]string // site → colours drawn there, in order
	}{
		{"- Y throw 0 - Y", map[string]string{"YH": "YYYY", "BH": "BBBB", "RH": "RRRR", "GH": "GGGG"}},
		{"5:Y,12:YB,34:RR,56:GY,YG:Y,R3:R B 5 0 - Y", map[string]string{
			"5": "Y", "12": "YB", "34": "RR", "56": "GY", "YG": "Y", "R3": "R", "BH": "BBB", "RH": "R", "GH": "GGG"}},
	}
	for _, tt := range tests {
		p, err := engine.ParsePPN(tt.ppn)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WriteBoard(&b, &p, BoardOpts{}); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, m := range pieceRe.FindAllStringSubmatch(b.String(), -1) {
			got[m[1]] += m[2]
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: pieces on %v, want %v", tt.ppn, got, tt.want)
		}
		for s, c := range tt.want {
			if got[s] != c {
				t.Errorf("%s: site %s has %q, want %q", tt.ppn, s, got[s], c)
			}
		}
	}
}

func TestBoard_SitesDistinctAndOnBoard(t *testing.T) {
	seen := map[pt]engine.Site{}
	for s := engine.Site(0); s < engine.NumSites; s++ {
		c := siteCentre(s)
		if c.x < 0 || c.y < 0 || c.x > gridCells || c.y > gridCells {
			t.Errorf("site %s drawn off the board at %v", s, c)
		}
		if o, dup := seen[c]; dup {
			t.Errorf("sites %s and %s drawn at the same place %v", o, s, c)
		}
		seen[c] = s
	}
	// Each colour's exit square lies next to its home corner.
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		e, h := siteCentre(engine.ExitSquare(c)), homeCentre(c)
		if d := (e.x-h.x)*(e.x-h.x) + (e.y-h.y)*(e.y-h.y); d > 6*6 {
			t.Errorf("%s's exit square %v is far from its home %v", c, e, h)
		}
	}
}

func TestCatalogue_EveryRuleAndEventInBothLanguages(t *testing.T) {
	keys := []string{}
	for _, r := range RuleCodes {
		keys = append(keys, "rule."+r)
	}
	for _, e := range []string{referee.EventStart, referee.EventThrow, referee.EventRethrow, referee.EventMove, referee.EventLost,
		referee.EventThirdSix, referee.EventInfraction, referee.EventMismatch, referee.EventResolved, referee.EventCorrection, referee.EventResult} {
		keys = append(keys, "event."+e)
	}
	for lang, m := range messages {
		for _, k := range keys {
			if m[k] == "" {
				t.Errorf("%s: no text for %s", lang, k)
			}
		}
		for k := range messages[LangES] {
			if m[k] == "" {
				t.Errorf("%s: no text for %s", lang, k)
			}
		}
	}
}

func TestPickLang_SpanishUnlessAsked(t *testing.T) {
	tests := []struct {
		url, cookie, accept, want string
	}{
		{"/", "", "", "es"},
		{"/", "", "en-US,en;q=0.9", "es"},
		{"/?lang=en", "", "es-ES", "en"},
		{"/", "en", "es-ES", "en"},
		{"/?lang=es", "en", "", "es"},
		{"/?lang=fr", "", "", "es"},
	}
	for _, tc := range tests {
		r := httptest.NewRequest("GET", tc.url, nil)
		if tc.cookie != "" {
			r.AddCookie(&http.Cookie{Name: langCookie, Value: tc.cookie})
		}
		r.Header.Set("Accept-Language", tc.accept)
		if got := pickLang(r, LangES); got != tc.want {
			t.Errorf("%s cookie %q accept %q: %s, want %s", tc.url, tc.cookie, tc.accept, got, tc.want)
		}
	}
}

func TestStore_DedupeAndGaps(t *testing.T) {
	st := NewStore(10)
	ev := func(seq uint64, typ string) {
		b, _ := json.Marshal(referee.Event{Seq: seq, Type: typ, Position: "- Y throw 0 - Y"})
		if _, _, err := st.Apply("parchis/v1/e/1/events", b); err != nil {
			t.Fatal(err)
		}
	}
	ev(1, referee.EventStart)
	ev(2, referee.EventThrow)
	ev(2, referee.EventThrow) // again (QoS 1)
	ev(5, referee.EventMove)  // 3 and 4 missed
	tb, _ := st.Get("e/1")
	var got []string
	for _, e := range tb.Feed {
		if e.Gap != 0 {
			got = append(got, "gap")
		} else {
			got = append(got, e.Type)
		}
	}
	if strings.Join(got, " ") != "start throw gap move" || tb.LastSeq != 5 {
		t.Errorf("feed %v, last %d; want start throw gap move, 5", got, tb.LastSeq)
	}
	for i := uint64(6); i < 30; i++ {
		ev(i, referee.EventThrow)
	}
	tb, _ = st.Get("e/1")
	if len(tb.Feed) != 10 || tb.Feed[9].Seq != 29 {
		t.Errorf("feed of %d ending at %d, want 10 ending at 29", len(tb.Feed), tb.Feed[len(tb.Feed)-1].Seq)
	}
	if _, _, err := st.Apply("parchis/v1/e/1/status", []byte(`{"status":"offline"}`)); err != nil {
		t.Fatal(err)
	}
	if tb, _ = st.Get("e/1"); !tb.Offline() {
		t.Error("table not offline after its last will")
	}
}

// TestStore_LateEventsFillTheGap: events the broker delivers out of
// order fill the gap they left, which then shows only what is still
// missing, and nothing once they have all come.
func TestStore_LateEventsFillTheGap(t *testing.T) {
	for _, tc := range []struct {
		order []uint64
		want  string
	}{
		{[]uint64{1, 2, 6}, "1 2 gap3-5 6"},
		{[]uint64{1, 2, 6, 4}, "1 2 gap3-3 4 gap5-5 6"},
		{[]uint64{1, 2, 6, 3}, "1 2 3 gap4-5 6"},
		{[]uint64{1, 2, 6, 5}, "1 2 gap3-4 5 6"},
		{[]uint64{1, 2, 6, 4, 3, 5}, "1 2 3 4 5 6"},
		{[]uint64{1, 2, 6, 5, 4, 3, 4}, "1 2 3 4 5 6"},
		{[]uint64{1, 4, 2, 7, 3, 5, 6}, "1 2 3 4 5 6 7"},
	} {
		st := NewStore(20)
		for _, seq := range tc.order {
			typ := referee.EventThrow
			if seq == 1 {
				typ = referee.EventStart
			}
			b, _ := json.Marshal(referee.Event{Seq: seq, Type: typ, Position: "- Y throw 0 - Y"})
			if _, _, err := st.Apply("parchis/v1/e/1/events", b); err != nil {
				t.Fatal(err)
			}
		}
		tb, _ := st.Get("e/1")
		var got []string
		for _, e := range tb.Feed {
			if e.Gap != 0 {
				got = append(got, fmt.Sprintf("gap%d-%d", e.Seq, e.Gap))
			} else {
				got = append(got, strconv.FormatUint(e.Seq, 10))
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("events in the order %v: feed %s, want %s", tc.order, g, tc.want)
		}
	}
}

func TestParseAction(t *testing.T) {
	tests := []struct {
		action string
		form   url.Values
		ok     bool
	}{
		{"correct", url.Values{"position": {"5:Y B throw 0 - Y"}}, true},
		{"correct", url.Values{"position": {"5:Y Q throw 0 - Y"}}, false},
		{"new-game", url.Values{"player-Y": {"a"}, "player-B": {"b"}, "player-R": {"c"}, "player-G": {"d"}, "starter": {"R"}}, true},
		{"new-game", url.Values{"player-Y": {"a"}, "starter": {"R"}}, false},
		{"new-game", url.Values{"player-Y": {"a"}, "player-B": {"b"}, "player-R": {"c"}, "player-G": {"d"}, "bot-G": {"mc"}, "starter": {"R"}}, true},
		{"new-game", url.Values{"player-Y": {"a"}, "player-B": {"b"}, "player-R": {"c"}, "player-G": {"d"}, "bot-G": {"wise"}, "starter": {"R"}}, false},
		{"certify", url.Values{}, false}, // no result
		{"explode", url.Values{}, false},
	}
	for _, tt := range tests {
		_, err := ParseAction(tt.action, tt.form, nil)
		if (err == nil) != tt.ok {
			t.Errorf("%s %v: err %v, want ok %v", tt.action, tt.form, err, tt.ok)
		}
	}
}

// TestParseAction_NewGameSeats: a new game always says who plays each
// colour, a person or a robot, so that a configured robot can be sent away.
func TestParseAction_NewGameSeats(t *testing.T) {
	form := url.Values{"player-Y": {"a"}, "player-B": {"b"}, "player-R": {"c"}, "player-G": {"Robot"}, "bot-G": {"greedy"}, "starter": {"Y"}}
	c, err := ParseAction("new-game", form, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Y": "none", "B": "none", "R": "none", "G": "greedy"}
	if fmt.Sprint(c.Bots) != fmt.Sprint(want) {
		t.Errorf("bots %v, want %v", c.Bots, want)
	}
}

func TestPassword_HashAndCheck(t *testing.T) {
	h, err := HashPassword("secreto")
	if err != nil {
		t.Fatal(err)
	}
	if !CheckPassword(h, "secreto") || CheckPassword(h, "Secreto") || CheckPassword("junk", "secreto") {
		t.Error("CheckPassword disagrees with HashPassword")
	}
}

func FuzzParseAction(f *testing.F) {
	f.Add("correct", "position=5%3AY+B+throw+0+-+Y")
	f.Add("new-game", "player-Y=a&player-B=b&player-R=c&player-G=d&starter=Y")
	f.Fuzz(func(t *testing.T, action, query string) {
		form, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		c, err := ParseAction(action, form, nil)
		if err == nil && c.Type == "correct" {
			if _, err := engine.ParsePPN(c.Position); err != nil {
				t.Errorf("accepted a bad position %q", c.Position)
			}
		}
	})
}

func FuzzReadJudges(f *testing.F) {
	f.Add("juez pbkdf2-sha256$1$00$" + strings.Repeat("00", 32) + " /k\n# c\n")
	f.Fuzz(func(t *testing.T, s string) {
		js, err := ReadJudges(strings.NewReader(s))
		if err == nil {
			for _, j := range js {
				if j.Name == "" || j.PasswordHash == "" {
					t.Errorf("accepted an empty judge %+v", j)
				}
			}
		}
	})
}

// A reply counts only from the table the command went to: another table
// that read the command's id cannot answer it.
func TestFeed_ReplyOnlyFromTheTableCommanded(t *testing.T) {
	s := &Server{log: slog.New(slog.DiscardHandler), store: NewStore(10)}
	f := &feed{s: s, waiting: map[string]chan broadcast.Reply{}}
	ch := make(chan broadcast.Reply, 1)
	f.waiting[broadcast.Prefix("club", "t1")+broadcast.TopicReply+"\x00abc"] = ch
	f.handle(broadcast.Prefix("club", "t9")+broadcast.TopicReply, []byte(`{"id":"abc","ok":true}`))
	select {
	case r := <-ch:
		t.Fatalf("a reply from table t9 answered t1's command: %+v", r)
	default:
	}
	f.handle(broadcast.Prefix("club", "t1")+broadcast.TopicReply, []byte(`{"id":"abc","ok":true}`))
	select {
	case r := <-ch:
		if !r.OK {
			t.Errorf("reply %+v", r)
		}
	default:
		t.Fatal("the table's own reply did not arrive")
	}
}

// TestStore_CurveFollowsTheGame: each state's win chance adds a point to
// the game's curve (a repeated one replaces it, an older one is ignored),
// and a new game starts a new curve.
func TestStore_CurveFollowsTheGame(t *testing.T) {
	st := NewStore(10)
	state := func(seq uint64, w string) {
		t.Helper()
		b := fmt.Sprintf(`{"event":"e","table":"1","seq":%d,"position":"- Y throw 0 - Y"%s}`, seq, w)
		if _, _, err := st.Apply("parchis/v1/e/1/state", []byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	win := func(seq uint64, yr float64) string {
		return fmt.Sprintf(`,"win_chance":{"seq":%d,"yr":%v,"bg":%v,"yr_low":0,"yr_high":1,"playouts":10}`, seq, yr, 1-yr)
	}
	state(3, "")
	state(4, win(4, 0.5))
	state(5, win(5, 0.6))
	state(5, win(5, 0.7))
	state(6, win(4, 0.1))
	state(7, win(7, 0.8))
	tb, _ := st.Get("e/1")
	want := []CurvePoint{{4, 0.5}, {5, 0.7}, {7, 0.8}}
	if !slices.Equal(tb.Curve, want) {
		t.Errorf("curve %v, want %v", tb.Curve, want)
	}
	c := viewCurve(tb.Curve)
	if c == nil || c.Points != "0.0,20.0 33.3,12.0 100.0,8.0" {
		t.Errorf("drawn curve %+v", c)
	}
	w := viewWin("es", tb.Win, tb.PositionSeq)
	if w == nil || w.YR != 80 || w.BG != 20 || w.YRTop != "20.0" || w.YRH != "80.0" || w.Estimating {
		t.Errorf("bar %+v", w)
	}
	// A newer position without its estimate yet: the bar keeps the last
	// one, marked as being estimated.
	state(8, "")
	tb, _ = st.Get("e/1")
	if w := viewWin("es", tb.Win, tb.PositionSeq); w == nil || w.YR != 80 || !w.Estimating {
		t.Errorf("bar while estimating %+v", w)
	}
	state(1, win(1, 0.5))
	if tb, _ := st.Get("e/1"); len(tb.Curve) != 1 {
		t.Errorf("a new game keeps the old curve: %v", tb.Curve)
	}
}

// TestCurve_Bounded: a long game keeps at most maxCurve points, and draws
// at most 200.
func TestCurve_Bounded(t *testing.T) {
	var tb Table
	for i := range 5000 {
		tb.addCurve(&broadcast.WinChance{Seq: uint64(i + 1), YR: 0.5})
	}
	if len(tb.Curve) > maxCurve || tb.Curve[len(tb.Curve)-1].Seq != 5000 {
		t.Errorf("%d points, the last at %d", len(tb.Curve), tb.Curve[len(tb.Curve)-1].Seq)
	}
	if c := viewCurve(tb.Curve); c.N > 201 {
		t.Errorf("%d points drawn", c.N)
	}
}
