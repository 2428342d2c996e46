package selftest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// devDir is where device nodes are looked for, and openDev how one is
// tried; tests change both.
var (
	devDir  = "/dev"
	openDev = func(node string) error {
		f, err := os.OpenFile(node, os.O_RDWR, 0)
		if err == nil {
			f.Close()
		}
		return err
	}
)

// The Raspberry Pi's configuration file, named in the hints.
const configTxt = "/boot/firmware/config.txt (/boot/config.txt before Raspberry Pi OS 12)"

// devState says what a device node tells of an interface: none of the
// nodes of pattern exist (the interface is off), the one asked for cannot
// be opened for lack of permission, or they are there.
func devState(pattern, node string) (nodes []string, denied bool) {
	nodes, _ = filepath.Glob(filepath.Join(devDir, pattern))
	if node != "" {
		denied = errors.Is(openDev(node), fs.ErrPermission)
	}
	return nodes, denied
}

// groupHint is what to do when the user may not open a device of group.
func groupHint(node, group string) string {
	return fmt.Sprintf(tr("%s is there but this user may not open it: run the check as the daemon's user (sudo -u parchis parchisd check), or add yourself to the %s group (sudo usermod -aG %s $USER, then log in again)"), node, group, group)
}

func names(nodes []string) string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = filepath.Base(n)
	}
	return strings.Join(out, ", ")
}

// i2cHint says what to do when the I2C bus named bus ("" for the first)
// cannot be opened.
func i2cHint(bus string) string {
	node := ""
	if bus != "" {
		node = filepath.Join(devDir, "i2c-"+strings.TrimPrefix(bus, "/dev/i2c-"))
	}
	nodes, denied := devState("i2c-*", node)
	switch {
	case len(nodes) == 0:
		return fmt.Sprintf(tr("I2C is off: enable it with raspi-config → Interface Options → I2C (or add dtparam=i2c_arm=on to %s), then reboot"), configTxt)
	case denied:
		return groupHint(node, "i2c")
	case bus == "":
		return fmt.Sprintf(tr("the I2C buses here (%s) cannot be opened: run the check as root once to see why (sudo parchisd check)"), names(nodes))
	}
	return fmt.Sprintf(tr("there is no I2C bus %q: the buses here are %s; give one with -i2c (sensors.i2c_bus in parchisd.yaml), \"1\" on a Raspberry Pi"), bus, names(nodes))
}

// spiHint says what to do when the LED strip's SPI port cannot be opened.
func spiHint(port string) string {
	node := ""
	if strings.HasPrefix(port, "/dev/") {
		node = filepath.Join(devDir, strings.TrimPrefix(port, "/dev/"))
	}
	nodes, denied := devState("spidev*", node)
	switch {
	case len(nodes) == 0:
		return fmt.Sprintf(tr("SPI is off: enable it with raspi-config → Interface Options → SPI (or add dtparam=spi=on to %s), then reboot"), configTxt)
	case denied:
		return groupHint(node, "spi")
	}
	return fmt.Sprintf(tr("there is no SPI port %q: the ports here are %s; give one with -spi (lights.spi_port in parchisd.yaml), /dev/spidev0.0 for the strip on pins 19 and 23"), port, names(nodes))
}

// serialHint says what to do when the tiles' serial line cannot be opened.
func serialHint(path string, err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if strings.Contains(path, "USB") || strings.Contains(path, "ACM") {
			return fmt.Sprintf(tr("there is no %s: plug in the RS-485 USB adapter and look for its name with ls /dev/ttyUSB* /dev/serial/by-id/"), path)
		}
		return fmt.Sprintf(tr("there is no %s: enable the UART with raspi-config → Interface Options → Serial Port (login shell over serial: No; serial port hardware: Yes), or add enable_uart=1 to %s, then reboot"), path, configTxt)
	case errors.Is(err, fs.ErrPermission):
		return groupHint(path, "dialout")
	}
	return fmt.Sprintf(tr("%s opened but cannot be set up as a serial line: check that it is the RS-485 adapter or the Pi's UART, and that no login console uses it (raspi-config → Interface Options → Serial Port: login shell No)"), path)
}

// expanderHint says what to do when an MCP23017 does not answer.
func expanderHint(addr uint16, bus string) string {
	if bus == "" {
		bus = "1"
	}
	return fmt.Sprintf(tr("no expander answers at %#02x: check its 3.3 V and ground, SDA and SCL to the Pi's pins 3 and 5, and that its A0–A2 pins set address %#02x (A0=%d A1=%d A2=%d); i2cdetect -y %s lists the addresses that answer (docs/build.md)"),
		addr, addr, addr&1, addr>>1&1, addr>>2&1, bus)
}

// tileHint says what to do when a sensor tile does not answer.
func tileHint(addr uint8, serial bool) string {
	if serial {
		return fmt.Sprintf(tr("tile %d does not answer on the RS-485 line: check its power, that A goes to A and B to B from tile to tile, the 120 Ω terminator at the far end, and that its firmware has address %d (firmware/README.md)"), addr, addr)
	}
	return fmt.Sprintf(tr("tile %d does not answer on the I2C bus: check its power, SDA and SCL, and that its firmware has address %d (firmware/README.md)"), addr, addr)
}

// stripHint says what to do when the strip cannot be driven.
const stripHint = "the SPI port opened but the strip cannot be driven: check the layout's leds.kind (apa102 or ws2812) and count against the strip"

// scanHint says what to do when the sensors were found but a scan fails.
const scanHint = "the sensors answered once but not when read: check the cables and the power of the expanders or tiles, which may come and go"

// hostHint says what to do when periph cannot start its drivers.
const hostHint = "the Pi's drivers could not start: run the check on the Raspberry Pi itself (or -sim elsewhere), as root once to see whether it is a permission"
