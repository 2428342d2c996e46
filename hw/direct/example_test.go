package direct_test

import (
	"context"
	"fmt"
	"log"

	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/host/v3"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/hw"
	"github.com/parchis-table/parchis/hw/direct"
	"github.com/parchis-table/parchis/hw/sim"
)

// The standard table on a Pi: seven expanders on I2C bus 1, their
// interrupt line on GPIO17, debounced by the Watcher.
func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	bus, err := i2creg.Open("1")
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()

	d, err := direct.New(bus, gpioreg.ByName("GPIO17"), config.DefaultLayout(), &direct.DefaultOpts)
	if err != nil {
		log.Fatal(err) // names every expander that did not answer
	}
	w, err := hw.NewWatcher(d, &hw.DefaultWatchOpts)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx)
	for c := range w.Changes() {
		fmt.Println(c.At, c.Snapshot.Sites[engine.TrackSite(5)].Count, c.Err)
	}
}

// One scan of the standard board's expanders, emulated on an in-memory
// I2C bus (hw/sim) so the example runs anywhere.
func Example_scan() {
	lay := config.DefaultLayout()
	b := sim.NewBoard(nil)
	b.Place(engine.TrackSite(5), engine.Yellow)
	b.Place(engine.HomeSite(engine.Red), engine.Red)

	d, err := direct.New(sim.NewExpanders(b, lay), nil, lay, &direct.DefaultOpts)
	if err != nil {
		log.Fatal(err)
	}
	var s board.Snapshot
	if err := d.Scan(context.Background(), &s); err != nil {
		log.Fatal(err)
	}
	fmt.Println("expanders:", len(d.Chips()))
	for x, r := range s.Sites {
		if r.Count > 0 {
			fmt.Printf("%v: %d\n", engine.Site(x), r.Count)
		}
	}
	// Output:
	// expanders: 7
	// 5: 1
	// RH: 1
}
