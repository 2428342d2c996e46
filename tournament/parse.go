package tournament

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// MaxFileSize bounds a tournament file.
const MaxFileSize = 1 << 20

// Parse reads a tournament file: CSV when name ends with .csv, else YAML
// (docs/tournament.md gives both forms). Every problem found is reported,
// naming the pair, round or table.
func Parse(r io.Reader, name string) (*Event, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("tournament %s: %w", name, err)
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("tournament %s: larger than %d bytes", name, MaxFileSize)
	}
	var e *Event
	if strings.HasSuffix(strings.ToLower(name), ".csv") {
		e, err = parseCSV(b)
	} else {
		e, err = parseYAML(b)
	}
	if err != nil {
		return nil, fmt.Errorf("tournament %s: %w", name, err)
	}
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("tournament %s: %w", name, err)
	}
	return e, nil
}

// yamlEvent is the YAML form: rounds are lists of games.
type yamlEvent struct {
	Event     `yaml:",inline"`
	RoundList [][]Game `yaml:"rounds"`
}

func parseYAML(b []byte) (*Event, error) {
	var y yamlEvent
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&y); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	e := y.Event
	for i, games := range y.RoundList {
		for j := range games {
			if games[j].Round != 0 && games[j].Round != i+1 {
				return nil, fmt.Errorf("round %d, table %s: says round %d", i+1, games[j].Table, games[j].Round)
			}
			games[j].Round = i + 1
		}
		sortGames(games)
		e.Rounds = append(e.Rounds, games)
	}
	return &e, nil
}

// parseCSV reads the CSV form: setting rows (event, name, win, loss,
// draw, num_rounds, groups, tables), then a header row starting with
// "pair", then one row per pair: pair, name, club, player 1, player 2 and
// for each round "TABLE YR" or "TABLE BG" (empty: the round is drawn).
func parseCSV(b []byte) (*Event, error) {
	cr := csv.NewReader(bytes.NewReader(b))
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	var e Event
	header := false
	rounds := map[int]map[string]*Game{} // round → table → game
	line := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		line++
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if len(rec) == 0 || len(rec) == 1 && rec[0] == "" {
			continue
		}
		at := func(err error) error { return fmt.Errorf("line %d: %w", line, err) }
		if !header {
			key := strings.ToLower(rec[0])
			val := ""
			if len(rec) > 1 {
				val = rec[1]
			}
			num := func(dst *int) error {
				n, err := strconv.Atoi(val)
				if err != nil {
					return at(fmt.Errorf("%s %q: want a number", key, val))
				}
				*dst = n
				return nil
			}
			switch key {
			case "event":
				e.Event = val
			case "name":
				e.Name = val
			case "draw":
				e.Draw = val
			case "tables":
				e.Tables = append(e.Tables, rec[1:]...)
			case "win":
				err = num(&e.Win)
			case "loss":
				err = num(&e.Loss)
			case "num_rounds":
				err = num(&e.NumRounds)
			case "groups":
				err = num(&e.Groups)
			case "pair":
				header = true
			default:
				err = at(fmt.Errorf("%q: want a setting (event, name, win, loss, draw, num_rounds, groups, tables) or the header row (pair, name, club, player 1, player 2, round 1…)", rec[0]))
			}
			if err != nil {
				return nil, err
			}
			continue
		}
		if len(rec) < 5 {
			return nil, at(fmt.Errorf("want pair, name, club, player 1, player 2 and the rounds, got %d fields", len(rec)))
		}
		p := Pair{ID: rec[0], Name: rec[1], Club: rec[2], Players: [2]string{rec[3], rec[4]}}
		e.Pairs = append(e.Pairs, p)
		for i, cell := range rec[5:] {
			if cell == "" {
				continue
			}
			f := strings.Fields(cell)
			if len(f) != 2 || f[1] != "YR" && f[1] != "BG" {
				return nil, at(fmt.Errorf("pair %s, round %d: %q: want TABLE YR or TABLE BG", p.ID, i+1, cell))
			}
			if rounds[i+1] == nil {
				rounds[i+1] = map[string]*Game{}
			}
			g := rounds[i+1][f[0]]
			if g == nil {
				g = &Game{Round: i + 1, Table: f[0]}
				rounds[i+1][f[0]] = g
			}
			side := &g.YR
			if f[1] == "BG" {
				side = &g.BG
			}
			if *side != "" {
				return nil, at(fmt.Errorf("round %d, table %s: %s and %s both play %s", i+1, f[0], *side, p.ID, f[1]))
			}
			*side = p.ID
		}
	}
	if !header {
		return nil, errors.New("no header row (pair, name, club, player 1, player 2, round 1…)")
	}
	for r := 1; r <= len(rounds); r++ {
		tables, ok := rounds[r]
		if !ok {
			return nil, fmt.Errorf("round %d has no games but round %d has", r, len(rounds))
		}
		var games []Game
		for _, g := range tables {
			if g.YR == "" || g.BG == "" {
				return nil, fmt.Errorf("round %d, table %s: one pair only", r, g.Table)
			}
			games = append(games, *g)
		}
		sortGames(games)
		e.Rounds = append(e.Rounds, games)
	}
	return &e, nil
}
