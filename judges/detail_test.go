package judges

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/spanish"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/tournament"
)

// sourceSentences returns the sentences the referee, the rules engine and
// the tables write for people (events' details, rule and position errors,
// answers to commands), as format strings found in their sources.
func sourceSentences(t *testing.T) []string {
	t.Helper()
	files := []string{"../referee/*.go", "../engine/moves.go", "../engine/play.go", "../engine/record.go", "../engine/ppn.go"}
	var out []string
	seen := map[string]bool{}
	add := func(e ast.Expr) {
		var lit *ast.BasicLit
		switch x := e.(type) {
		case *ast.BasicLit:
			lit = x
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(x.Args) > 0 {
				lit, _ = x.Args[0].(*ast.BasicLit)
			}
		}
		if lit == nil || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || s == "" || seen[s] {
			return
		}
		seen[s] = true
		out = append(out, s)
	}
	fset := token.NewFileSet()
	for _, pat := range files {
		names, _ := filepath.Glob(pat)
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.KeyValueExpr:
					if k, ok := x.Key.(*ast.Ident); ok && (k.Name == "Detail" || k.Name == "Reason" || k.Name == "Msg") {
						add(x.Value)
					}
				case *ast.AssignStmt:
					for i, l := range x.Lhs {
						name := ""
						switch l := l.(type) {
						case *ast.Ident:
							name = l.Name
						case *ast.SelectorExpr:
							name = l.Sel.Name
						}
						if (name == "detail" || name == "Detail") && i < len(x.Rhs) {
							add(x.Rhs[i])
						}
					}
				case *ast.CallExpr:
					// The engine's errors: a record's, a move's, a
					// position's, shown on the archive's pages and by
					// parchis replay.
					if sel, ok := x.Fun.(*ast.SelectorExpr); ok && strings.HasPrefix(name, "../engine/") && len(x.Args) > 0 {
						if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "errors" && sel.Sel.Name == "New" || pkg.Name == "fmt" && sel.Sel.Name == "Errorf") {
							add(x.Args[0])
						}
					}
					if id, ok := x.Fun.(*ast.Ident); ok {
						switch {
						case id.Name == "bad" && len(x.Args) >= 3:
							add(x.Args[2])
						case id.Name == "ppnErr" && len(x.Args) >= 2:
							add(x.Args[1])
						}
					}
				case *ast.CompositeLit:
					// detail := map[ThrowKind]string{…}
					if m, ok := x.Type.(*ast.MapType); ok {
						if v, ok := m.Value.(*ast.Ident); ok && v.Name == "string" {
							for _, el := range x.Elts {
								if kv, ok := el.(*ast.KeyValueExpr); ok {
									add(kv.Value)
								}
							}
						}
					}
				case *ast.FuncDecl:
					if x.Name.Name == "turnReason" || x.Name.Name == "describeMismatch" {
						ast.Inspect(x.Body, func(n ast.Node) bool {
							if c, ok := n.(*ast.CallExpr); ok {
								add(c)
							}
							return true
						})
					}
				}
				return true
			})
		}
	}
	if len(out) < 40 {
		t.Fatalf("found only %d sentences in the sources: the scan is broken", len(out))
	}
	return out
}

// tableAnswers are what a table answers to a refused command
// (broadcast.Publisher.check and parchisd's handling of commands).
var tableAnswers = []string{
	`unauthorised: judge "pepe" is not one of this table's judges`,
	`unauthorised: certify command by "pepe": not signed`,
	`unauthorised: certification by "juez": judge's key is not among the trusted judges' keys`,
	`bad command: certify: the table has no result`,
	`table busy: too many commands waiting`,
	`no result is waiting for a judge`,
	`the command carries no certification`,
	`the result is already certified by juez`,
	`the game is at event 7, the judge saw event 5: look at the table again`,
	`unknown command "dance"`,
	`result of local/1: table signature: not signed`,
	`result of local/1: key abc=: signed by a key that is not the table's (xyz=)`,
}

var verbRE = regexp.MustCompile(`%[-+# 0-9.]*[a-zA-Z]`)

// instances fills a format's verbs with every combination of samples
// (colours, sites, moves, numbers) and returns the sentences.
func instances(format string) []string {
	verbs := verbRE.FindAllStringIndex(format, -1)
	samples := map[byte][]string{
		's': {"Yellow", "12", "5", "+20", "5-10", "opening Y", "the game is over"},
		'q': {`"x"`},
		'd': {"5"},
		'v': {"5-10"},
		'w': {"no such site"},
	}
	out := []string{""}
	last := 0
	for _, v := range verbs {
		lit := format[last:v[0]]
		opts := samples[format[v[1]-1]]
		var next []string
		for _, o := range out {
			for _, s := range opts {
				next = append(next, o+lit+s)
			}
		}
		out, last = next, v[1]
	}
	for i := range out {
		out[i] += format[last:]
	}
	return out
}

// TestSpanishDetailsCoverSources checks that every sentence the referee,
// the engine and the tables write has a Spanish form.
func TestSpanishDetailsCoverSources(t *testing.T) {
	sentences := sourceSentences(t)
	t.Logf("%d sentences in the sources", len(sentences))
	for _, f := range sentences {
		ok := false
		for _, s := range instances(strings.TrimPrefix(f, "; ")) {
			if _, found := detailES(s); found {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("no Spanish form for %q", f)
		}
	}
	for _, s := range tableAnswers {
		if _, ok := detailES(s); !ok {
			t.Errorf("no Spanish form for the table's answer %q", s)
		}
	}
}

func TestDetailSpanish(t *testing.T) {
	for _, c := range []struct{ en, es string }{
		{"no legal move: the throw is lost", "ningún movimiento posible: se pierde la tirada"},
		{"Yellow starts (opening Y), by judge ana", "empieza Amarillo (sorteo de salida Y), por el juez ana"},
		{"Red's piece moved during Blue's turn", "se movió una ficha roja en el turno de Azul"},
		{"kills Green's piece on 12; bonus 20; take it to GH", "come una ficha verde en 12; premio de 20; llévela a GH"},
		{"a Yellow piece too many on 5; a piece missing on 12", "una ficha amarilla de más en 5; falta una ficha en 12"},
		{"illegal move 5-9: pieces never move backwards (backwards, RULES.md §5)", "movimiento ilegal 5-9: las fichas nunca retroceden (backwards, reglamento §5)"},
		{`unauthorised: judge "pepe" is not one of this table's judges`, "no autorizado: el juez «pepe» no es uno de los jueces de esta mesa"},
		{"bad position: field 3 (phase): \"7\": want throw, 1…6, +20, +10 or end", "posición no válida: campo 3 (fase): «7»: se espera throw, 1…6, +20, +10 o end"},
		{"something new", "something new"},
	} {
		if got := Detail(LangES, c.en); got != c.es {
			t.Errorf("Detail(es, %q) = %q, want %q", c.en, got, c.es)
		}
		if got := Detail(LangEN, c.en); got != c.en {
			t.Errorf("Detail(en, %q) = %q, want it unchanged", c.en, got)
		}
	}
}

// TestSpanishPagesHaveNoEnglish renders a table's Spanish page whose feed
// holds every sentence of the sources, a result with a bad signature and a
// refused command's message, and checks that none of the English
// sentences, nor any English text of the catalogue, shows.
func TestSpanishPagesHaveNoEnglish(t *testing.T) {
	f, err := os.Open("../tournament/testdata/liga.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := tournament.Parse(f, "liga.yaml")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	ev.Event = "local"
	dir := t.TempDir()
	rec, _ := playedGame(t, 3, "2026.05.01", "1", [4]string{"Ana", "Bea", "Carla", "Dani"})
	rec = append(rec, "; 10:00:00 infraction touched-piece Y: the piece lifted from 12 must be the one played\n"...)
	if err := os.WriteFile(filepath.Join(dir, "2026-05-01_1_1.txt"), rec, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := New(Opts{Logger: quietLog(), Tournament: ev, Archive: dir})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Store()
	var english []string
	seq := uint64(0)
	apply := func(e referee.Event) {
		seq++
		e.Seq, e.Time = seq, time.Now()
		b := mustJSON(t, e)
		if _, _, err := st.Apply("parchis/v1/local/1/events", b); err != nil {
			t.Fatal(err)
		}
	}
	apply(referee.Event{Type: referee.EventStart, Colour: "Y", Detail: "Yellow starts"})
	for _, f := range sourceSentences(t) {
		for _, s := range instances(strings.TrimPrefix(f, "; ")) {
			if _, ok := detailES(s); ok {
				english = append(english, s)
				apply(referee.Event{Type: referee.EventInfraction, Colour: "Y", Rule: referee.RuleIllegalMove, Detail: s})
				break
			}
		}
	}
	for _, s := range tableAnswers {
		english = append(english, s)
		apply(referee.Event{Type: referee.EventCorrection, Detail: s})
	}
	// A table's alerts (parchisd's daemon.alerts).
	alerts := []string{
		"the journal was damaged at byte 1234 (record CRC mismatch); the game resumes from record 2, before the damage; 7 records after it are in /var/lib/parchisd/recovered.script, the original in /var/lib/parchisd/table.journal.damaged-1",
		"the journal cannot be written (write /var/lib/parchisd/table.journal: no space left on device): the game goes on in memory, 3 inputs held",
		"the feed's queue cannot be written (write /var/lib/parchisd/feed/000001.q: no space left on device): 4 events held",
	}
	english = append(english, alerts...)
	if _, _, err := st.Apply("parchis/v1/local/1/status", mustJSON(t, broadcast.Status{Status: "online", Table: "1", Event: "local", Alerts: alerts})); err != nil {
		t.Fatal(err)
	}
	// The result's record carries NOTATION.md comments: an infraction and
	// a judge's correction, which the result's panel says in Spanish.
	record := "Y 5 YH-5 {10:00:00}\n; 10:00:05 infraction touched-piece Y: the piece lifted from 12 must be the one played\n; judge set - Y throw 0 - Y by ana at 10:01:00\n"
	english = append(english, "infraction touched-piece", "the piece lifted from 12 must be the one played", "judge set - Y throw 0 - Y by ana")
	r := broadcast.Result{Event: "local", Table: "1", Result: "YR", Position: engine.NewPosition(engine.Yellow).String(), Record: record}
	if _, _, err := st.Apply("parchis/v1/local/1/result", mustJSON(t, r)); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/", "/t/local/1", "/standings", "/standings/print", "/archive", "/archive/g/2026-05-01_1_1.txt"} {
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		page := htmlText(rec.Body.String())
		if w := spanish.EnglishIn(visibleText(rec.Body.String())); len(w) > 0 {
			t.Errorf("%s: English words %q on the Spanish page", path, w)
			for _, line := range strings.Split(visibleText(rec.Body.String()), "\n") {
				if len(spanish.EnglishIn(line)) > 0 {
					t.Logf("  %s", strings.TrimSpace(line))
				}
			}
		}
		for _, s := range english {
			if strings.Contains(page, htmlText(s)) {
				t.Errorf("%s: English sentence on the Spanish page: %q", path, s)
			}
		}
		for key, en := range messages[LangEN] {
			if es := messages[LangES][key]; en != es && len(en) >= 12 && strings.Contains(page, htmlText(en)) {
				t.Errorf("%s: English text %q (%s) on the Spanish page", path, en, key)
			}
		}
		if path == "/t/local/1" && !strings.Contains(page, "tiene más de 4 fichas") {
			t.Errorf("%s: the Spanish details are not on the page", path)
		}
		if path == "/t/local/1" && (!strings.Contains(page, htmlText("; 10:00:05 · Ficha tocada · Amarillo: la ficha levantada de 12 es la que se juega")) ||
			!strings.Contains(page, htmlText("; Corrección del juez: - Y throw 0 - Y — por ana, 10:01:00"))) {
			t.Errorf("%s: the result's record does not say its comments in Spanish", path)
		}
		if strings.HasPrefix(path, "/archive/g/") && !strings.Contains(page, "Ficha tocada · Amarillo: la ficha levantada de 12 es la que se juega") {
			t.Errorf("%s: the record's infraction is not said in Spanish", path)
		}
	}
	// The same pages in English render too.
	for _, path := range []string{"/", "/t/local/1", "/standings", "/standings/print", "/standings.csv", "/archive", "/archive/g/2026-05-01_1_1.txt", "/archive.zip"} {
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"?lang=en", nil))
		if rec.Code != http.StatusOK {
			t.Errorf("%s in English: %d", path, rec.Code)
		}
		if path == "/t/local/1" && !strings.Contains(rec.Body.String(), htmlText("; 10:00:05 infraction touched-piece Y: the piece lifted from 12")) {
			t.Errorf("%s in English: the result's record is not shown as it is", path)
		}
	}
	if got := actionMessage(LangES, &ActionError{Key: "table-said", Detail: tableAnswers[0]}); strings.Contains(got, "not one of") {
		t.Errorf("refused command said in English: %q", got)
	}
}

// visibleText is the text a page shows: its markup, scripts and styles
// left out.
func visibleText(page string) string {
	page = regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>`).ReplaceAllString(page, " ")
	page = regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(page, " ")
	return html.UnescapeString(page)
}

// htmlText escapes s as the templates do, so that it is found in a page.
func htmlText(s string) string {
	r := strings.NewReplacer("&", "&amp;", "'", "&#39;", "\"", "&#34;", "<", "&lt;", ">", "&gt;", "+", "&#43;")
	return r.Replace(strings.NewReplacer("&amp;", "&", "&#39;", "'", "&#34;", "\"", "&lt;", "<", "&gt;", ">", "&#43;", "+").Replace(s))
}

var _ = fmt.Sprint

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
