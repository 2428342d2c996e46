//go:build tinygo

// Command main is the sensor tile firmware for an RP2040: it scans the hall
// sensors through the multiplexers, classifies and debounces every channel,
// and answers the Pi's frames on the RS-485 line (UART0 with a
// driver-enable pin). All logic is in firmware/tile and firmware/protocol.
package main

import (
	"device/rp"
	"machine"
	"time"

	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/firmware/tile"
)

// Board wiring of the tile (rev A).
var (
	selectPins = [4]machine.Pin{machine.GPIO2, machine.GPIO3, machine.GPIO4, machine.GPIO5}
	adcPins    = [4]machine.Pin{machine.ADC0, machine.ADC1, machine.ADC2, machine.ADC3}
	addrPins   = [4]machine.Pin{machine.GPIO10, machine.GPIO11, machine.GPIO12, machine.GPIO13}
	driverEn   = machine.GPIO6 // RS-485 transceiver DE/RE
)

type front struct{ adc [4]machine.ADC }

func (f *front) Select(a uint8) {
	for i, p := range selectPins {
		p.Set(a&(1<<i) != 0)
	}
	time.Sleep(5 * time.Microsecond) // multiplexer and sensor output settle
}

func (f *front) Read(m int) uint16 { return f.adc[m].Get() >> 4 } // 12 bits

func main() {
	machine.InitADC()
	var fr front
	for i, p := range adcPins {
		fr.adc[i] = machine.ADC{Pin: p}
		fr.adc[i].Configure(machine.ADCConfig{})
	}
	for _, p := range selectPins {
		p.Configure(machine.PinConfig{Mode: machine.PinOutput})
	}
	addr := uint8(protocol.MinAddr)
	for i, p := range addrPins {
		p.Configure(machine.PinConfig{Mode: machine.PinInputPullup})
		if !p.Get() { // a closed address switch pulls low
			addr += 1 << i
		}
	}
	driverEn.Configure(machine.PinConfig{Mode: machine.PinOutput})
	driverEn.Low()
	uart := machine.UART0
	uart.Configure(machine.UARTConfig{BaudRate: protocol.Baud, TX: machine.UART0_TX_PIN, RX: machine.UART0_RX_PIN})

	var boot [2]byte
	if n, err := machine.GetRNG(); err == nil {
		boot[0], boot[1] = byte(n), byte(n>>8)
	}
	t := &tile.Tile{
		Addr:     addr,
		Boot:     uint16(boot[0]) | uint16(boot[1])<<8,
		Schedule: tile.Schedule{Muxes: 4, PerMux: 13},
		Class:    tile.DefaultClassifier,
		Deb:      tile.Debouncer{N: 4},
	}
	t.Calibrate(&fr)

	var in [protocol.MaxFrameLen]byte
	n := 0
	next := time.Now()
	for {
		if time.Since(next) >= 0 {
			t.Step(&fr)
			next = next.Add(2 * time.Millisecond)
		}
		for uart.Buffered() > 0 && n < len(in) {
			b, _ := uart.ReadByte()
			in[n] = b
			n++
		}
		_, used, err := protocol.Decode(in[:n])
		switch {
		case err == protocol.ErrShort:
			if n == len(in) {
				n = 0
			}
			continue
		case err != nil:
			n = copy(in[:], in[used:n])
			continue
		}
		if resp := t.Handle(in[:used]); resp != nil {
			driverEn.High()
			uart.Write(resp)
			for uart.Bus.UARTFR.HasBits(rp.UART0_UARTFR_BUSY) { // until the last bit is out
			}
			driverEn.Low()
		}
		n = copy(in[:], in[used:n])
	}
}
