package serial_test

import (
	"log"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles"
)

// The tiles' RS-485 line on the Pi's UART, under the tiles back-end.
func Example() {
	port, err := serial.Open("/dev/ttyAMA0", &serial.DefaultOpts) // 230400 baud, 100 ms
	if err != nil {
		log.Fatal(err)
	}
	defer port.Close()

	lay := config.DefaultLayout() // a layout of kind tiles, in practice
	d, err := tiles.New(&tiles.Serial{Port: port}, lay, &tiles.DefaultOpts)
	if err != nil {
		log.Fatal(err) // names every silent tile and every tile short of channels
	}
	log.Println("tiles", d.Tiles())
}
