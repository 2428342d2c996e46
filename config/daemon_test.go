package config

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/internal/spanish"
)

func TestDefaultDaemon_RunsTheSimulatedTable(t *testing.T) {
	d := DefaultDaemon()
	if d.Sensors.Backend != "sim" || d.Lights.Backend != "sim" || d.Camera.Source != "sim" {
		t.Errorf("defaults are not the simulated table: %+v %+v %+v", d.Sensors, d.Lights, d.Camera)
	}
	if d.MQTT.Broker != "tcp://127.0.0.1:1883" || d.Broker.WebSocket != "127.0.0.1:8083" || d.Dashboard.Addr != "127.0.0.1:8080" {
		t.Errorf("default addresses: %s %s %s", d.MQTT.Broker, d.Broker.WebSocket, d.Dashboard.Addr)
	}
	if d.Event != "local" || d.Table != "1" || !d.Broker.Anonymous || d.Dashboard.Lang != "es" {
		t.Errorf("defaults: event %q table %q anonymous %v lang %q", d.Event, d.Table, d.Broker.Anonymous, d.Dashboard.Lang)
	}
	if d.Camera.Rest.D() != 300*time.Millisecond {
		t.Errorf("camera rest %v, want 300ms", d.Camera.Rest.D())
	}
	if d.Referee.Grace.D() != 1500*time.Millisecond {
		t.Errorf("referee grace %v, want 1.5s", d.Referee.Grace.D())
	}
}

func TestLoadDaemon_OverridesKeepDefaults(t *testing.T) {
	d, err := LoadDaemon(strings.NewReader("table: t7\nsim:\n  pace: 1s\n  mistakes:\n    edge: 0.5\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Table != "t7" || d.Event != "local" || d.Sim.Pace.D() != time.Second {
		t.Errorf("got table %q event %q pace %v", d.Table, d.Event, d.Sim.Pace.D())
	}
	if d.Sim.Mistakes["edge"] != 0.5 || d.Sim.Mistakes["touched-piece"] != 0.02 {
		t.Errorf("mistakes not merged with the defaults: %v", d.Sim.Mistakes)
	}
	for _, k := range HandlingKinds {
		if d.Sim.Handling[k] <= 0 {
			t.Errorf("handling %s is off by default: %v", k, d.Sim.Handling)
		}
	}
}

// A typo or a bad value is an error naming the field (and its line).
func TestLoadDaemon_Errors(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"tabel: 2\n", "line 1: field tabel not found"},
		{"sensors:\n  backnd: sim\n", "line 2: field backnd not found"},
		{"sensors:\n  backend: serial\n", "sensors.backend: \"serial\""},
		{"camera:\n  rest: soon\n", "line 2: bad duration \"soon\""},
		{"camera:\n  fps: 0\n", "camera.fps: 0"},
		{"event: a/b\n", "event: \"a/b\""},
		{"dir: \"\"\n", "dir: required"},
		{"mqtt:\n  broker: 127.0.0.1\n", "mqtt.broker"},
		{"broker:\n  users:\n  - name: t\n    password: secret\n    role: table\n", "broker.users[0].password"},
		{"broker:\n  users:\n  - name: t\n    password: pbkdf2-sha256$1$a$b\n    role: king\n", "broker.users[0].role"},
		{"dashboard:\n  lang: fr\n", "dashboard.lang"},
		{"sim:\n  mistakes:\n    cheating: 0.1\n", "sim.mistakes.cheating: unknown"},
		{"sim:\n  mistakes:\n    edge: 2\n", "sim.mistakes.edge: 2"},
		{"sim:\n  handling:\n    juggle: 0.1\n", "sim.handling.juggle: unknown"},
		{"sim:\n  handling:\n    pause: -1\n", "sim.handling.pause: -1"},
		{"sim:\n  pace: 2s\n", "sim.pace: 2s: a piece counted out rests"},
		{"sim:\n  players: [a, b]\n", "sim.players"},
		{"sim:\n  bot: clever\n", "sim.bot: bad bot \"clever\""},
		{"win_chance:\n  playouts: -1\n", "win_chance.playouts: -1"},
		{"bots:\n  X: greedy\n", "bots.X: bad colour"},
		{"bots:\n  G: mc:0\n", "bots.G: bad bot \"mc:0\""},
		{"bots: {Y: greedy, B: greedy, R: greedy, G: greedy}\n", "bots: every colour is a bot"},
		{"referee:\n  grace: 0s\n", "referee.grace: 0s: want from 100ms to 10s"},
		{"referee:\n  grace: 1m\n", "referee.grace: 1m0s"},
		{"log:\n  level: loud\n", "log.level"},
		{"camera:\n  source: rpicam\n  command: \"\"\n", "camera.command: required"},
		{"dashboard:\n  addr: 0.0.0.0:8080\n", "dashboard.judges: required"},
		{"dashboard:\n  cert: /etc/parchisd/tls.pem\n", "dashboard.cert/key: give both or neither"},
		{"sensors:\n  baud: 250000\n", "sensors.baud: 250000: want a standard rate"},
		{"sensors:\n  baud: 0\n", "sensors.baud: 0"},
		{"sensors:\n  backend: direct\n  serial: /dev/ttyAMA0\n", "sensors.serial: \"/dev/ttyAMA0\": only for sensors.backend tiles"},
		{"sensors:\n  backend: tiles\n  serial: ttyAMA0\n", "sensors.serial: \"ttyAMA0\": want the device's path"},
		{"camera:\n  reader: neural\n", "camera.reader: \"neural\": want one of learned"},
		{"camera:\n  reader: pips\n", "camera.reader: \"pips\": the pip rules are no reader of their own"},
	}
	for _, tc := range cases {
		_, err := LoadDaemon(strings.NewReader(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
}

// Every problem is reported at once.
func TestLoadDaemon_AllProblemsAtOnce(t *testing.T) {
	_, err := LoadDaemon(strings.NewReader("dashboard:\n  lang: fr\nlog:\n  level: loud\n"))
	if err == nil || !strings.Contains(err.Error(), "dashboard.lang") || !strings.Contains(err.Error(), "log.level") {
		t.Fatalf("error %v: want both problems", err)
	}
}

func FuzzLoadDaemon(f *testing.F) {
	f.Add(string(DefaultDaemonYAML()))
	f.Add("table: t7\n")
	f.Add("sim:\n  pace: 1s\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := LoadDaemon(strings.NewReader(s))
		if err == nil {
			if verr := d.Validate(); verr != nil {
				t.Fatalf("loaded a configuration that does not validate: %v", verr)
			}
		}
	})
}

func TestExampleConfigs_Load(t *testing.T) {
	files, _ := filepath.Glob("examples/*.yaml")
	if len(files) == 0 {
		t.Fatal("no example configurations")
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "layout-") {
			continue // board layouts: TestExampleLayouts_Load
		}
		if _, err := LoadDaemonFile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestDefaultDaemon_TilesLineAtTheFirmwareRate(t *testing.T) {
	d := DefaultDaemon()
	if d.Sensors.Serial != "" || d.Sensors.Baud != protocol.Baud {
		t.Errorf("sensors.serial %q, sensors.baud %d: want none and %d", d.Sensors.Serial, d.Sensors.Baud, protocol.Baud)
	}
	d, err := LoadDaemon(strings.NewReader("sensors:\n  backend: tiles\n  serial: /dev/ttyUSB0\n  baud: 921600\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Sensors.Serial != "/dev/ttyUSB0" || d.Sensors.Baud != 921600 {
		t.Errorf("sensors %+v", d.Sensors)
	}
}

// The daemon's own check, as parchisd config -check runs it: every
// problem of a file at once — the settings and the files it names — each
// with its line and field.
func TestLoadAndCheckDaemonFile_EveryProblemWithLineAndField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parchisd.yaml")
	os.WriteFile(path, []byte(`dir: /tmp/x
mqtt:
  broker: http://127.0.0.1:1883
broker:
  tcp: 127.0.0.1:99999
  users:
    - name: t1
      role: table
      password: pbkdf2-sha256$1$a$b
dashboard:
  judges: /nonexistent/judges.txt
metrics: localhost
`), 0o644)
	_, err := LoadAndCheckDaemonFile(path)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`line 3: mqtt.broker: "http://127.0.0.1:1883": scheme "http"`,
		`line 5: broker.tcp: "127.0.0.1:99999": port "99999"`,
		"line 7: broker.users[0].event: required",
		"line 7: broker.users[0].table: required",
		"line 11: dashboard.judges: /nonexistent/judges.txt",
		`line 12: metrics: "localhost": want HOST:PORT`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error\n%v\nlacks %q", err, want)
		}
	}
	// A field that does not fit and a bad value are both reported.
	os.WriteFile(path, []byte("camera:\n  fps: many\nlog:\n  level: loud\n"), 0o644)
	_, err = LoadAndCheckDaemonFile(path)
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "line 4: log.level") {
		t.Errorf("error %v: want line 2 and line 4: log.level", err)
	}
}

func TestValidate_AddressesAndURLs(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"broker:\n  websocket: 127.0.0.1:0\n", "broker.websocket"},
		{"dashboard:\n  addr: nowhere\n", "dashboard.addr"},
		{"mqtt:\n  broker: tcp://127.0.0.1\n", "mqtt.broker"},
		{"mqtt:\n  broker: mqtt://127.0.0.1:1883\n", `scheme "mqtt"`},
		{"mqtt:\n  cert: /a.pem\n", "mqtt.cert/key"},
		{"broker:\n  users:\n  - {name: a, role: judge, password: pbkdf2-sha256$1$a$b}\n  - {name: a, role: judge, password: pbkdf2-sha256$1$a$b}\n", "broker.users[1].name"},
		{"broker:\n  users:\n  - {name: a, role: table, event: e/1, table: t, password: pbkdf2-sha256$1$a$b}\n", "broker.users[0].event"},
		{"broker:\n  max_packet: 10\n", "broker.max_packet"},
		{"broker:\n  max_clients: 4\n  max_clients_per_address: 8\n", "broker.max_clients_per_address"},
	}
	for _, tc := range cases {
		_, err := LoadDaemon(strings.NewReader(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
	if _, err := LoadDaemon(strings.NewReader("mqtt:\n  broker: wss://broker.example:8883\nbroker:\n  websocket: \"off\"\n")); err != nil {
		t.Errorf("valid settings refused: %v", err)
	}
}

// The files are read as the daemon reads them: a judges file with a bad
// line, a layout that does not load, a CA without a certificate, a judge's
// key that is not one.
func TestCheckFiles_ReadAsTheDaemonReadsThem(t *testing.T) {
	dir := t.TempDir()
	judgesFile := filepath.Join(dir, "judges.txt")
	os.WriteFile(judgesFile, []byte("ana not-a-hash\n"), 0o644)
	layout := filepath.Join(dir, "layout.yaml")
	os.WriteFile(layout, []byte("nonsense: [\n"), 0o644)
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, []byte("not a certificate\n"), 0o644)
	path := filepath.Join(dir, "parchisd.yaml")
	os.WriteFile(path, []byte("layout: "+layout+"\nmqtt:\n  ca: "+ca+"\ndashboard:\n  judges: "+judgesFile+"\njudges:\n  - {name: ana, public_key: abc}\n"), 0o644)
	_, err := LoadAndCheckDaemonFile(path)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"line 1: layout: ", "line 3: mqtt.ca: ", "no PEM certificate", "line 5: dashboard.judges: ", "line 7: judges[0].public_key"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error\n%v\nlacks %q", err, want)
		}
	}
}

// The learned reader's model and profile are read as the daemon reads
// them: a file that is no model, or a profile that is no profile, is an
// error naming the field and its line.
func TestCheckFiles_CameraModelAndProfile(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "dice.onnx")
	os.WriteFile(model, []byte("not a model"), 0o644)
	profile := filepath.Join(dir, "dice.json")
	os.WriteFile(profile, []byte(`{"faces": 3}`), 0o644)
	for _, tc := range []struct {
		yaml string
		want []string
	}{
		{"camera:\n  reader: learned\n  model: " + model + "\n", []string{"line 3: camera.model: " + model}},
		{"camera:\n  reader: learned\n  profile: " + profile + "\n", []string{"line 3: camera.profile: " + profile}},
		{"camera:\n  reader: learned\n  profile: " + filepath.Join(dir, "none.json") + "\n", []string{"line 3: camera.profile: ", "none.json"}},
	} {
		path := filepath.Join(dir, "parchisd.yaml")
		os.WriteFile(path, []byte(tc.yaml), 0o644)
		_, err := LoadAndCheckDaemonFile(path)
		if err == nil {
			t.Errorf("%q: no error", tc.yaml)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: error\n%v\nlacks %q", tc.yaml, err, want)
			}
		}
	}
	// the built-in model with no profile is a good configuration
	path := filepath.Join(dir, "good.yaml")
	os.WriteFile(path, []byte("camera:\n  reader: learned\n"), 0o644)
	if _, err := LoadAndCheckDaemonFile(path); err != nil {
		t.Errorf("reader learned with the built-in model: %v", err)
	}
}

// TestDefaultDaemonYAMLSpanish: the Spanish default configuration holds
// the English one's settings, line for line, and its comments are in
// Spanish.
func TestDefaultDaemonYAMLSpanish(t *testing.T) {
	settings := func(b []byte) (lines []string, comments string) {
		for _, l := range strings.Split(string(b), "\n") {
			setting, comment, _ := strings.Cut(l, "#")
			if setting = strings.TrimRight(setting, " "); setting != "" {
				lines = append(lines, setting)
			}
			comments += comment + "\n"
		}
		return lines, comments
	}
	en, _ := settings(DefaultDaemonYAML())
	es, comments := settings(DefaultDaemonYAMLSpanish())
	if !slices.Equal(en, es) {
		t.Errorf("the settings differ:\n%s\n---\n%s", strings.Join(en, "\n"), strings.Join(es, "\n"))
	}
	den, err := LoadDaemon(bytes.NewReader(DefaultDaemonYAML()))
	if err != nil {
		t.Fatal(err)
	}
	des, err := LoadDaemon(bytes.NewReader(DefaultDaemonYAMLSpanish()))
	if err != nil {
		t.Fatal(err)
	}
	den.lines, des.lines = nil, nil // where each setting is: the comments differ in length
	if !reflect.DeepEqual(den, des) {
		t.Errorf("the Spanish configuration loads to %+v, the English one to %+v", des, den)
	}
	// The comments name settings and values, which stay as they are: a
	// broker user's table, camera.source's files.
	for _, w := range spanish.EnglishIn(comments) {
		if w != "table" && w != "files" {
			t.Errorf("English word %q in the Spanish comments", w)
		}
	}
}
