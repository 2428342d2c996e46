// Package engine implements the rules of parchís por parejas exactly as
// RULES.md states them, and the notation of NOTATION.md: sites and routes,
// positions (PPN and JSON), legal moves with every obligation, throws and
// moves with their bonuses, penalties and the end of the game, and game
// records that replay.
//
// A Position is a plain value with no pointers: copy it to explore, compare
// it with ==. Legal-move generation and move application allocate nothing,
// so the referee and self-play can call them in their hot loops. The
// package does no I/O beyond the io.Reader and io.Writer it is handed, and
// reads no clock.
package engine
