package engine

import (
	"fmt"
	"strconv"
)

// Colour is one of the four players' colours, in turn order.
type Colour uint8

// The colours in turn order (RULES.md §1): Y → B → R → G → Y.
const (
	Yellow Colour = iota
	Blue
	Red
	Green
)

// NumColours is the number of colours (and players) in a game.
const NumColours = 4

const colourLetters = "YBRG"

// String returns the colour's letter: Y, B, R or G.
func (c Colour) String() string {
	if c >= NumColours {
		return "Colour(" + strconv.Itoa(int(c)) + ")"
	}
	return colourLetters[c : c+1]
}

// Letter returns the colour's letter as a byte.
func (c Colour) Letter() byte { return colourLetters[c] }

// Name returns the colour's English name.
func (c Colour) Name() string {
	return [...]string{"Yellow", "Blue", "Red", "Green"}[c]
}

// Next returns the colour that plays after c (to the right).
func (c Colour) Next() Colour { return (c + 1) % NumColours }

// Prev returns the colour that plays before c.
func (c Colour) Prev() Colour { return (c + NumColours - 1) % NumColours }

// Partner returns the colour sitting opposite c: Y–R and B–G.
func (c Colour) Partner() Colour { return (c + 2) % NumColours }

// Pair returns the pair c belongs to.
func (c Colour) Pair() Pair { return Pair(c % 2) }

// ParseColour parses a colour letter.
func ParseColour(s string) (Colour, error) {
	if len(s) == 1 {
		if c, ok := colourOf(s[0]); ok {
			return c, nil
		}
	}
	return 0, fmt.Errorf("bad colour %q: want Y, B, R or G", s)
}

func colourOf(b byte) (Colour, bool) {
	switch b {
	case 'Y':
		return Yellow, true
	case 'B':
		return Blue, true
	case 'R':
		return Red, true
	case 'G':
		return Green, true
	}
	return 0, false
}

// Pair is one of the two partnerships: Yellow–Red and Blue–Green.
type Pair uint8

// The two pairs.
const (
	PairYR Pair = 0
	PairBG Pair = 1
)

// String returns "YR" or "BG", as written in a game record's Result.
func (p Pair) String() string {
	if p == PairYR {
		return "YR"
	}
	return "BG"
}

// Colours returns the two colours of the pair.
func (p Pair) Colours() (Colour, Colour) { return Colour(p), Colour(p) + 2 }

// ParsePair parses "YR" or "BG".
func ParsePair(s string) (Pair, error) {
	switch s {
	case "YR":
		return PairYR, nil
	case "BG":
		return PairBG, nil
	}
	return 0, fmt.Errorf("bad pair %q: want YR or BG", s)
}

// Site is a place a piece can stand: a track square, a home-column square,
// a goal or a home. Its value is its index in the canonical site order of
// NOTATION.md, so sites sort canonically as integers and index arrays of
// per-site data (sensors, lights) directly.
type Site uint8

// Layout of the canonical site order.
const (
	TrackLen   = 68 // track squares 1…68
	ColumnLen  = 7  // home-column squares per colour
	NumSquares = TrackLen + NumColours*ColumnLen
	// NumSites is the number of sites: 68 + 4×(7+1) + 4 = 104.
	NumSites = TrackLen + NumColours*(ColumnLen+1) + NumColours

	firstColumn = TrackLen
	firstHome   = TrackLen + NumColours*(ColumnLen+1)
)

// NoSite stands for "no site", as in a PPN's last-moved field "-".
const NoSite Site = 255

// TrackSite returns track square n (1…68).
func TrackSite(n int) Site { return Site(n - 1) }

// ColumnSite returns square i (1…7) of colour c's home column.
func ColumnSite(c Colour, i int) Site { return Site(firstColumn + int(c)*(ColumnLen+1) + i - 1) }

// GoalSite returns colour c's goal.
func GoalSite(c Colour) Site { return Site(firstColumn + int(c)*(ColumnLen+1) + ColumnLen) }

// HomeSite returns colour c's home.
func HomeSite(c Colour) Site { return Site(firstHome + int(c)) }

// SiteKind tells what sort of place a site is.
type SiteKind uint8

// The kinds of site.
const (
	Track SiteKind = iota
	Column
	Goal
	Home
)

// Kind returns the kind of site s.
func (s Site) Kind() SiteKind {
	switch {
	case s < firstColumn:
		return Track
	case s < firstHome:
		if (s-firstColumn)%(ColumnLen+1) == ColumnLen {
			return Goal
		}
		return Column
	}
	return Home
}

// Owner returns the colour whose column, goal or home s is. It is
// meaningless for track squares.
func (s Site) Owner() Colour {
	if s >= firstHome {
		return Colour(s - firstHome)
	}
	return Colour((s - firstColumn) / (ColumnLen + 1))
}

// Square returns a track square's number (1…68) or a column square's index
// (1…7), and 0 for goals and homes.
func (s Site) Square() int {
	switch s.Kind() {
	case Track:
		return int(s) + 1
	case Column:
		return int(s-firstColumn)%(ColumnLen+1) + 1
	}
	return 0
}

// Valid reports whether s names a site.
func (s Site) Valid() bool { return s < NumSites }

// Holds2 reports whether s is a square that holds at most two pieces (a
// track or home-column square), as opposed to a goal or home.
func (s Site) Holds2() bool { k := s.Kind(); return k == Track || k == Column }

var safeSquare = func() (t [TrackLen]bool) {
	for _, n := range []int{5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68} {
		t[n-1] = true
	}
	return t
}()

// Safe reports whether s is a safe track square (seguro).
func (s Site) Safe() bool { return s < TrackLen && safeSquare[s] }

// ExitSquare returns the track square where colour c's pieces come out.
func ExitSquare(c Colour) Site { return TrackSite(5 + 17*int(c)) }

// EntrySquare returns the last track square before colour c's home column.
func EntrySquare(c Colour) Site { return TrackSite(1 + (67+17*int(c))%TrackLen) }

var siteNames = func() (t [NumSites]string) {
	for s := Site(0); s < NumSites; s++ {
		switch s.Kind() {
		case Track:
			t[s] = strconv.Itoa(int(s) + 1)
		case Column:
			t[s] = s.Owner().String() + strconv.Itoa(s.Square())
		case Goal:
			t[s] = s.Owner().String() + "G"
		case Home:
			t[s] = s.Owner().String() + "H"
		}
	}
	return t
}()

// String returns the site's name in NOTATION.md form: "12", "Y3", "YG", "YH";
// "-" for NoSite.
func (s Site) String() string {
	if s == NoSite {
		return "-"
	}
	if s >= NumSites {
		return "Site(" + strconv.Itoa(int(s)) + ")"
	}
	return siteNames[s]
}

// ParseSite parses a site name in canonical form.
func ParseSite(name string) (Site, error) {
	if s, ok := parseSite(name); ok {
		return s, nil
	}
	return NoSite, fmt.Errorf("bad site %q: want 1…68, Y1…Y7, YG or YH (likewise B, R, G)", name)
}

func parseSite(name string) (Site, bool) {
	if name == "" {
		return NoSite, false
	}
	if name[0] >= '1' && name[0] <= '9' {
		switch len(name) {
		case 1:
			return TrackSite(int(name[0] - '0')), true
		case 2:
			if name[1] < '0' || name[1] > '9' {
				return NoSite, false
			}
			n := int(name[0]-'0')*10 + int(name[1]-'0')
			if n > TrackLen {
				return NoSite, false
			}
			return TrackSite(n), true
		}
		return NoSite, false
	}
	if len(name) != 2 {
		return NoSite, false
	}
	c, ok := colourOf(name[0])
	if !ok {
		return NoSite, false
	}
	switch b := name[1]; {
	case b >= '1' && b <= '7':
		return ColumnSite(c, int(b-'0')), true
	case b == 'G':
		return GoalSite(c), true
	case b == 'H':
		return HomeSite(c), true
	}
	return NoSite, false
}

// Route positions: 0 is home, 1 the exit square, 64 the entry square,
// 65…71 the home column and 72 the goal (RULES.md §1: 71 steps from exit to
// goal).
const (
	routeHome  = 0
	routeEntry = 64
	routeGoal  = 72
)

// routeSite[c][p] is the site at route position p of colour c, and
// routePos[c][s] the route position of site s for colour c, or -1 when s is
// not on c's route.
var routeSite, routePos = func() (rs [NumColours][routeGoal + 1]Site, rp [NumColours][NumSites]int8) {
	for c := Colour(0); c < NumColours; c++ {
		for s := range rp[c] {
			rp[c][s] = -1
		}
		rs[c][routeHome] = HomeSite(c)
		exit := int(ExitSquare(c))
		for p := 1; p <= routeEntry; p++ {
			rs[c][p] = Site((exit + p - 1) % TrackLen)
		}
		for i := 1; i <= ColumnLen; i++ {
			rs[c][routeEntry+i] = ColumnSite(c, i)
		}
		rs[c][routeGoal] = GoalSite(c)
		for p, s := range rs[c] {
			rp[c][s] = int8(p)
		}
	}
	return
}()

// OnRoute reports whether a piece of colour c may ever stand on s.
func OnRoute(c Colour, s Site) bool { return s < NumSites && routePos[c][s] >= 0 }

// Steps returns how many steps forward a piece of colour c takes from site
// from to site to along its route, or -1 when to is not ahead of from (or
// either is off the route).
func Steps(c Colour, from, to Site) int {
	if !OnRoute(c, from) || !OnRoute(c, to) {
		return -1
	}
	d := int(routePos[c][to]) - int(routePos[c][from])
	if d <= 0 {
		return -1
	}
	return d
}

// Advance returns the site n steps ahead of from on colour c's route, and
// false when that would go past the goal. From home it counts from the exit
// square being one step.
func Advance(c Colour, from Site, n int) (Site, bool) {
	if !OnRoute(c, from) {
		return NoSite, false
	}
	p := int(routePos[c][from]) + n
	if p > routeGoal || p < 0 {
		return NoSite, false
	}
	return routeSite[c][p], true
}
