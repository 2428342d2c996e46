package mcp23017

import (
	"errors"
	"strings"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
)

// setUp is the golden exchange of New with DefaultOpts at addr.
func setUp(addr uint16, gpio ...byte) []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: addr, W: []byte{0x05, 0x00}},
		{Addr: addr, W: []byte{0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0x44, 0x44, 0xFF, 0xFF}},
		{Addr: addr, W: []byte{0x12}, R: gpio},
		{Addr: addr, W: []byte{0x04, 0xFF, 0xFF}},
	}
}

func TestNew_SetUpAndScan(t *testing.T) {
	ops := append(setUp(0x21, 0x00, 0x00), i2ctest.IO{Addr: 0x21, W: []byte{0x12}, R: []byte{0x81, 0x40}})
	bus := &i2ctest.Playback{Ops: ops}
	o := DefaultOpts
	o.Addr = 0x21
	d, err := New(bus, &o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Read()
	if err != nil {
		t.Fatal(err)
	}
	if want := uint16(0x4081); got != want {
		t.Errorf("Read() = %#04x, want %#04x (GPA0, GPA7, GPB6)", got, want)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestNew_NoInterruptsNoPullUps(t *testing.T) {
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x20, W: []byte{0x05, 0x00}},
		{Addr: 0x20, W: []byte{0x00, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{Addr: 0x20, W: []byte{0x12}, R: []byte{0, 0}},
	}}
	if _, err := New(bus, &Opts{Addr: 0x20}); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestNew_BadAddress(t *testing.T) {
	bus := &i2ctest.Playback{}
	_, err := New(bus, &Opts{Addr: 0x40})
	if err == nil || !strings.Contains(err.Error(), "0x40") {
		t.Fatalf("err = %v, want an error naming 0x40", err)
	}
	if bus.Count != 0 {
		t.Error("the bus was used before the options were validated")
	}
}

func TestNew_MissingChipNamed(t *testing.T) {
	bus := &i2ctest.Playback{DontPanic: true} // no ops: every Tx fails
	_, err := New(bus, &Opts{Addr: 0x26})
	if err == nil || !strings.Contains(err.Error(), "mcp23017 at 0x26") {
		t.Fatalf("err = %v, want an error naming the chip", err)
	}
	if errors.Unwrap(err) == nil {
		t.Error("error does not wrap the bus error")
	}
}
