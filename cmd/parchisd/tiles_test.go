package main

import (
	"testing"

	"github.com/parchis-table/parchis/firmware/protocol"
)

// FuzzTilesValues feeds parchisd tiles' value parsers anything: what they
// accept must be what a tile accepts, so it is never refused on the line.
func FuzzTilesValues(f *testing.F) {
	for _, s := range []string{"180,420,30", "300,200,20", "0,1,0", "4094,4095,4093", "1,2", "Y,R", "none", "R,R", "1,2,3", "247", "3,3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := parseThresholds(s); err == nil && c != nil {
			if verr := c.Validate(); verr != nil {
				t.Errorf("-set %q accepted as %+v: %v", s, *c, verr)
			}
		}
		if c, err := parseColours(s); err == nil && c != nil {
			full := protocol.Calibration{One: 180, Two: 420, Hysteresis: 30, Colours: c.Colours, North: c.North, South: c.South}
			if verr := full.Validate(); verr != nil || (c.Colours && c.North == c.South) {
				t.Errorf("-colours %q accepted as %+v: %v", s, *c, verr)
			}
		}
		if as, err := parseAddrs(s); err == nil {
			seen := map[uint8]bool{}
			for _, a := range as {
				if a < protocol.MinAddr || a > protocol.MaxAddr || seen[a] {
					t.Errorf("-addr %q accepted as %v", s, as)
				}
				seen[a] = true
			}
			if len(as) == 0 {
				t.Errorf("-addr %q accepted as no tile", s)
			}
		}
	})
}
