package selftest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeDev points the hints at a folder holding the given device nodes, of
// which those in denied cannot be opened for lack of permission.
func fakeDev(t *testing.T, nodes []string, denied ...string) {
	t.Helper()
	dir := t.TempDir()
	for _, n := range nodes {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	oldDir, oldOpen := devDir, openDev
	devDir = dir
	openDev = func(node string) error {
		for _, d := range denied {
			if node == filepath.Join(dir, d) {
				return &fs.PathError{Op: "open", Path: node, Err: fs.ErrPermission}
			}
		}
		if _, err := os.Stat(node); err != nil {
			return err
		}
		return nil
	}
	t.Cleanup(func() { devDir, openDev = oldDir, oldOpen })
}

// TestHints_SayWhatToDo: every way the check can fail to reach the
// hardware comes with what to do about it.
func TestHints_SayWhatToDo(t *testing.T) {
	tests := []struct {
		name   string
		nodes  []string
		denied []string
		hint   func() string
		want   string
	}{
		{"I2C off", nil, nil, func() string { return i2cHint("") }, "I2C is off: enable it with raspi-config → Interface Options → I2C"},
		{"I2C off, bus named", nil, nil, func() string { return i2cHint("1") }, "dtparam=i2c_arm=on"},
		{"I2C denied", []string{"i2c-1"}, []string{"i2c-1"}, func() string { return i2cHint("1") }, "add yourself to the i2c group (sudo usermod -aG i2c $USER"},
		{"I2C wrong bus", []string{"i2c-1", "i2c-20"}, nil, func() string { return i2cHint("3") }, `there is no I2C bus "3": the buses here are i2c-1, i2c-20; give one with -i2c`},
		{"SPI off", nil, nil, func() string { return spiHint("") }, "SPI is off: enable it with raspi-config → Interface Options → SPI"},
		{"SPI denied", []string{"spidev0.0"}, []string{"spidev0.0"}, func() string { return spiHint("/dev/spidev0.0") }, "sudo -u parchis parchisd check), or add yourself to the spi group"},
		{"SPI wrong port", []string{"spidev0.0", "spidev0.1"}, nil, func() string { return spiHint("SPI1.0") }, `there is no SPI port "SPI1.0": the ports here are spidev0.0, spidev0.1`},
		{"UART off", nil, nil, func() string { return serialHint("/dev/ttyAMA0", fs.ErrNotExist) }, "enable the UART with raspi-config → Interface Options → Serial Port"},
		{"USB adapter unplugged", nil, nil, func() string { return serialHint("/dev/ttyUSB0", fs.ErrNotExist) }, "plug in the RS-485 USB adapter"},
		{"serial denied", nil, nil, func() string { return serialHint("/dev/ttyAMA0", fs.ErrPermission) }, "the dialout group"},
		{"serial not a tty", nil, nil, func() string { return serialHint("/dev/null", fmt.Errorf("not a tty")) }, "login shell No"},
		{"expander", nil, nil, func() string { return expanderHint(0x26, "") }, "A0=0 A1=1 A2=1); i2cdetect -y 1"},
		{"tile on RS-485", nil, nil, func() string { return tileHint(3, true) }, "120 Ω terminator"},
		{"tile on I2C", nil, nil, func() string { return tileHint(3, false) }, "firmware has address 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fakeDev(t, tc.nodes, tc.denied...)
			if got := tc.hint(); !strings.Contains(got, tc.want) {
				t.Errorf("hint %q lacks %q", got, tc.want)
			}
		})
	}
}

// TestCheck_NoI2C_SaysHowToEnableIt: on a machine without I2C (this one,
// unless it is a Pi with I2C on), the check says how to turn it on, not
// only the driver's error.
func TestCheck_NoI2C_SaysHowToEnableIt(t *testing.T) {
	if m, _ := filepath.Glob("/dev/i2c-*"); len(m) > 0 {
		t.Skip("this machine has I2C buses")
	}
	var out, errb bytes.Buffer
	st := Main("parchisd check", []string{"-step", "0"}, &out, &errb)
	if st != ExitMissing {
		t.Fatalf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", st, ExitMissing, out.String(), errb.String())
	}
	text := out.String() + errb.String()
	if !strings.Contains(text, "I2C is off: enable it with raspi-config → Interface Options → I2C") {
		t.Errorf("the check does not say how to enable I2C:\n%s", text)
	}
}
