package termboard

import "github.com/parchis-table/parchis/engine"

// The board is drawn on a grid of 19×19 cells, as the real board is laid
// out: four arms of three lanes and eight cells each form a cross around a
// centre of 3×3 cells holding the goals, and the homes fill the four 8×8
// corners. Yellow sits at the bottom right, Blue at the top right, Red at
// the top left, Green at the bottom left; pieces run counter-clockwise
// seen from above, so each colour's exit is on the lane next to its home
// and its entry square is the tip of the arm its column runs up.
const (
	gridSize = 19
	armLen   = 8
)

// cellKind says what a grid cell shows.
type cellKind uint8

const (
	cellNone   cellKind = iota // part of a home corner or of the centre's blank cells
	cellSite                   // a track square, a column square or a goal
	cellCentre                 // the centre of the board
)

type gridCell struct {
	kind cellKind
	site engine.Site
}

// grid maps every cell to what stands there; built once.
var grid = buildGrid()

// homeCorner is the top-left cell of each colour's home corner.
var homeCorner = [engine.NumColours][2]int{
	engine.Colour(0): {11, 11}, // Yellow, bottom right
	engine.Colour(1): {11, 0},  // Blue, top right
	engine.Colour(2): {0, 0},   // Red, top left
	engine.Colour(3): {0, 11},  // Green, bottom left
}

func buildGrid() [gridSize][gridSize]gridCell {
	var g [gridSize][gridSize]gridCell
	put := func(x, y int, s engine.Site) { g[y][x] = gridCell{kind: cellSite, site: s} }
	// The track, walked from square 1: up the right lane of the bottom
	// arm, out along the right arm's lower lane, round its tip, and so on
	// counter-clockwise.
	n := 1
	walk := func(x, y, dx, dy, steps int) {
		for range steps {
			put(x, y, engine.TrackSite(n))
			n++
			x, y = x+dx, y+dy
		}
	}
	walk(10, 18, 0, -1, armLen) // 1…8: bottom arm, right lane, inwards
	walk(11, 10, 1, 0, armLen)  // 9…16: right arm, lower lane, outwards
	walk(18, 9, 0, 0, 1)        // 17: right arm's tip (Blue's entry)
	walk(18, 8, -1, 0, armLen)  // 18…25: right arm, upper lane, inwards
	walk(10, 7, 0, -1, armLen)  // 26…33: top arm, right lane, outwards
	walk(9, 0, 0, 0, 1)         // 34: top arm's tip (Red's entry)
	walk(8, 0, 0, 1, armLen)    // 35…42: top arm, left lane, inwards
	walk(7, 8, -1, 0, armLen)   // 43…50: left arm, upper lane, outwards
	walk(0, 9, 0, 0, 1)         // 51: left arm's tip (Green's entry)
	walk(0, 10, 1, 0, armLen)   // 52…59: left arm, lower lane, inwards
	walk(8, 11, 0, 1, armLen)   // 60…67: bottom arm, left lane, outwards
	walk(9, 18, 0, 0, 1)        // 68: bottom arm's tip (Yellow's entry)
	// Each column runs from its arm's tip to the centre, and its goal is
	// the centre's cell next to it.
	column := [engine.NumColours]struct{ x, y, dx, dy int }{
		{9, 17, 0, -1}, // Yellow: up the bottom arm
		{17, 9, -1, 0}, // Blue: along the right arm, leftwards
		{9, 1, 0, 1},   // Red: down the top arm
		{1, 9, 1, 0},   // Green: along the left arm, rightwards
	}
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		k := column[c]
		x, y := k.x, k.y
		for i := 1; i <= engine.ColumnLen; i++ {
			put(x, y, engine.ColumnSite(c, i))
			x, y = x+k.dx, y+k.dy
		}
		put(x, y, engine.GoalSite(c))
	}
	g[9][9] = gridCell{kind: cellCentre}
	return g
}
