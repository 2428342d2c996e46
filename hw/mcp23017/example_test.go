package mcp23017_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/parchis-table/parchis/hw/mcp23017"
)

func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("")
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()

	o := mcp23017.DefaultOpts
	o.Addr = 0x21
	d, err := mcp23017.New(bus, &o)
	if err != nil {
		log.Fatal(err)
	}
	pins, err := d.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("switches closed: %016b\n", pins)
}
