package avrsim_test

import (
	"strings"
	"testing"

	"github.com/parchis-table/parchis/firmware/avrsim"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles"
)

// TestHarness_CatchesEarlyLineRelease runs a broken build that drops the
// transceiver's enable before its last stop bit is out: the harness must
// report it, or its silence about the real firmware would prove nothing.
func TestHarness_CatchesEarlyLineRelease(t *testing.T) {
	dir := avrsim.Require(t)
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1}}, Firmware: "tile-fault-early-release.elf"})
	if err != nil {
		t.Fatal(err)
	}
	if err := chip.Settle(1); err != nil {
		t.Fatal(err)
	}
	o := serial.DefaultOpts
	o.Timeout = avrsim.AnswerTimeout
	port, err := serial.Open(chip.PTY, &o)
	if err != nil {
		t.Fatal(err)
	}
	defer port.Close()
	line := &tiles.Serial{Port: port}
	// The bytes all go out, so the Pi reads a good frame: only the enable
	// pin shows the fault (on a real line the last byte would be cut).
	if _, err := line.Exchange(1, protocol.AppendSnapshotReq(nil, 1, 1), make([]byte, 0, protocol.MaxFrameLen)); err != nil {
		t.Fatal(err)
	}
	err = chip.Close()
	if err == nil || !strings.Contains(err.Error(), "line released") {
		t.Errorf("Close = %v, want the early release reported", err)
	}
}
