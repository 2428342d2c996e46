package judges

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/browsertest"
)

// clickSite is the page's script clicking the editor's board at a site's
// centre, as a person would.
func clickSite(site string) string {
	return `(function () { var svg = document.querySelector("#edit-board svg.board"); svg.scrollIntoView({ block: "center" });
		var l = JSON.parse(document.getElementById("board-layout").textContent).sites["` + site + `"];
		var pt = svg.createSVGPoint(); pt.x = l[0]; pt.y = l[1];
		var s = pt.matrixTransform(svg.getScreenCTM());
		var el = document.elementFromPoint(s.x, s.y);
		el.dispatchEvent(new MouseEvent("click", { clientX: s.x, clientY: s.y, bubbles: true }));
		return true; })()`
}

// TestBrowser_CorrectionByPicture: a judge moves a piece on the drawn
// board — removes it from its square and puts it on another — and sets
// the turn; the page shows the PPN, the engine's verdict and the diff
// with the table's position in Spanish; a position the engine refuses is
// explained in Spanish and cannot be sent; the correction sent reaches
// the table.
func TestBrowser_CorrectionByPicture(t *testing.T) {
	browsertest.Chromium(t)
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	shots := shotsDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	br := startBroker(t, ctx, "local", []string{"1"})
	srv := startDashboard(t, ctx, br.url, Opts{})
	st := startTable(t, ctx, br.url, "local", "1", srv.JudgeKeys(), 41)
	// Play until a turn begins with a yellow piece alone on a square.
	var pos engine.Position
	yellowAlone := func(p *engine.Position) engine.Site {
		for s := engine.Site(0); s < engine.NumSites; s++ {
			if n, c, _ := p.Occupants(s); n == 1 && c == engine.Yellow && (s.Kind() == engine.Track || s.Kind() == engine.Column) {
				return s
			}
		}
		return engine.NoSite
	}
	for range 600 {
		st.step()
		st.mu.Lock()
		pos = st.g.Pos
		st.mu.Unlock()
		if pos.Phase() == engine.PhaseThrow && pos.Sixes() == 0 && pos.Last() == engine.NoSite && yellowAlone(&pos) != engine.NoSite {
			break
		}
	}
	waitFor(t, "the position on the dashboard", 10*time.Second, func() bool { tb, ok := srv.Store().Get("local/1"); return ok && tb.Position == pos.String() })
	from := yellowAlone(&pos)
	if from == engine.NoSite {
		t.Fatalf("no yellow piece alone on a square in %s", pos.String())
	}
	to := engine.TrackSite(20)
	for n, _, _ := pos.Occupants(to); n > 0; n, _, _ = pos.Occupants(to) {
		to = engine.TrackSite(to.Square() + 1)
	}

	base := "http://" + srv.Addr().String()
	b := browsertest.Start(t, ctx, base+"/login?next=/t/local/1")
	signInJudge(ctx, t, b)
	b.WaitJS(ctx, t, `location.pathname === "/t/local/1" && document.getElementById("editor") && document.getElementById("edit-diff").textContent.length > 0`, browsertest.WaitLong)
	_ = b.Eval(ctx, `document.getElementById("editor").scrollIntoView(); true`, nil)

	// Remove the piece, put it on the empty square, pass the turn on.
	_ = b.Eval(ctx, `document.getElementById("tool-remove").click(); true`, nil)
	_ = b.Eval(ctx, clickSite(from.String()), nil)
	_ = b.Eval(ctx, `document.getElementById("tool-Y").click(); true`, nil)
	_ = b.Eval(ctx, clickSite(to.String()), nil)
	next := pos.Turn().Next()
	_ = b.Eval(ctx, `var s = document.getElementById("edit-turn"); s.value = "`+next.String()+`"; s.dispatchEvent(new Event("change")); true`, nil)

	// The expected position: the piece moved and the turn passed.
	want := placementWith(t, &pos, from, to) + " " + next.String() + " throw " + itoa(pos.Sixes()) + " " + siteOrDash(pos.Last()) + " " + pos.Starter().String()
	b.WaitJS(ctx, t, `document.getElementById("correct-position").value === `+jsq(want)+` && document.getElementById("editor").getAttribute("data-checked") === `+jsq(want), browsertest.WaitLong)
	var diff, verdict string
	_ = b.Eval(ctx, `document.getElementById("edit-diff").innerText`, &diff)
	_ = b.Eval(ctx, `document.getElementById("edit-verdict").textContent`, &verdict)
	for _, w := range []string{from.String() + ": amarilla → vacía", to.String() + ": vacía → amarilla", "Turno: " + colourName(LangES, pos.Turn().String()) + " → " + colourName(LangES, next.String())} {
		if !strings.Contains(diff, w) {
			t.Errorf("diff lacks %q:\n%s", w, diff)
		}
	}
	if verdict != T(LangES, "valid") {
		t.Errorf("engine's verdict %q", verdict)
	}
	b.Screenshot(ctx, t, filepath.Join(shots, "correct-laptop.png"))

	// A yellow piece in Blue's column: refused, in Spanish.
	_ = b.Eval(ctx, clickSite("B3"), nil)
	b.WaitJS(ctx, t, `document.getElementById("edit-verdict").className.indexOf("bad") >= 0 && document.getElementById("correct-send").disabled`, browsertest.WaitLong)
	_ = b.Eval(ctx, `document.getElementById("edit-verdict").textContent`, &verdict)
	if !strings.Contains(verdict, "B3: una ficha amarilla nunca está ahí") || !strings.HasPrefix(verdict, "Posición no válida") {
		t.Errorf("refusal said %q", verdict)
	}
	b.SetViewport(ctx, t, 390, 844, true)
	_ = b.Eval(ctx, `document.getElementById("edit-board").scrollIntoView(); true`, nil)
	b.Screenshot(ctx, t, filepath.Join(shots, "correct-phone-refused.png"))
	b.SetViewport(ctx, t, 1280, 1000, false)
	_ = b.Eval(ctx, `document.getElementById("tool-remove").click(); true`, nil)
	_ = b.Eval(ctx, clickSite("B3"), nil)
	b.WaitJS(ctx, t, `!document.getElementById("correct-send").disabled && document.getElementById("editor").getAttribute("data-checked") === `+jsq(want), browsertest.WaitLong)

	// Sent: the table takes it, the page stays and shows it.
	_ = b.Eval(ctx, `document.getElementById("correct-send").click(); true`, nil)
	b.WaitJS(ctx, t, `document.querySelector("#flash.ok") && document.querySelector("#history li.ev-correction")`, browsertest.WaitLong)
	st.mu.Lock()
	got := st.g.Pos.String()
	st.mu.Unlock()
	if got != want {
		t.Errorf("the table's position %s, want %s", got, want)
	}
}

// placementWith returns p's placement field with the piece on from moved
// to to.
func placementWith(t *testing.T, p *engine.Position, from, to engine.Site) string {
	t.Helper()
	var parts []string
	for s := engine.Site(0); s < engine.NumSites; s++ {
		if s.Kind() == engine.Home {
			continue
		}
		n, first, second := p.Occupants(s)
		var cols string
		for i := 0; i < n; i++ {
			c := first
			if i == 1 && s.Kind() != engine.Goal {
				c = second
			}
			if s.Kind() == engine.Goal {
				c = s.Owner()
			}
			cols += c.String()
		}
		if s == from {
			cols = cols[:len(cols)-1]
		}
		if s == to {
			cols += "Y"
		}
		if cols != "" {
			parts = append(parts, s.String()+":"+cols)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ",")
}

// jsq quotes a string for the page's script.
func jsq(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
