package referee_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/table"
)

var update = flag.Bool("update", false, "rewrite the golden event files of the table scripts")

// runScript feeds a table script to a referee with colour-aware sensors
// and returns its events.
func runScript(t *testing.T, path string) []referee.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tb, err := table.Open(table.Opts{Caps: board.Caps{Counts: true, Colours: true}})
	if err != nil {
		t.Fatal(err)
	}
	var events []referee.Event
	if err := tb.RunScript(f, func(e referee.Event) error { events = append(events, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return events
}

// step is an expected event: its type and its rule or move (the rest is in
// the golden file).
type step struct{ typ, what string }

func (s step) String() string { return s.typ + " " + s.what }

// Each script shows one rule of RULES.md §10 (or a normal turn), and the
// events it must give, in order; other events may come between them.
var scripts = map[string][]step{
	"exit-and-turn":            {{"start", ""}, {"throw", "5"}, {"move", "YH-5"}, {"throw", "3"}, {"lost", "3"}},
	"kill":                     {{"throw", "3"}, {"move", "7x10"}, {"move", "10-30"}},
	"kill-bonus-in-hand":       {{"move", "7x10"}, {"move", "10-30"}, {"throw", "2"}},
	"kill-not-done":            {{"move", "7x10"}, {"move", "10-30"}, {"infraction", "kill-not-done"}, {"throw", "2"}},
	"touched-piece":            {{"mismatch", ""}, {"infraction", "touched-piece"}, {"resolved", ""}, {"move", "20-24"}},
	"wrong-count":              {{"mismatch", ""}, {"infraction", "wrong-count"}, {"resolved", ""}, {"move", "20-24"}},
	"backwards":                {{"mismatch", ""}, {"infraction", "backwards"}},
	"barrier":                  {{"mismatch", ""}, {"infraction", "barrier"}},
	"must-exit":                {{"infraction", "must-exit"}},
	"must-open-barrier":        {{"infraction", "must-open-barrier"}},
	"wrong-colour":             {{"infraction", "wrong-colour"}, {"resolved", ""}, {"infraction", "out-of-turn"}},
	"third-six":                {{"move", "20-26"}, {"move", "26-32"}, {"third-six", "6"}, {"infraction", "third-six-home"}},
	"bonus-not-played":         {{"move", "7x10"}, {"infraction", "bonus-not-played"}, {"move", "10-30"}},
	"early-throw":              {{"infraction", "early-throw"}},
	"illegal-move":             {{"mismatch", ""}, {"infraction", "illegal-move"}},
	"rethrow":                  {{"rethrow", "edge"}, {"rethrow", "none"}, {"rethrow", "multi"}, {"rethrow", "suspicious"}, {"throw", "3"}},
	"mismatch":                 {{"mismatch", ""}, {"infraction", "out-of-turn"}, {"resolved", ""}},
	"judge-set":                {{"correction", ""}, {"mismatch", ""}, {"resolved", ""}},
	"crowded-exit":             {{"throw", "5"}, {"move", "YHx5"}, {"move", "30-50"}},
	"partner-kill":             {{"move", "20-24"}, {"move", "20x24"}},
	"end":                      {{"move", "Y7-YG"}, {"lost", "+10"}, {"move", "30-33"}, {"move", "40-42"}, {"result", "YR"}},
	"opening":                  {{"start", "B"}, {"throw", "5"}, {"move", "BH-22"}},
	"presence-only":            {{"move", "20-24"}, {"throw", "5"}, {"move", "BH-22"}},
	"presence-unseen":          {{"move", "20-24"}, {"throw", "3"}},
	"presence-partner-barrier": {{"move", "20-24"}, {"throw", "3"}},
	"settle":                   {{"correction", ""}, {"lost", "3"}, {"throw", "5"}},
	// Hands at work (issue 12): counting out is no infraction, whatever
	// the pace; kills in any order; a lift without a colour.
	"count-out":                 {{"start", "Y"}, {"move", "20-24"}},
	"count-out-paces":           {{"move", "7x10"}, {"move", "10-30"}, {"throw", "3"}, {"move", "40-43"}},
	"count-out-partner":         {{"move", "20-24"}},
	"count-out-overshoot":       {{"move", "20-24"}, {"mismatch", ""}, {"infraction", "wrong-count"}, {"resolved", ""}},
	"wrong-count-throw":         {{"mismatch", ""}, {"infraction", "wrong-count"}, {"infraction", "early-throw"}},
	"crowded-exit-victim-first": {{"throw", "5"}, {"move", "YHx5"}, {"move", "30-50"}},
	"lift-two-colours":          {{"move", "12-15"}},
	"kill-not-done-bonus":       {{"move", "7x10"}, {"infraction", "kill-not-done"}, {"infraction", "bonus-not-played"}},
}

func what(e referee.Event) string {
	switch {
	case e.Rule != "":
		return e.Rule
	case e.Move != "":
		return e.Move
	case e.Result != "":
		return e.Result
	case e.Type == referee.EventStart:
		return e.Colour
	}
	return e.Throw
}

func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/scripts/*.script")
	if len(files) != len(scripts) {
		t.Errorf("%d scripts in testdata, %d in the test", len(files), len(scripts))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		t.Run(name, func(t *testing.T) {
			events := runScript(t, path)
			want, ok := scripts[name]
			if !ok {
				t.Fatalf("no expectations for %s", name)
			}
			// The expected steps appear in order.
			i := 0
			for _, e := range events {
				if i < len(want) && e.Type == want[i].typ && (want[i].what == "" || what(e) == want[i].what) {
					i++
				}
			}
			if i < len(want) {
				var got []string
				for _, e := range events {
					got = append(got, e.Type+" "+what(e))
				}
				t.Fatalf("missing %v (after %v) in:\n%s", want[i], want[:i], strings.Join(got, "\n"))
			}
			// Events are numbered 1, 2, 3…, each carries a valid position,
			// and infractions only appear where a step expects one.
			infractions := 0
			for _, w := range want {
				if w.typ == referee.EventInfraction {
					infractions++
				}
			}
			for k, e := range events {
				if e.Seq != uint64(k+1) {
					t.Errorf("event %d has seq %d", k+1, e.Seq)
				}
				if _, err := engine.ParsePPN(e.Position); err != nil {
					t.Errorf("event %d: %v", e.Seq, err)
				}
				if e.Type == referee.EventInfraction {
					infractions--
				}
			}
			if infractions != 0 {
				t.Errorf("%d infractions more or fewer than expected", -infractions)
			}
			// The whole output is kept as a golden file, reviewed by hand.
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			for _, e := range events {
				enc.Encode(e)
			}
			golden := strings.TrimSuffix(path, ".script") + ".events"
			if *update {
				os.WriteFile(golden, b.Bytes(), 0o644)
			}
			want2, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./referee -update to write it)", err)
			}
			if !bytes.Equal(b.Bytes(), want2) {
				t.Errorf("events differ from %s:\n%s", golden, b.String())
			}
		})
	}
}
