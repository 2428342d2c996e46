package selftest

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestMain runs the tests in the English they read, whatever the locale;
// TestCheck_Spanish sets the one it checks.
func TestMain(m *testing.M) {
	os.Setenv("LC_ALL", "")
	os.Setenv("LC_MESSAGES", "")
	os.Setenv("LANG", "C")
	os.Exit(m.Run())
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		want   []string
	}{
		{"AllFound", []string{"-sim", "-pieces", "5:Y,12:YB,YH:YYYY"}, 0, []string{
			"found   expander 0x20", "found   expander 0x26", "lit     116 LEDs", "occupied 5:1 12:1 YH:1", "check: all found"}},
		{"EmptyBoard", []string{"-sim"}, 0, []string{"occupied none"}},
		{"ExpanderMissing", []string{"-sim", "-missing", "0x25"}, 1, []string{
			"MISSING expander 0x25", "A0–A2 pins set address 0x25 (A0=1 A1=0 A2=1); i2cdetect -y 1", "found   expander 0x24", "check: something is missing"}},
		{"Help", []string{"--help"}, 0, nil},
		{"BadFlag", []string{"-bogus"}, 2, nil},
		{"PiecesNeedSim", []string{"-pieces", "5:Y"}, 2, nil},
		{"BadPieces", []string{"-sim", "-pieces", "99:Y"}, 2, nil},
		{"BadLayoutFile", []string{"-sim", "-layout", "/nonexistent/layout.yaml"}, 2, nil},
		{"SerialNeedsTilesLayout", []string{"-serial", "/dev/ttyAMA0"}, 2, nil},
		{"SerialNotWithSim", []string{"-sim", "-serial", "/dev/ttyAMA0"}, 2, nil},
		{"BaudNeedsSerial", []string{"-baud", "115200"}, 2, nil},
		{"NonStandardBaud", []string{"-layout", "../../config/examples/layout-tiles.yaml", "-serial", "/dev/ttyAMA0", "-baud", "250000"}, 2, nil},
		{"SerialPortMissing", []string{"-layout", "../../config/examples/layout-tiles.yaml", "-serial", "/nonexistent/tty"}, 1, []string{
			`MISSING serial port "/nonexistent/tty" for the tiles`, "there is no /nonexistent/tty: enable the UART with raspi-config → Interface Options → Serial Port"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			st := Main("parchis check", tc.args, &out, &errb)
			if st != tc.status {
				t.Fatalf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", st, tc.status, out.String(), errb.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestCheck_HelpHasExample(t *testing.T) {
	var out, errb bytes.Buffer
	Main("parchis check", []string{"--help"}, &out, &errb)
	if !strings.Contains(errb.String(), "parchis check -sim -pieces") {
		t.Errorf("help lacks an example:\n%s", errb.String())
	}
}

// TestCheck_Spanish: under a Spanish locale the check says what it finds
// in Spanish, keeping the sites and addresses it names.
func TestCheck_Spanish(t *testing.T) {
	t.Setenv("LANG", "es_ES.UTF-8")
	var out, errb bytes.Buffer
	st := Main("parchis check", []string{"-sim", "-pieces", "5:Y", "-missing", "0x25"}, &out, &errb)
	if st != ExitMissing {
		t.Fatalf("exit %d, stderr %q", st, errb.String())
	}
	for _, want := range []string{"FALTA   expansor 0x25", "ningún expansor responde en 0x25", "hallado expansor 0x20", "encendidos 116 LED", "check: falta algo"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if st := Main("parchis check", []string{"-sim", "-pieces", "5:Y"}, &out, &errb); st != ExitOK || !strings.Contains(out.String(), "ocupadas 5:1") || !strings.Contains(out.String(), "check: todo encontrado") {
		t.Errorf("exit %d, output:\n%s", st, out.String())
	}
}
