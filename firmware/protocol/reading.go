package protocol

// Reading is one channel's classified reading on the wire, one byte:
//
//	bits 0…2  piece count (0…7)
//	bit  3    colours known
//	bits 4…5  colour of the first piece (0 Yellow, 1 Blue, 2 Red, 3 Green)
//	bits 6…7  colour of the second piece
//
// Colours of pieces beyond the second are not carried.
type Reading uint8

// MakeReading builds a reading of n pieces with no colours.
func MakeReading(n uint8) Reading { return Reading(n & 7) }

// MakeColoured builds a reading of n (1 or 2) pieces with colours c0, c1
// (c1 ignored when n is 1).
func MakeColoured(n, c0, c1 uint8) Reading {
	r := Reading(n&7) | 1<<3 | Reading(c0&3)<<4
	if n >= 2 {
		r |= Reading(c1&3) << 6
	}
	return r
}

// Count returns the piece count.
func (r Reading) Count() uint8 { return uint8(r & 7) }

// Coloured reports whether the colours are known.
func (r Reading) Coloured() bool { return r&(1<<3) != 0 && r.Count() > 0 }

// Colour returns the colour of piece i (0 or 1).
func (r Reading) Colour(i int) uint8 { return uint8(r>>(4+2*i)) & 3 }

// Changes payload layout.
const (
	ChangesHeader = 4 // Boot, Seq
	ChangeRecord  = 4 // number, channel, reading
	// MaxRecords is the most change records in one KindChanges frame.
	MaxRecords = (MaxPayload - ChangesHeader) / ChangeRecord
	// SnapshotHeader is Boot, Seq, channel count.
	SnapshotHeader = 5
)

// Change is one change record: channel Channel read Reading from change
// number Num on.
type Change struct {
	Num     uint16
	Channel uint8
	Reading Reading
}
