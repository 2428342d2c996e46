// Package referee turns what happens on the physical table — stable sensor
// snapshots, throws read by the dice camera, judges' commands, each with its
// time — into the game's moves and infractions, the events that report them
// and the frame the board's lights show. It owns the engine's game state,
// does no I/O and reads no clock: the same inputs always give the same
// outputs, so a recorded input stream replays exactly.
//
// Each snapshot is read in turn as: the game's board (perhaps with pieces
// the rules sent home still standing: what is owed, owed.go); the outcome
// of a legal move, a kill made in either order included (recognise.go); a
// piece in hand; or else a board no legal outcome explains. People count a
// piece out square by square, so such a board is only provisional: it is
// flagged, mismatch and infraction (infraction.go), when it has held still
// for the grace time or the next throw comes (timing.go). A throw is taken
// when nothing is owed, else it names the first thing owed in the order of
// play (throw.go). The lights show all of it (lights.go).
package referee
