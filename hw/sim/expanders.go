package sim

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3/physic"

	"github.com/parchis-table/parchis/config"
)

// Expanders is an i2c.Bus on which the MCP23017s of a direct layout answer
// as if their switches sat under a Board's pieces: the real direct back-end
// runs on it unchanged. A site with several channels closes as many of them
// as it has pieces.
type Expanders struct {
	b   *Board
	lay *config.Layout

	mu      sync.Mutex
	missing map[uint16]bool
}

// NewExpanders returns the expanders of lay over b.
func NewExpanders(b *Board, lay *config.Layout) *Expanders {
	return &Expanders{b: b, lay: lay, missing: map[uint16]bool{}}
}

// Remove makes the expander at addr stop answering.
func (e *Expanders) Remove(addr uint16) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.missing[addr] = true
}

func (e *Expanders) String() string                  { return "sim-i2c" }
func (e *Expanders) SetSpeed(physic.Frequency) error { return nil }

// Tx implements i2c.Bus: register writes are accepted, a read of GPIOA and
// GPIOB returns the switches.
func (e *Expanders) Tx(addr uint16, w, r []byte) error {
	e.mu.Lock()
	gone := e.missing[addr]
	e.mu.Unlock()
	dev := addr - 0x20
	if gone || addr < 0x20 || dev >= config.MaxExpanders || !e.used(uint8(dev)) {
		return fmt.Errorf("sim-i2c: no device at %#02x", addr)
	}
	if len(r) == 0 {
		return nil
	}
	if len(w) != 1 || w[0] != 0x12 || len(r) != 2 {
		return fmt.Errorf("sim-i2c: %#02x: unsupported read of register % x", addr, w)
	}
	snap := e.b.Pieces()
	var pins uint16
	for s, wi := range e.lay.Sites {
		n := int(snap.Sites[s].Count)
		for _, c := range wi.Sensors {
			if n == 0 {
				break
			}
			if c.Dev == uint8(dev) {
				pins |= 1 << c.Pin
			}
			n--
		}
	}
	r[0], r[1] = byte(pins), byte(pins>>8)
	return nil
}

func (e *Expanders) used(dev uint8) bool {
	for _, d := range e.lay.Devices() {
		if d == dev {
			return true
		}
	}
	return false
}
