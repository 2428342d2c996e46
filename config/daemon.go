package config

import (
	"bytes"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/parchis-table/parchis/bots"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/firmware/protocol"
	"github.com/parchis-table/parchis/hw/serial"
	"github.com/parchis-table/parchis/judges"
	"github.com/parchis-table/parchis/vision"
	"github.com/parchis-table/parchis/vision/learned"
)

// Daemon is the table daemon's configuration (parchisd.yaml). Its defaults
// (DefaultDaemon) run the simulated table as-is on any machine.
type Daemon struct {
	// Event and Table name the table on the live feed:
	// parchis/v1/<event>/<table>/.
	Event string `yaml:"event"`
	Table string `yaml:"table"`
	// Dir keeps the journal, the finished games and the table's key.
	Dir string `yaml:"dir"`
	// Layout is the board layout file; empty uses the standard board's.
	Layout string `yaml:"layout"`
	// Sensors selects and configures the site sensors.
	Sensors Sensors `yaml:"sensors"`
	// Lights configures the LED strip (its kind and brightness are in the
	// layout).
	Lights Lights `yaml:"lights"`
	// Camera configures the dice camera.
	Camera Camera `yaml:"camera"`
	// MQTT is the table's connection to the live feed's broker.
	MQTT MQTT `yaml:"mqtt"`
	// Broker is the embedded broker, for a single table or a club.
	Broker Broker `yaml:"broker"`
	// Dashboard is the judges' dashboard served by the daemon itself.
	Dashboard Dashboard `yaml:"dashboard"`
	// Judges are the judges whose commands and certifications the table
	// accepts.
	Judges []Judge `yaml:"judges"`
	// Metrics is the address of the Prometheus metrics endpoint; empty for
	// none.
	Metrics string `yaml:"metrics"`
	// Log sets the log's level (debug, info, warn, error) and format
	// (text, json).
	Log Log `yaml:"log"`
	// Referee configures how the referee judges what the sensors see.
	Referee Referee `yaml:"referee"`
	// Sim configures the simulated table (parchisd sim).
	Sim Sim `yaml:"sim"`
	// WinChance configures the win chance the table publishes for
	// spectators after every move.
	WinChance WinChance `yaml:"win_chance"`
	// Bots maps colour letters (Y, B, R, G) to the level of the robot
	// partner that plays that colour (random, greedy, mc or mc:N): the
	// lights show its moves and a player makes them. A judge's new-game
	// command may seat others.
	Bots map[string]string `yaml:"bots"`

	// lines maps the fields set in the file read ("broker.users[0].role")
	// to their lines, for the errors.
	lines map[string]int
}

// Referee configures the referee.
type Referee struct {
	// Grace is how long the board must hold still with a piece where no
	// legal move puts it before the table calls it wrong: people count a
	// piece out square by square, and each square passed is a stable
	// snapshot. The next throw ends the grace at once.
	Grace Duration `yaml:"grace"`
}

// Sensors selects the site sensors' back-end.
type Sensors struct {
	// Backend is direct, tiles or sim.
	Backend string `yaml:"backend"`
	// I2CBus names the I2C bus ("" for the first, "1" for /dev/i2c-1).
	I2CBus string `yaml:"i2c_bus"`
	// IRQPin is the GPIO the expanders' interrupt outputs are wired to
	// (e.g. GPIO17); empty polls only.
	IRQPin string `yaml:"irq_pin"`
	// Serial is the serial port of the tiles' RS-485 line (e.g.
	// /dev/ttyAMA0, /dev/ttyUSB0), for backend tiles; empty reaches the
	// tiles over the I2C bus instead.
	Serial string `yaml:"serial"`
	// Baud is the serial line's rate; the tiles' firmware runs at
	// protocol.Baud (230400).
	Baud int `yaml:"baud"`
	// Poll is the safety-net poll interval.
	Poll Duration `yaml:"poll"`
	// Settle is how long a change must hold before it is reported.
	Settle Duration `yaml:"settle"`
}

// Lights configures the lights.
type Lights struct {
	// Backend is spi or sim.
	Backend string `yaml:"backend"`
	// SPIPort names the SPI port ("" for the first, or /dev/spidev0.0).
	SPIPort string `yaml:"spi_port"`
}

// Camera configures the dice camera.
type Camera struct {
	// Source is rpicam (frames piped from rpicam-vid), files (a folder of
	// images, for tests) or sim (synthetic frames of the throws made by
	// the simulated players).
	Source string `yaml:"source"`
	// Command is the camera command for rpicam; it must write YUV420
	// frames of Width×Height to its standard output.
	Command string `yaml:"command"`
	Width   int    `yaml:"width"`
	Height  int    `yaml:"height"`
	FPS     int    `yaml:"fps"`
	// Dir is the folder of images for the files source.
	Dir string `yaml:"dir"`
	// Rest is how long the die must stay still to count as a throw.
	Rest Duration `yaml:"rest"`
	// Calibration is the tray's calibration file written by parchisd
	// calibrate; empty uses the whole frame.
	Calibration string `yaml:"calibration"`
	// Reader is what reads the die: learned (package vision/learned),
	// the only reader; the pip rules of package vision are its witness.
	Reader string `yaml:"reader"`
	// Model is an ONNX model file for the learned reader, replacing the
	// one built in; empty uses the built-in one.
	Model string `yaml:"model"`
	// Profile is the venue's dice, taught by parchisd calibrate -teach or
	// parchis dice teach, for the learned reader; empty reads with the
	// model alone.
	Profile string `yaml:"profile"`
}

// MQTT is the table's broker connection.
type MQTT struct {
	// Broker is the broker's URL (tcp://, ssl://, ws://, wss://).
	Broker   string `yaml:"broker"`
	Username string `yaml:"username"`
	Password string `yaml:"password"`
	// CA, Cert and Key are PEM files for TLS.
	CA   string `yaml:"ca"`
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
}

// Broker is the embedded broker.
type Broker struct {
	// Enabled starts the embedded broker.
	Enabled bool `yaml:"enabled"`
	// TCP and WebSocket are the listeners' addresses ("off" for no
	// WebSocket listener).
	TCP       string `yaml:"tcp"`
	WebSocket string `yaml:"websocket"`
	// CA, Cert and Key put the listeners under TLS.
	CA   string `yaml:"ca"`
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
	// Anonymous lets clients without a username read the feed.
	Anonymous bool `yaml:"anonymous"`
	// Users are the broker's accounts (password: a hash made by
	// parchisd hash-password).
	Users []BrokerUser `yaml:"users"`
	// MaxPacket is the largest MQTT packet accepted, in bytes.
	MaxPacket int `yaml:"max_packet"`
	// MaxClients bounds the open connections and the sessions kept;
	// MaxClientsPerAddr the connections from one IP address.
	MaxClients        int `yaml:"max_clients"`
	MaxClientsPerAddr int `yaml:"max_clients_per_address"`
	// MaxInflight bounds the QoS 1 messages kept for one client, MaxQueued
	// the packets waiting to be written to it.
	MaxInflight int `yaml:"max_inflight"`
	MaxQueued   int `yaml:"max_queued"`
}

// BrokerUser is an account of the embedded broker.
type BrokerUser struct {
	Name     string `yaml:"name"`
	Password string `yaml:"password"`
	Role     string `yaml:"role"` // table, judge or viewer
	Event    string `yaml:"event"`
	Table    string `yaml:"table"`
}

// Dashboard is the judges' dashboard served by the daemon.
type Dashboard struct {
	Enabled bool   `yaml:"enabled"`
	Addr    string `yaml:"addr"`
	// Judges is the file of the judges who may sign in (NAME
	// PASSWORD-HASH KEY-FILE a line, as parchis-judges reads it). Without
	// it the demo judge juez/juez signs in, which is allowed only while the
	// dashboard listens on this machine alone (a loopback address).
	Judges string `yaml:"judges"`
	// TableKeys is the file of the tables' public keys (EVENT/TABLE KEY a
	// line, as parchis-judges reads it): a result signed by another key
	// than its table's is flagged and cannot be certified. This table's own
	// key is always known.
	TableKeys string `yaml:"table_keys"`
	// Lang is the default language: es or en.
	Lang string `yaml:"lang"`
	// Cert and Key, both or neither, are the PEM files to serve the
	// dashboard over HTTPS; judges' cookies are then Secure.
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
}

// Judge is a judge the table accepts.
type Judge struct {
	Name string `yaml:"name"`
	// PublicKey is the judge's Ed25519 public key (base64).
	PublicKey string `yaml:"public_key"`
}

// Log sets up logging.
type Log struct {
	Level  string `yaml:"level"`
	Format string `yaml:"format"`
}

// Sim configures the simulated table.
type Sim struct {
	// Seed makes the simulated game repeatable.
	Seed uint64 `yaml:"seed"`
	// Pace is the time a simulated player takes for one action.
	Pace Duration `yaml:"pace"`
	// Games is how many games to play before stopping (0: for ever).
	Games int `yaml:"games"`
	// Render draws the board and its lights in the terminal.
	Render bool `yaml:"render"`
	// Players names the simulated players: Yellow, Blue, Red, Green.
	Players []string `yaml:"players"`
	// Mistakes gives the rate (0…1) of each kind of mistake a simulated
	// player makes per action: touched-piece, wrong-count, kill-not-done,
	// early-throw, edge (a die landing on its edge).
	Mistakes map[string]float64 `yaml:"mistakes"`
	// Bot is how the simulated players choose their moves: random,
	// greedy, mc or mc:N (the bots package's levels).
	Bot string `yaml:"bot"`
	// Handling gives the rate (0…1) per action of each way a simulated
	// player handles pieces as people do, none of them a fault:
	// count-out (square by square), victim-first (a killed piece taken
	// home before the killing piece is put down; else after), lift-idle
	// (a piece that cannot move lifted and put back), pause (a stop longer
	// than the referee's grace time).
	Handling map[string]float64 `yaml:"handling"`
}

// countOf counts the keys of m whose value is v.
func countOf(m map[string]string, v string) int {
	n := 0
	for _, x := range m {
		if x == v {
			n++
		}
	}
	return n
}

// WinChance configures the spectators' win chance.
type WinChance struct {
	// Playouts is how many games are played on from each position to
	// estimate it (greedy playouts); 0 publishes none.
	Playouts int `yaml:"playouts"`
}

// MistakeKinds are the simulated players' mistakes, in Sim.Mistakes.
var MistakeKinds = []string{"touched-piece", "wrong-count", "kill-not-done", "early-throw", "edge"}

// HandlingKinds are the simulated players' ways of handling pieces, in
// Sim.Handling.
var HandlingKinds = []string{"count-out", "victim-first", "lift-idle", "pause"}

// Duration is a time.Duration written as in Go ("300ms", "2s").
type Duration time.Duration

// UnmarshalYAML reads "300ms"-style durations.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: bad duration %q: want e.g. 300ms or 2s", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as Go does.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

//go:embed parchisd.yaml
var defaultDaemonYAML []byte

// DefaultDaemonYAML returns the text of the default configuration, with
// every setting explained.
func DefaultDaemonYAML() []byte { return append([]byte(nil), defaultDaemonYAML...) }

//go:embed parchisd.es.yaml
var defaultDaemonYAMLSpanish []byte

// DefaultDaemonYAMLSpanish returns the default configuration explained in
// Spanish: the same settings and values as DefaultDaemonYAML, its comments
// said in Spanish.
func DefaultDaemonYAMLSpanish() []byte { return append([]byte(nil), defaultDaemonYAMLSpanish...) }

// DefaultDaemon returns the default configuration: the simulated table,
// with the embedded broker and dashboard on localhost.
func DefaultDaemon() *Daemon {
	d, err := decodeDaemon(defaultDaemonYAML, &Daemon{})
	if err != nil {
		panic("config: embedded parchisd.yaml: " + err.Error())
	}
	return d
}

// LoadDaemon reads a configuration file over the defaults: settings it
// leaves out keep their default values. Unknown fields, bad values and
// missing required ones are errors naming the field and its line.
func LoadDaemon(r io.Reader) (*Daemon, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return decodeDaemon(data, DefaultDaemon())
}

// LoadDaemonFile reads the configuration file at path.
func LoadDaemonFile(path string) (*Daemon, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	d, err := LoadDaemon(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

func decodeDaemon(data []byte, d *Daemon) (*Daemon, error) {
	var errs []error
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("config: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	d.lines = map[string]int{}
	fieldLines(&root, "", d.lines)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(d); err != nil && !errors.Is(err, io.EOF) {
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, fmt.Errorf("config: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		// Every field that did not fit is reported, and the rest is
		// still checked.
		for _, e := range te.Errors {
			errs = append(errs, fmt.Errorf("config: %s", e))
		}
	}
	if err := d.Validate(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return d, nil
}

// fieldLines records the line of every field under n, by its path.
func fieldLines(n *yaml.Node, path string, out map[string]int) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			fieldLines(c, path, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if path != "" {
				k = path + "." + k
			}
			out[k] = n.Content[i].Line
			fieldLines(n.Content[i+1], k, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			k := path + "[" + strconv.Itoa(i) + "]"
			out[k] = c.Line
			fieldLines(c, k, out)
		}
	}
}

// lineOf returns the line of field (or of the nearest enclosing field
// the file sets), or 0.
func (d *Daemon) lineOf(field string) int {
	if i := strings.IndexByte(field, '/'); i >= 0 {
		field = field[:i]
	}
	for field != "" {
		if l, ok := d.lines[field]; ok {
			return l
		}
		i := strings.LastIndexAny(field, ".[")
		if i < 0 {
			break
		}
		field = field[:i]
	}
	return 0
}

// LoadAndCheckDaemonFile reads the configuration file at path as the
// daemon does before it starts anything: every setting checked
// (LoadDaemon) and every file the configuration names present
// (CheckFiles). It reports every problem at once, each with its line
// and field. parchisd run and sim, and parchisd config -check, use it.
func LoadAndCheckDaemonFile(path string) (*Daemon, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	d, err := decodeDaemon(data, DefaultDaemon())
	var errs []error
	if err != nil {
		errs = append(errs, err)
		// The files are checked too, over what could be read.
		d = DefaultDaemon()
		var root yaml.Node
		if yaml.Unmarshal(data, &root) == nil {
			d.lines = map[string]int{}
			fieldLines(&root, "", d.lines)
			_ = root.Decode(d)
		}
	}
	if ferr := d.CheckFiles(); ferr != nil {
		errs = append(errs, ferr)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %w", path, errors.Join(errs...))
	}
	return d, nil
}

// CheckFiles checks that every file the configuration names exists and
// reads as the daemon will read it: the layout, the judges and table keys
// files, the TLS certificates and keys.
func (d *Daemon) CheckFiles() error {
	var errs []error
	files := []struct{ field, path string }{
		{"layout", d.Layout},
		{"camera.calibration", d.Camera.Calibration},
		{"camera.dir", d.Camera.Dir},
		{"mqtt.ca", d.MQTT.CA}, {"mqtt.cert", d.MQTT.Cert}, {"mqtt.key", d.MQTT.Key},
		{"broker.ca", d.Broker.CA}, {"broker.cert", d.Broker.Cert}, {"broker.key", d.Broker.Key},
		{"dashboard.judges", d.Dashboard.Judges}, {"dashboard.table_keys", d.Dashboard.TableKeys},
		{"dashboard.cert", d.Dashboard.Cert}, {"dashboard.key", d.Dashboard.Key},
	}
	for _, f := range files {
		if f.path == "" || (f.field == "camera.dir" && d.Camera.Source != "files") || (strings.HasPrefix(f.field, "broker.") && !d.Broker.Enabled) ||
			(strings.HasPrefix(f.field, "dashboard.") && !d.Dashboard.Enabled) {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			errs = append(errs, d.fieldError(f.field, fmt.Sprintf("%s: %v", f.path, errors.Unwrap(err))))
			continue
		}
		if err := readAs(f.field, f.path); err != nil {
			errs = append(errs, d.fieldError(f.field, fmt.Sprintf("%s: %v", f.path, err)))
		}
	}
	// The learned reader's model is read once: the profile is taught for
	// one model and checked against the one the reader will use.
	var model *learned.Model
	modelRead := true
	if d.Camera.Model != "" {
		var err error
		if model, err = learned.LoadModel(d.Camera.Model); err != nil {
			errs = append(errs, d.fieldError("camera.model", fmt.Sprintf("%s: %v", d.Camera.Model, err)))
			modelRead = false
		}
	}
	if d.Camera.Profile != "" && modelRead {
		if _, err := learned.LoadProfile(d.Camera.Profile, model); err != nil {
			errs = append(errs, d.fieldError("camera.profile", err.Error()))
		}
	}
	pairs := []struct{ field, cert, key string }{
		{"mqtt.cert/key", d.MQTT.Cert, d.MQTT.Key},
		{"broker.cert/key", d.Broker.Cert, d.Broker.Key},
		{"dashboard.cert/key", d.Dashboard.Cert, d.Dashboard.Key},
	}
	for _, p := range pairs {
		if p.cert == "" || p.key == "" || (p.field == "broker.cert/key" && !d.Broker.Enabled) || (p.field == "dashboard.cert/key" && !d.Dashboard.Enabled) {
			continue
		}
		if _, err := tls.LoadX509KeyPair(p.cert, p.key); err != nil && fileExists(p.cert) && fileExists(p.key) {
			errs = append(errs, d.fieldError(p.field, fmt.Sprintf("%s, %s: %v", p.cert, p.key, err)))
		}
	}
	return errors.Join(errs...)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readAs reads a file the configuration names as the daemon reads it.
func readAs(field, path string) error {
	var err error
	switch field {
	case "layout":
		var f *os.File
		if f, err = os.Open(path); err == nil {
			_, err = LoadLayout(f)
			f.Close()
		}
	case "dashboard.judges":
		_, err = judges.LoadJudges(path)
	case "dashboard.table_keys":
		_, err = judges.LoadTableKeys(path)
	case "camera.calibration":
		var cal vision.Calibration
		if cal, err = vision.LoadCalibration(path); err == nil && cal.Background != "" {
			if _, serr := os.Stat(cal.Background); serr != nil {
				err = fmt.Errorf("background: %w", serr)
			}
		}
	case "mqtt.ca", "broker.ca":
		var b []byte
		if b, err = os.ReadFile(path); err == nil && !x509.NewCertPool().AppendCertsFromPEM(b) {
			err = errors.New("no PEM certificate in it")
		}
	}
	if err != nil {
		// The judges' files name themselves in their errors.
		return errors.New(strings.TrimPrefix(err.Error(), path+": "))
	}
	return nil
}

// fieldError is a problem of field, with its line when the file sets it.
func (d *Daemon) fieldError(field, msg string) error {
	if l := d.lineOf(field); l > 0 {
		return fmt.Errorf("config: line %d: %s: %s", l, field, msg)
	}
	return fmt.Errorf("config: %s: %s", field, msg)
}

func rates() string {
	s := make([]string, len(serial.Rates))
	for i, r := range serial.Rates {
		s[i] = strconv.Itoa(r)
	}
	return strings.Join(s, ", ")
}

// loopback reports whether addr (host:port) listens on this machine only.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// Validate checks every setting and returns all the problems at once.
func (d *Daemon) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, d.fieldError(field, fmt.Sprintf(format, args...)))
	}
	addr := func(field, v string, optional bool) {
		if v == "" && optional {
			return
		}
		host, port, err := net.SplitHostPort(v)
		if err != nil {
			bad(field, "%q: want HOST:PORT, such as 127.0.0.1:1883", v)
			return
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			bad(field, "%q: port %q: want 1 to 65535", v, port)
		}
		if strings.ContainsAny(host, " /") {
			bad(field, "%q: bad host %q", v, host)
		}
	}
	oneOf := func(field, v string, allowed ...string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		bad(field, "%q: want one of %s", v, strings.Join(allowed, ", "))
	}
	if !nameRE.MatchString(d.Event) {
		bad("event", "%q: want 1 to 64 letters, digits, '.', '_' or '-'", d.Event)
	}
	if !nameRE.MatchString(d.Table) {
		bad("table", "%q: want 1 to 64 letters, digits, '.', '_' or '-'", d.Table)
	}
	if d.Dir == "" {
		bad("dir", "required: where the journal and games are kept")
	}
	oneOf("sensors.backend", d.Sensors.Backend, "direct", "tiles", "sim")
	if d.Sensors.Serial != "" {
		if d.Sensors.Backend != "tiles" {
			bad("sensors.serial", "%q: only for sensors.backend tiles (leave it empty for %s)", d.Sensors.Serial, d.Sensors.Backend)
		}
		if !strings.HasPrefix(d.Sensors.Serial, "/") {
			bad("sensors.serial", "%q: want the device's path, such as /dev/ttyAMA0", d.Sensors.Serial)
		}
	}
	if !slices.Contains(serial.Rates, d.Sensors.Baud) {
		bad("sensors.baud", "%d: want a standard rate: %s (the tiles run at %d)", d.Sensors.Baud, rates(), protocol.Baud)
	}
	oneOf("lights.backend", d.Lights.Backend, "spi", "sim")
	oneOf("camera.source", d.Camera.Source, "rpicam", "files", "sim")
	if d.Camera.Source == "rpicam" && d.Camera.Command == "" {
		bad("camera.command", "required for camera.source rpicam")
	}
	if d.Camera.Source == "files" && d.Camera.Dir == "" {
		bad("camera.dir", "required for camera.source files")
	}
	if d.Camera.Width < 64 || d.Camera.Height < 64 || d.Camera.Width > 4096 || d.Camera.Height > 4096 {
		bad("camera.width/height", "%d×%d: want 64 to 4096 each", d.Camera.Width, d.Camera.Height)
	}
	if d.Camera.FPS < 1 || d.Camera.FPS > 120 {
		bad("camera.fps", "%d: want 1 to 120", d.Camera.FPS)
	}
	if d.Camera.Reader == "pips" {
		bad("camera.reader", "%q: the pip rules are no reader of their own: they witness the learned reader's unsure dice (write learned)", d.Camera.Reader)
	} else {
		oneOf("camera.reader", d.Camera.Reader, "learned")
	}
	if d.MQTT.Broker != "" {
		u, err := url.Parse(d.MQTT.Broker)
		switch {
		case err != nil || !strings.Contains(d.MQTT.Broker, "://"):
			bad("mqtt.broker", "%q: want a URL such as tcp://127.0.0.1:1883", d.MQTT.Broker)
		case !slices.Contains([]string{"tcp", "ssl", "ws", "wss"}, u.Scheme):
			bad("mqtt.broker", "%q: scheme %q: want tcp, ssl, ws or wss", d.MQTT.Broker, u.Scheme)
		default:
			addr("mqtt.broker", u.Host, false)
		}
	}
	if (d.MQTT.Cert == "") != (d.MQTT.Key == "") {
		bad("mqtt.cert/key", "give both or neither")
	}
	if d.Broker.Enabled {
		addr("broker.tcp", d.Broker.TCP, false)
		if d.Broker.WebSocket != "off" {
			addr("broker.websocket", d.Broker.WebSocket, false)
		}
		if (d.Broker.Cert == "") != (d.Broker.Key == "") {
			bad("broker.cert/key", "give both or neither")
		}
		if d.Broker.CA != "" && d.Broker.Cert == "" {
			bad("broker.ca", "client certificates need the broker's own cert and key")
		}
	}
	if d.Dashboard.Enabled {
		addr("dashboard.addr", d.Dashboard.Addr, false)
	}
	addr("metrics", d.Metrics, true)
	names := map[string]bool{}
	for i, u := range d.Broker.Users {
		f := "broker.users[" + strconv.Itoa(i) + "]"
		if u.Name == "" {
			bad(f+".name", "required")
		} else if names[u.Name] {
			bad(f+".name", "%q: a user of that name is already configured", u.Name)
		}
		names[u.Name] = true
		oneOf(f+".role", u.Role, "table", "judge", "viewer")
		if !strings.HasPrefix(u.Password, "pbkdf2-sha256$") || strings.Count(u.Password, "$") != 3 {
			bad(f+".password", "want a hash made by parchisd hash-password, not the password itself")
		}
		if u.Role == "table" {
			if u.Event == "" {
				bad(f+".event", "required for a table user: the event it publishes under")
			}
			if u.Table == "" {
				bad(f+".table", "required for a table user: the table it publishes as")
			}
		}
		for _, lv := range []struct{ field, v string }{{f + ".event", u.Event}, {f + ".table", u.Table}} {
			if lv.v != "" && !nameRE.MatchString(lv.v) {
				bad(lv.field, "%q: want 1 to 64 letters, digits, '.', '_' or '-'", lv.v)
			}
		}
	}
	between := func(field string, v, lo, hi int) {
		if v < lo || v > hi {
			bad(field, "%d: want %d to %d", v, lo, hi)
		}
	}
	between("broker.max_packet", d.Broker.MaxPacket, 1024, 256<<20)
	between("broker.max_clients", d.Broker.MaxClients, 1, 100_000)
	between("broker.max_clients_per_address", d.Broker.MaxClientsPerAddr, 1, max(d.Broker.MaxClients, 1))
	between("broker.max_inflight", d.Broker.MaxInflight, 1, 65535)
	between("broker.max_queued", d.Broker.MaxQueued, 1, 1<<20)
	if d.Dashboard.Enabled && d.Dashboard.Judges == "" && !loopback(d.Dashboard.Addr) {
		bad("dashboard.judges", "required when the dashboard listens beyond this machine (addr %s): the demo judge would let anyone certify", d.Dashboard.Addr)
	}
	if (d.Dashboard.Cert == "") != (d.Dashboard.Key == "") {
		bad("dashboard.cert/key", "give both or neither")
	}
	if d.Dashboard.Lang != "es" && d.Dashboard.Lang != "en" {
		bad("dashboard.lang", "%q: want es or en", d.Dashboard.Lang)
	}
	for i, j := range d.Judges {
		if j.Name == "" || j.PublicKey == "" {
			bad("judges["+strconv.Itoa(i)+"]", "want a name and a public_key")
			continue
		}
		if k, err := base64.StdEncoding.DecodeString(j.PublicKey); err != nil || len(k) != ed25519.PublicKeySize {
			bad("judges["+strconv.Itoa(i)+"].public_key", "want an Ed25519 public key in standard base64 (%d bytes)", ed25519.PublicKeySize)
		}
	}
	oneOf("log.level", d.Log.Level, "debug", "info", "warn", "error")
	oneOf("log.format", d.Log.Format, "text", "json")
	if len(d.Sim.Players) != 0 && len(d.Sim.Players) != 4 {
		bad("sim.players", "want 4 names (Yellow, Blue, Red, Green), got %d", len(d.Sim.Players))
	}
	for k, v := range d.Sim.Mistakes {
		known := false
		for _, m := range MistakeKinds {
			known = known || m == k
		}
		if !known {
			bad("sim.mistakes."+k, "unknown mistake: want one of %s", strings.Join(MistakeKinds, ", "))
		}
		if v < 0 || v > 1 {
			bad("sim.mistakes."+k, "%v: want a rate from 0 to 1", v)
		}
	}
	if g := d.Referee.Grace.D(); g < 100*time.Millisecond || g > 10*time.Second {
		bad("referee.grace", "%v: want from 100ms to 10s", g)
	}
	for k, v := range d.Sim.Handling {
		if !slices.Contains(HandlingKinds, k) {
			bad("sim.handling."+k, "unknown way of handling pieces: want one of %s", strings.Join(HandlingKinds, ", "))
		}
		if v < 0 || v > 1 {
			bad("sim.handling."+k, "%v: want a rate from 0 to 1", v)
		}
	}
	if d.Sim.Handling["count-out"] > 0 && d.Sim.Pace.D() >= d.Referee.Grace.D() {
		bad("sim.pace", "%v: a piece counted out rests one action on each square, so want less than referee.grace (%v), or count-out 0", d.Sim.Pace.D(), d.Referee.Grace.D())
	}
	if d.Sim.Pace.D() < time.Millisecond {
		bad("sim.pace", "%v: want at least 1ms", d.Sim.Pace.D())
	}
	if _, err := bots.New(d.Sim.Bot, 0); err != nil {
		bad("sim.bot", "%v", err)
	}
	if n := d.WinChance.Playouts; n < 0 || n > 1_000_000 {
		bad("win_chance.playouts", "%d: want 0 (none) to 1000000", n)
	}
	for k, v := range d.Bots {
		if _, err := engine.ParseColour(k); err != nil {
			bad("bots."+k, "%v", err)
		}
		if _, err := bots.New(v, 0); err != nil && v != bots.Person {
			bad("bots."+k, "%v", err)
		}
	}
	if robots := len(d.Bots) - countOf(d.Bots, bots.Person); robots == engine.NumColours {
		bad("bots", "every colour is a bot: a robot partner needs a player to make its moves")
	}
	return errors.Join(errs...)
}
