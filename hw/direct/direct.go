// Package direct is the sensor back-end of reed or hall switches wired to
// MCP23017 expanders on the Pi's I2C bus: one switch per site (or per slot
// of a goal or home), presence only.
//
// Up to eight expanders (0x20…0x27) share the bus. A scan reads each chip's
// sixteen pins in one transaction. The chips' interrupt outputs, mirrored
// and open-drain, are wired together onto one Pi GPIO: a falling edge makes
// the hw.Watcher scan at once, and its slow poll is the safety net.
package direct

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/hw/mcp23017"
)

// Opts configures the back-end.
type Opts struct {
	// Chip is applied to every expander; its Addr is ignored (each
	// expander's address is 0x20 plus its device number in the layout).
	Chip mcp23017.Opts
	// EdgeWait bounds each wait for an interrupt edge, and so how long the
	// interrupt goroutine takes to notice that its context is done.
	EdgeWait time.Duration
}

// DefaultOpts: switches to ground, interrupts on.
var DefaultOpts = Opts{Chip: mcp23017.DefaultOpts, EdgeWait: 100 * time.Millisecond}

// unused marks a pin no site uses.
const unused = 0xFF

// Dev is the set of expanders of a board.
type Dev struct {
	chips []*mcp23017.Dev
	irq   gpio.PinIn
	opts  Opts
	// site[i][p] is the site of pin p of chips[i], or unused.
	site [][16]uint8
	pins []uint16
}

// New sets up every expander the layout uses on bus. irq is the shared
// interrupt line, or nil to rely on polling. It validates the layout before
// touching the bus; a chip that fails set-up is named in the error (every
// failing chip is listed).
func New(bus i2c.Bus, irq gpio.PinIn, lay *config.Layout, o *Opts) (*Dev, error) {
	if lay.Sensors.Kind != config.SensorsDirect {
		return nil, fmt.Errorf("direct: layout has sensors of kind %q, want %q", lay.Sensors.Kind, config.SensorsDirect)
	}
	if o.Chip.Interrupts && irq != nil && o.EdgeWait <= 0 {
		return nil, errors.New("direct: EdgeWait must be positive")
	}
	devs := lay.Devices()
	d := &Dev{irq: irq, opts: *o, site: make([][16]uint8, len(devs)), pins: make([]uint16, len(devs))}
	index := map[uint8]int{}
	for i, n := range devs {
		index[n] = i
		for p := range d.site[i] {
			d.site[i][p] = unused
		}
	}
	for s, w := range lay.Sites {
		for _, c := range w.Sensors {
			if c.Dev >= config.MaxExpanders || c.Pin >= 16 {
				return nil, fmt.Errorf("direct: site %v: channel %v out of range", s, c)
			}
			d.site[index[c.Dev]][c.Pin] = uint8(s)
		}
	}
	if irq != nil {
		if err := irq.In(gpio.PullUp, gpio.FallingEdge); err != nil {
			return nil, fmt.Errorf("direct: interrupt pin %s: %w", irq, err)
		}
	}
	var errs []error
	for _, n := range devs {
		co := o.Chip
		co.Addr = 0x20 + uint16(n)
		c, err := mcp23017.New(bus, &co)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d.chips = append(d.chips, c)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return d, nil
}

// Chips returns the I2C addresses of the expanders, in scan order.
func (d *Dev) Chips() []uint16 {
	a := make([]uint16, len(d.chips))
	for i, c := range d.chips {
		a[i] = c.Addr()
	}
	return a
}

// Caps implements hw.Scanner: presence only.
func (d *Dev) Caps() hw.Caps { return hw.Caps{} }

// Scan implements hw.Scanner: one bus transaction per expander.
func (d *Dev) Scan(_ context.Context, dst *board.Snapshot) error {
	for i, c := range d.chips {
		v, err := c.Read()
		if err != nil {
			return err
		}
		d.pins[i] = v
	}
	d.Decode(dst, d.pins)
	return nil
}

// Decode turns the pins read from each expander, in scan order, into a
// snapshot: each closed switch adds one to its site's count.
func (d *Dev) Decode(dst *board.Snapshot, pins []uint16) {
	*dst = board.Snapshot{}
	for i, v := range pins[:len(d.site)] {
		tab := &d.site[i]
		for ; v != 0; v &= v - 1 {
			if s := tab[bits.TrailingZeros16(v)]; s != unused {
				dst.Sites[s].Count++
			}
		}
	}
}

// Notify implements hw.Notifier with the shared interrupt line; nil when
// there is none.
func (d *Dev) Notify(ctx context.Context) <-chan struct{} {
	if d.irq == nil {
		return nil
	}
	ch := make(chan struct{}, 1)
	go func() {
		for ctx.Err() == nil {
			if d.irq.WaitForEdge(d.opts.EdgeWait) {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return ch
}
