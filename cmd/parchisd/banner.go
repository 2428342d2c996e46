package main

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/termboard"
)

// writeBanner tells a newcomer what the simulated table runs and where to
// find it: the dashboard with its demo login, a subscription to the live
// feed that the broker accepts, the data folder, the log and how to stop.
// logFile is "" when the log goes to the terminal.
func writeBanner(w io.Writer, cfg *config.Daemon, logFile string, lang termboard.Lang, tour bool) error {
	var b strings.Builder
	if tour {
		b.WriteString(lang.Pick("parchisd sim -tour: one short game on the simulated table that stages every\nfault the table flags and stops on each to explain it.\n",
			"parchisd sim -tour: una partida corta en la mesa simulada que escenifica cada\nfalta que la mesa señala y se para en cada una para explicarla.\n"))
	} else {
		b.WriteString(lang.Pick("parchisd sim: a simulated parchís table — four simulated players, the referee,\nthe lights, the journal, the live feed and the judges' dashboard.\n",
			"parchisd sim: una mesa de parchís simulada — cuatro jugadores simulados, el árbitro,\nlas luces, el diario, la retransmisión y el panel de los jueces.\n"))
	}
	row := func(label, text string) {
		fmt.Fprintf(&b, "  %-10s %s\n", label, text)
	}
	if cfg.Dashboard.Enabled {
		row(lang.Pick("dashboard", "panel"), dashboardURL(cfg))
		if cfg.Dashboard.Judges == "" {
			row("", lang.Pick("sign in as the demo judge: user juez, password juez", "entra como el juez de prueba: usuario juez, contraseña juez"))
		} else {
			row("", lang.Pick("judges sign in as listed in ", "los jueces entran como dice ")+cfg.Dashboard.Judges)
		}
	}
	if sub := subscribeLine(cfg); sub != "" {
		row(lang.Pick("live feed", "directo"), sub)
	}
	row(lang.Pick("data", "datos"), cfg.Dir+lang.Pick(" (journal, finished games, the table's key)", " (diario, partidas terminadas, clave de la mesa)"))
	if logFile != "" {
		row(lang.Pick("log", "registro"), logFile)
	} else {
		row(lang.Pick("log", "registro"), lang.Pick("this terminal (standard error)", "este terminal (salida de errores)"))
	}
	b.WriteString(stopLine(lang, tour) + ".\n")
	if !tour {
		b.WriteString(lang.Pick("New here? parchisd sim -tour shows every fault the table flags, explained.\n",
			"¿Primera vez? parchisd sim -tour enseña cada falta que la mesa señala, explicada.\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// stopLine says how to stop, and what happens next time.
func stopLine(lang termboard.Lang, tour bool) string {
	if tour {
		return lang.Pick("Ctrl-C stops; the tour starts afresh next time", "Ctrl-C para; la visita empieza de nuevo la próxima vez")
	}
	return lang.Pick("Ctrl-C stops; the game resumes where it was", "Ctrl-C para; la partida sigue donde estaba")
}

// subscribeLine returns a mosquitto_sub command that shows the live feed,
// or "" when there is no broker. The broker lets readers in only under
// the feed's root (parchis/v1/), so the obvious 'parchis/#' is refused.
func subscribeLine(cfg *config.Daemon) string {
	topics := "parchis/" + broadcast.Version + "/#"
	if cfg.Broker.Enabled {
		host, port, err := net.SplitHostPort(cfg.Broker.TCP)
		if err != nil {
			return ""
		}
		line := fmt.Sprintf("mosquitto_sub -h %s -p %s -t '%s' -v", dialHost(host), port, topics)
		if cfg.Broker.CA != "" {
			line += " --cafile " + cfg.Broker.CA
		}
		if !cfg.Broker.Anonymous {
			line += " -u USER -P PASSWORD"
		}
		return line
	}
	if cfg.MQTT.Broker == "" {
		return ""
	}
	return fmt.Sprintf("topics %s on %s", topics, cfg.MQTT.Broker)
}

// dialable turns a listening address into one a browser on this machine
// can open: a wildcard host becomes localhost.
func dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return net.JoinHostPort(dialHost(host), port)
}

func dialHost(host string) string {
	if host == "" || host == "0.0.0.0" || host == "::" {
		return "localhost"
	}
	return host
}

// logPath is where the simulated table writes its log while the terminal
// shows the board.
func logPath(cfg *config.Daemon) string { return filepath.Join(cfg.Dir, "parchisd.log") }

// headerLines are the banner's essentials, kept above the board while it
// is drawn (the drawing covers the banner).
func headerLines(cfg *config.Daemon, logFile string, lang termboard.Lang, tour bool) []string {
	first := "parchisd sim"
	if tour {
		first += " -tour"
	}
	if cfg.Dashboard.Enabled {
		first += lang.Pick(" · dashboard ", " · panel ") + dashboardURL(cfg)
		if cfg.Dashboard.Judges == "" {
			first += " (juez / juez)"
		}
	}
	lines := []string{first}
	if sub := subscribeLine(cfg); sub != "" {
		lines = append(lines, lang.Pick("feed: ", "directo: ")+sub)
	}
	if logFile != "" {
		lines = append(lines, lang.Pick("log: ", "registro: ")+logFile)
	}
	return append(lines, stopLine(lang, tour))
}

func dashboardURL(cfg *config.Daemon) string {
	scheme := "http"
	if cfg.Dashboard.Cert != "" {
		scheme = "https"
	}
	return scheme + "://" + dialable(cfg.Dashboard.Addr)
}
