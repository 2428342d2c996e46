package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/parchis-table/parchis/firmware/avrsim"
	"github.com/parchis-table/parchis/firmware/tile"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/hw/tiles/tilestest"
)

// referenceLine serves tiles 1…4 of the Go reference (firmware/tile) on a
// pseudo-terminal, behind a transceiver that echoes the Pi's requests, and
// returns the path of the tty parchisd opens.
func referenceLine(t *testing.T) (*tilestest.Line, string) {
	t.Helper()
	m, path, err := serial.OpenPTY()
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	// Held open, and never read, so that the line is not hung up when
	// one run of parchisd closes the tty.
	hold, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := tilestest.NewLine()
	line.Echo = true
	for a := uint8(1); a <= 4; a++ {
		if err := line.PowerUp(a, 10*uint16(a), tile.Schedule{Muxes: 4, PerMux: 13}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := line.Serve(ctx, m); err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Serve: %v", err)
		}
	}()
	t.Cleanup(func() {
		hold.Close()
		cancel()
		wg.Wait()
	})
	return line, path
}

// tilesCmd runs parchisd tiles with args.
func tilesCmd(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	st := run(append([]string{"tiles"}, args...), strings.NewReader(""), &o, &e)
	return st, o.String(), e.String()
}

// wantTable checks that out holds each of rows, a table's rows with their
// cells separated by any run of spaces.
func wantTable(t *testing.T, out string, rows ...string) {
	t.Helper()
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		got = append(got, strings.Join(strings.Fields(l), " "))
	}
	for _, r := range rows {
		found := false
		for _, g := range got {
			found = found || g == r
		}
		if !found {
			t.Errorf("no row %q in:\n%s", r, out)
		}
	}
}

const tilesLayout = "../../config/examples/layout-tiles.yaml"

func TestTiles_ShowAndCalibrateTheReference(t *testing.T) {
	line, tty := referenceLine(t)
	cfg := filepath.Join(t.TempDir(), "parchisd.yaml")
	abs, _ := filepath.Abs(tilesLayout)
	if err := os.WriteFile(cfg, []byte("layout: "+abs+"\nsensors:\n  backend: tiles\n  serial: "+tty+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	st, out, errs := tilesCmd("-config", cfg, "show")
	if st != exitOK {
		t.Fatalf("show: exit %d: %s", st, errs)
	}
	wantTable(t, out,
		"tile boot channels one two hysteresis colours",
		"1 10 52 180 420 30 north Yellow, south Red",
		"4 40 52 180 420 30 north Yellow, south Red")

	st, out, errs = tilesCmd("-config", cfg, "calibrate", "-all", "-set", "200,480,25", "-colours", "B,G")
	if st != exitOK {
		t.Fatalf("calibrate -all: exit %d: %s", st, errs)
	}
	wantTable(t, out,
		"tile one two hysteresis colours baselines",
		"1 200 480 25 north Blue, south Green kept",
		"4 200 480 25 north Blue, south Green kept")

	// -set alone keeps the colours; -colours alone keeps the thresholds.
	if st, _, errs = tilesCmd("-serial", tty, "calibrate", "-addr", "2", "-set", "150,400,20"); st != exitOK {
		t.Fatalf("-set alone: exit %d: %s", st, errs)
	}
	if st, _, errs = tilesCmd("-serial", tty, "calibrate", "-addr", "3", "-colours", "none", "-empty"); st != exitOK {
		t.Fatalf("-colours alone: exit %d: %s", st, errs)
	}
	st, out, errs = tilesCmd("-serial", tty, "-layout", tilesLayout, "show")
	if st != exitOK {
		t.Fatalf("show -layout: exit %d: %s", st, errs)
	}
	wantTable(t, out,
		"1 10 52 200 480 25 north Blue, south Green",
		"2 20 52 150 400 20 north Blue, south Green",
		"3 30 52 200 480 25 not read")

	// A tile that does not answer is named; the others are still set.
	line.Remove(4)
	st, out, errs = tilesCmd("-config", cfg, "calibrate", "-all", "-set", "180,420,30")
	if st != exitFail || !strings.Contains(errs, "tile 4: no answer") || !strings.Contains(errs, "1 of 4 tiles failed") {
		t.Errorf("tile 4 gone: exit %d, stderr %q", st, errs)
	}
	wantTable(t, out, "1 180 420 30 north Blue, south Green kept", "4 no answer")
	if st, _, errs = tilesCmd("-serial", tty, "show", "-addr", "4"); st != exitFail || !strings.Contains(errs, "tile 4: no answer") {
		t.Errorf("show -addr 4 with tile 4 gone: exit %d, stderr %q", st, errs)
	}
}

// TestTiles_Spanish: the tables and the failures in the locale's
// language, the numbers and colours' letters as they are.
func TestTiles_Spanish(t *testing.T) {
	line, tty := referenceLine(t)
	t.Setenv("LANG", "es_ES.UTF-8")
	st, out, errs := tilesCmd("-serial", tty, "-layout", tilesLayout, "show")
	if st != exitOK {
		t.Fatalf("show: exit %d: %s", st, errs)
	}
	wantTable(t, out,
		"placa arranque canales one two hysteresis colores",
		"1 10 52 180 420 30 norte Amarillo, sur Rojo")
	line.Remove(4)
	st, out, errs = tilesCmd("-serial", tty, "calibrate", "-addr", "3,4", "-colours", "none", "-empty")
	if st != exitFail || !strings.Contains(errs, "placa 4: no responde") || !strings.Contains(errs, "fallaron 1 de 2 placas") {
		t.Errorf("tile 4 gone: exit %d, stderr %q", st, errs)
	}
	wantTable(t, out, "placa one two hysteresis colores referencias", "3 180 420 30 no se leen de la siguiente lectura", "4 no responde")
}

// TestTiles_EmulatedChipKeepsThresholdsThroughAReset sets thresholds on
// the compiled firmware, resets the chip and reads them back from its
// EEPROM.
func TestTiles_EmulatedChipKeepsThresholdsThroughAReset(t *testing.T) {
	dir := avrsim.Require(t)
	chip, err := avrsim.Start(dir, avrsim.Opts{Tiles: []avrsim.Tile{{Addr: 1, Boots: 6}, {Addr: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := chip.Close(); err != nil {
			t.Error(err)
		}
	})
	for _, a := range []uint8{1, 2} {
		if err := chip.Settle(a); err != nil {
			t.Fatal(err)
		}
	}
	timeout := avrsim.AnswerTimeout.String()
	st, out, errs := tilesCmd("-serial", chip.PTY, "-timeout", timeout, "calibrate", "-addr", "1", "-set", "260,450,10", "-colours", "B,G")
	if st != exitOK {
		t.Fatalf("calibrate: exit %d: %s", st, errs)
	}
	wantTable(t, out, "1 260 450 10 north Blue, south Green kept")

	if err := chip.Reset(1); err != nil {
		t.Fatal(err)
	}
	if err := chip.Settle(1); err != nil {
		t.Fatal(err)
	}
	st, out, errs = tilesCmd("-serial", chip.PTY, "-timeout", timeout, "show", "-addr", "1,2")
	if st != exitOK {
		t.Fatalf("show: exit %d: %s", st, errs)
	}
	wantTable(t, out,
		"1 8 52 260 450 10 north Blue, south Green", // boot 7, then 8 after the reset
		"2 1 52 180 420 30 north Yellow, south Red")

	if err := chip.Mute(2, true); err != nil {
		t.Fatal(err)
	}
	if st, _, errs = tilesCmd("-serial", chip.PTY, "-timeout", timeout, "calibrate", "-addr", "2", "-empty"); st != exitFail || !strings.Contains(errs, "tile 2: no answer") {
		t.Errorf("tile 2 muted: exit %d, stderr %q", st, errs)
	}
}

// TestTiles_BadUsageRefusedBeforeTheLine gives a serial port that does not
// exist: each mistake must be reported (exit 2) before it is opened (exit
// 1).
func TestTiles_BadUsageRefusedBeforeTheLine(t *testing.T) {
	const tty = "/nonexistent/ttyAMA0"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-serial", tty, "calibrate", "-addr", "1", "-set", "300,200,20"}, "-set 300,200,20: ONE (300) must be below TWO (200)"},
		{[]string{"-serial", tty, "calibrate", "-addr", "1", "-set", "30,200,30"}, "HYSTERESIS (30) must be below ONE (30)"},
		{[]string{"-serial", tty, "calibrate", "-addr", "1", "-set", "180,5000,30"}, `"5000" is not a count of 0…4095`},
		{[]string{"-serial", tty, "calibrate", "-addr", "1", "-set", "180,420"}, "want three numbers"},
		{[]string{"-serial", tty, "calibrate", "-addr", "1", "-colours", "Y,P"}, `-colours Y,P: south: bad colour "P"`},
		{[]string{"-serial", tty, "calibrate", "-addr", "1", "-colours", "R,R"}, "north and south are both Red"},
		{[]string{"-serial", tty, "calibrate", "-addr", "0", "-empty"}, `-addr 0: "0" is not a tile address (1…247)`},
		{[]string{"-serial", tty, "calibrate", "-addr", "3,3", "-empty"}, "tile 3 named twice"},
		{[]string{"-serial", tty, "calibrate", "-all", "-empty"}, "give the layout with -layout FILE"},
		{[]string{"-serial", tty, "calibrate", "-empty"}, "name the tiles with -addr N,… or -all"},
		{[]string{"-serial", tty, "calibrate", "-addr", "1"}, "nothing to set"},
		{[]string{"-serial", tty, "show", "-addr", "1", "-set", "180,420,30"}, "show takes -addr only"},
		{[]string{"-serial", tty, "-layout", "../../config/layout.yaml", "show"}, `sensors of kind "direct", not tiles`},
		{[]string{"-serial", tty, "-timeout", "1ms", "show", "-addr", "1"}, "-timeout 1ms"},
		{[]string{"-serial", tty, "calibrate-all"}, `want show or calibrate, not "calibrate-all"`},
		{[]string{"show", "-addr", "1"}, "want -config FILE or -serial DEV"},
		{[]string{"-config", "../../config/parchisd.yaml", "show"}, `sensors.backend "sim"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			st, out, errs := tilesCmd(tc.args...)
			if st != exitUsage || !strings.Contains(errs, tc.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", st, out, errs, exitUsage, tc.want)
			}
		})
	}
}
