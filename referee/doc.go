// Package referee turns what happens on the physical table — stable sensor
// snapshots, throws read by the dice camera, judges' commands, each with its
// time — into the game's moves and infractions, the events that report them
// and the frame the board's lights show. It owns the engine's game state,
// does no I/O and reads no clock: the same inputs always give the same
// outputs, so a recorded input stream replays exactly.
package referee
