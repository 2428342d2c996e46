package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/parchis-table/parchis/board"
	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/engine"
	"github.com/parchis-table/parchis/internal/testnet"
	"github.com/parchis-table/parchis/referee"
	"github.com/parchis-table/parchis/termboard"
)

func TestBanner_SaysWhatRunsAndWhere(t *testing.T) {
	for _, tc := range []struct {
		name    string
		change  func(*config.Daemon)
		logFile string
		lang    termboard.Lang
		tour    bool
		want    []string
		not     []string
	}{
		{
			name: "defaults", logFile: "parchisd-data/parchisd.log",
			want: []string{
				"dashboard  http://127.0.0.1:8080\n", "user juez, password juez",
				"mosquitto_sub -h 127.0.0.1 -p 1883 -t 'parchis/v1/#' -v\n",
				"data       parchisd-data", "log        parchisd-data/parchisd.log",
				"Ctrl-C stops; the game resumes where it was.", "New here? parchisd sim -tour",
			},
		},
		{
			name: "the tour, in Spanish", logFile: "parchisd-data/tour/parchisd.log", lang: termboard.Spanish, tour: true,
			want: []string{
				"parchisd sim -tour: una partida corta", "panel      http://127.0.0.1:8080\n", "usuario juez, contraseña juez",
				"directo    mosquitto_sub -h 127.0.0.1 -p 1883 -t 'parchis/v1/#' -v\n",
				"registro   parchisd-data/tour/parchisd.log", "Ctrl-C para; la visita empieza de nuevo la próxima vez.",
			},
			not: []string{"resumes", "sigue donde estaba", "¿Primera vez?"},
		},
		{
			name: "judges listed, broker for readers with accounts, under TLS",
			change: func(d *config.Daemon) {
				d.Dashboard.Judges, d.Broker.Anonymous, d.Broker.CA = "judges.txt", false, "ca.pem"
			},
			want: []string{"judges sign in as listed in judges.txt", "--cafile ca.pem -u USER -P PASSWORD"},
			not:  []string{"juez"},
		},
		{
			name:   "listening on every address",
			change: func(d *config.Daemon) { d.Dashboard.Addr, d.Broker.TCP = "0.0.0.0:8080", "0.0.0.0:1884" },
			want:   []string{"http://localhost:8080", "-h localhost -p 1884"},
		},
		{
			name: "no embedded broker nor dashboard",
			change: func(d *config.Daemon) {
				d.Broker.Enabled, d.Dashboard.Enabled, d.MQTT.Broker = false, false, "tcp://broker.club:1883"
			},
			want: []string{"topics parchis/v1/# on tcp://broker.club:1883", "log        this terminal"},
			not:  []string{"dashboard  ", "juez", "mosquitto_sub"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.DefaultDaemon()
			cfg.Dir = "parchisd-data"
			if tc.change != nil {
				tc.change(cfg)
			}
			var b bytes.Buffer
			if tc.lang == "" {
				tc.lang = termboard.English
			}
			if err := writeBanner(&b, cfg, tc.logFile, tc.lang, tc.tour); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("banner lacks %q:\n%s", w, b.String())
				}
			}
			for _, w := range tc.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("banner says %q:\n%s", w, b.String())
				}
			}
		})
	}
}

// TestBanner_SubscribeLineWorks subscribes to the embedded broker as the
// banner's mosquitto_sub line and the README's do: the broker grants them,
// and the wider "#" and "parchis/#" too (narrowed to the feed), while a
// filter outside the feed is refused.
func TestBanner_SubscribeLineWorks(t *testing.T) {
	addr := testnet.Addr(t)
	cfg := config.DefaultDaemon()
	cfg.Broker.TCP = addr
	b, err := broadcast.NewBroker(broadcast.BrokerOpts{TCPAddr: addr, WSAddr: "off", AllowAnonymous: cfg.Broker.Anonymous, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // stops the broker
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^mosquitto_sub -h (\S+) -p (\d+) -t '([^']+)' -v$`).FindStringSubmatch(subscribeLine(cfg))
	if m == nil {
		t.Fatalf("subscribe line %q is not a plain mosquitto_sub", subscribeLine(cfg))
	}
	cli := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + m[1] + ":" + m[2]).SetClientID("banner-test"))
	if tok := cli.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("cannot connect as the line does: %v", tok.Error())
	}
	defer cli.Disconnect(100)
	filters := map[string]bool{m[3]: true, "#": true, "parchis/#": true, "sensors/#": false}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`mosquitto_sub -h 127\.0\.0\.1 -p 1883 -t '([^']+)' -v`).FindAllStringSubmatch(string(readme), -1)
	if len(lines) == 0 {
		t.Error("the README has no mosquitto_sub line for the embedded broker")
	}
	for _, l := range lines {
		filters[l[1]] = true
	}
	for topic, granted := range filters {
		tok := cli.Subscribe(topic, 0, nil)
		if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("subscribe %s: %v", topic, tok.Error())
		}
		code := tok.(*mqtt.SubscribeToken).Result()[topic]
		if (code != 0x80) != granted {
			t.Errorf("subscribe %s: code %#x, want granted %v", topic, code, granted)
		}
	}
}

func TestLangFromEnv_LCAllThenLang(t *testing.T) {
	for _, tc := range []struct {
		lcAll, lcMessages, lang string
		want                    termboard.Lang
	}{
		{"", "", "es_ES.UTF-8", termboard.Spanish},
		{"", "", "en_GB.UTF-8", termboard.English},
		{"", "", "", termboard.English},
		{"en_US.UTF-8", "", "es_ES.UTF-8", termboard.English},
		{"", "es_MX.UTF-8", "C", termboard.Spanish},
	} {
		t.Setenv("LC_ALL", tc.lcAll)
		t.Setenv("LC_MESSAGES", tc.lcMessages)
		t.Setenv("LANG", tc.lang)
		if got := langFromEnv(); got != tc.want {
			t.Errorf("LC_ALL=%q LC_MESSAGES=%q LANG=%q: %s, want %s", tc.lcAll, tc.lcMessages, tc.lang, got, tc.want)
		}
	}
}

func TestScreen_ShowsTheFaultUntilPutRight(t *testing.T) {
	ev := func(typ, rule string) referee.Event { return referee.Event{Type: typ, Colour: "B", Rule: rule} }
	for _, tc := range []struct {
		name   string
		events []referee.Event
		want   string // the rule or type shown; "" for none
	}{
		{"nothing wrong", []referee.Event{ev("throw", ""), ev("move", "")}, ""},
		{"an infraction", []referee.Event{ev("throw", ""), ev("infraction", "touched-piece")}, "touched-piece"},
		{"the mismatch after it keeps the infraction", []referee.Event{ev("infraction", "wrong-count"), ev("mismatch", "")}, "wrong-count"},
		{"a mismatch alone", []referee.Event{ev("mismatch", "")}, "mismatch"},
		{"put right", []referee.Event{ev("infraction", "wrong-count"), ev("mismatch", ""), ev("resolved", "")}, ""},
		{"the next move", []referee.Event{ev("infraction", "touched-piece"), ev("move", "")}, ""},
		{"a judge's correction", []referee.Event{ev("mismatch", ""), ev("correction", "")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &screen{}
			for _, e := range tc.events {
				s.note([]referee.Event{e})
			}
			got := ""
			if s.showing != nil {
				got = s.showing.Rule
				if got == "" {
					got = s.showing.Type
				}
			}
			if got != tc.want {
				t.Errorf("showing %q, want %q", got, tc.want)
			}
		})
	}
	s := &screen{}
	for i := range 10 {
		s.note([]referee.Event{{Seq: uint64(i + 1), Type: "throw"}})
	}
	if len(s.recent) != recentEvents || s.recent[0].Seq != 10-recentEvents+1 {
		t.Errorf("recent events %v, want the last %d", s.recent, recentEvents)
	}
}

// TestScreen_BoardInATerminal_TextDownAPipe draws the same update as a
// terminal and as a pipe get it.
func TestScreen_BoardInATerminal_TextDownAPipe(t *testing.T) {
	pos := engine.NewPosition(engine.Yellow)
	snap := board.Expected(&pos)
	var f board.Frame
	f.Sites[engine.HomeSite(engine.Yellow)] = board.Light{Colour: referee.PlayerColours[engine.Yellow], Pattern: board.Steady}
	events := []referee.Event{{Seq: 1, Type: referee.EventStart, Colour: "Y", Position: pos.String()}}

	var pipe bytes.Buffer
	s := newScreen(&pipe, termboard.Spanish, []string{"HEADER"})
	if s.board {
		t.Fatal("a buffer taken for a terminal")
	}
	if err := s.draw(&snap, &f, pos.String(), events); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"1-17", "posición: - Y throw 0 - Y", "1 start"} {
		if !strings.Contains(pipe.String(), w) {
			t.Errorf("text form lacks %q:\n%s", w, pipe.String())
		}
	}
	if strings.Contains(pipe.String(), "\x1b") || strings.Contains(pipe.String(), "HEADER") {
		t.Errorf("text form has escapes or the header:\n%s", pipe.String())
	}

	var term bytes.Buffer
	s = &screen{w: &term, board: true, cols: 80, lang: termboard.Spanish, header: []string{"HEADER"}}
	if err := s.draw(&snap, &f, pos.String(), events); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(term.String(), "\x1b[H") || !strings.HasSuffix(term.String(), "\x1b[K\n\x1b[J") {
		t.Errorf("the board is not drawn over the screen from its top, clearing what is left: %q…%q", term.String()[:10], term.String()[term.Len()-10:])
	}
	for _, w := range []string{"HEADER", "╭", "AMARILLO", "Empieza una partida: sale Amarillo", "turno"} {
		if !strings.Contains(term.String(), w) {
			t.Errorf("board form lacks %q:\n%s", w, term.String())
		}
	}
}

// TestHeaderLines_Fit80Columns: the lines kept above the board say where
// the dashboard is and how to stop, within 80 columns.
func TestHeaderLines_Fit80Columns(t *testing.T) {
	cfg := config.DefaultDaemon()
	cfg.Dir = "./parchisd-data"
	for _, lang := range []termboard.Lang{termboard.English, termboard.Spanish} {
		for _, tour := range []bool{false, true} {
			lines := headerLines(cfg, logPath(cfg), lang, tour)
			all := strings.Join(lines, "\n")
			for _, w := range []string{"http://127.0.0.1:8080 (juez / juez)", "mosquitto_sub", "parchisd-data/parchisd.log", "Ctrl-C"} {
				if !strings.Contains(all, w) {
					t.Errorf("%s tour %v: header lacks %q:\n%s", lang, tour, w, all)
				}
			}
			for _, l := range lines {
				if n := len([]rune(l)); n > 80 {
					t.Errorf("%s tour %v: %d columns: %q", lang, tour, n, l)
				}
			}
		}
	}
}
