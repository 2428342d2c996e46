package mcp23017

import (
	"fmt"

	"periph.io/x/conn/v3/i2c"
)

// Opts configures one expander.
type Opts struct {
	// Addr is the chip's I2C address, 0x20…0x27 (A2…A0 strapped).
	Addr uint16
	// PullUp enables the internal 100 kΩ pull-up on every pin, for
	// switches that close to ground.
	PullUp bool
	// Invert inverts every input, so a switch closed to ground reads 1.
	Invert bool
	// Interrupts enables interrupt-on-change on every pin, with INTA and
	// INTB mirrored and open-drain so the INT pins of several chips can be
	// wired together onto one Pi GPIO (active low: falling edge).
	Interrupts bool
}

// DefaultOpts is a chip at 0x20 with switches to ground that read 1 when
// closed, raising its interrupt output on any change.
var DefaultOpts = Opts{Addr: 0x20, PullUp: true, Invert: true, Interrupts: true}

// Dev is one configured MCP23017.
type Dev struct {
	d    i2c.Dev
	opts Opts
	w    [1]byte
	r    [2]byte
}

// New configures the chip at o.Addr on bus: every pin an input, polarity,
// pull-ups and interrupts as o says. It validates o before touching the
// bus, and fails if the chip does not answer.
func New(bus i2c.Bus, o *Opts) (*Dev, error) {
	if o.Addr < 0x20 || o.Addr > 0x27 {
		return nil, fmt.Errorf("mcp23017: address %#02x out of range 0x20…0x27", o.Addr)
	}
	d := &Dev{d: i2c.Dev{Bus: bus, Addr: o.Addr}, opts: *o}
	if err := d.init(); err != nil {
		return nil, fmt.Errorf("mcp23017 at %#02x: %w", o.Addr, err)
	}
	return d, nil
}

func (d *Dev) init() error {
	// A chip left with IOCON.BANK = 1 has IOCON at 0x05: clear it there.
	// With BANK = 0 this writes GPINTENB, which the next write sets anyway.
	if err := d.d.Tx([]byte{regIOCONBank1, 0}, nil); err != nil {
		return err
	}
	var ipol, pu byte
	if d.opts.Invert {
		ipol = 0xFF
	}
	if d.opts.PullUp {
		pu = 0xFF
	}
	iocon := byte(0)
	if d.opts.Interrupts {
		iocon = ioconMIRROR | ioconODR
	}
	// IODIRA…GPPUB in one sequential write; interrupts stay off until the
	// first read has cleared any that are pending.
	w := []byte{
		regIODIRA,
		0xFF, 0xFF, // IODIR: all inputs
		ipol, ipol, // IPOL
		0, 0, // GPINTEN
		0, 0, // DEFVAL
		0, 0, // INTCON: compare with the previous value
		iocon, iocon, // IOCON
		pu, pu, // GPPU
	}
	if err := d.d.Tx(w, nil); err != nil {
		return err
	}
	if _, err := d.Read(); err != nil {
		return err
	}
	if d.opts.Interrupts {
		if err := d.d.Tx([]byte{regGPINTENA, 0xFF, 0xFF}, nil); err != nil {
			return err
		}
	}
	return nil
}

// Addr returns the chip's I2C address.
func (d *Dev) Addr() uint16 { return d.opts.Addr }

// Read returns the sixteen inputs in one bus transaction: bit i is GPAi for
// i < 8 and GPB(i-8) above. Reading clears the chip's interrupt.
func (d *Dev) Read() (uint16, error) {
	d.w[0] = regGPIOA
	if err := d.d.Tx(d.w[:], d.r[:]); err != nil {
		return 0, fmt.Errorf("mcp23017 at %#02x: %w", d.opts.Addr, err)
	}
	return uint16(d.r[0]) | uint16(d.r[1])<<8, nil
}

// String returns the chip's name and address.
func (d *Dev) String() string { return fmt.Sprintf("MCP23017{%#02x}", d.opts.Addr) }
