// Package board holds the physical board as plain data: what the site
// sensors report (a Snapshot) and what the lights under the sites show (a
// Frame). It is shared by the hardware layer, which produces snapshots and
// displays frames, and by the referee, which reads the one and writes the
// other; it does no I/O.
package board

import "github.com/parchis-table/parchis/engine"

// Reading is what the sensor under one site reports.
type Reading struct {
	// Count is the number of pieces on the site (0…2 on squares, 0…4 in
	// goals and homes).
	Count uint8
	// Coloured tells whether ByColour is known; presence-only sensors leave
	// it false.
	Coloured bool
	// ByColour counts the pieces of each colour when Coloured is true.
	ByColour [engine.NumColours]uint8
}

// Caps tells what the site sensors can know, and so what the referee can
// compare of a reading.
type Caps struct {
	// Counts is true when readings are piece counts; false when they only
	// tell presence (Count is 0 or 1 whatever the number of pieces: one
	// switch per site), or, for a site with several channels, how many of
	// them are closed.
	Counts bool
	// Colours is true when readings carry colours (Reading.Coloured).
	Colours bool
}

// Snapshot is one stable reading of every site, indexed by engine.Site.
type Snapshot struct {
	Sites [engine.NumSites]Reading
}

// Pattern is how a light shows its colour over time.
type Pattern uint8

// The light patterns. Blinking and pulsing are animated by the hardware
// layer, not by whoever builds the frame.
const (
	Off Pattern = iota
	Steady
	Blink
	Pulse
)

// RGB is a light's colour at full brightness.
type RGB struct{ R, G, B uint8 }

// Light is one light's colour and pattern.
type Light struct {
	Colour  RGB
	Pattern Pattern
}

// TrayLights is the number of lights around the dice tray.
const TrayLights = 12

// Frame is what every light shows: one under each site, indexed by
// engine.Site, and those around the dice tray.
type Frame struct {
	Sites [engine.NumSites]Light
	Tray  [TrayLights]Light
}

// Expected returns what colour-aware sensors read when the pieces stand as
// in pos.
func Expected(pos *engine.Position) Snapshot {
	var s Snapshot
	for c := engine.Colour(0); c < engine.NumColours; c++ {
		for _, site := range pos.Pieces(c) {
			r := &s.Sites[site]
			r.Count++
			r.Coloured = true
			r.ByColour[c]++
		}
	}
	return s
}
