package main

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/config"
)

// writeBanner tells a newcomer what the simulated table runs and where to
// find it: the dashboard with its demo login, a subscription to the live
// feed that the broker accepts, the data folder, the log and how to stop.
// logFile is "" when the log goes to the terminal.
func writeBanner(w io.Writer, cfg *config.Daemon, logFile string) error {
	var b strings.Builder
	b.WriteString("parchisd sim: a simulated parchís table — four simulated players, the referee,\n")
	b.WriteString("the lights, the journal, the live feed and the judges' dashboard.\n")
	row := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "  %-10s %s\n", label, fmt.Sprintf(format, args...))
	}
	if cfg.Dashboard.Enabled {
		row("dashboard", "%s", dashboardURL(cfg))
		if cfg.Dashboard.Judges == "" {
			row("", "sign in as the demo judge: user juez, password juez")
		} else {
			row("", "judges sign in as listed in %s", cfg.Dashboard.Judges)
		}
	}
	if sub := subscribeLine(cfg); sub != "" {
		row("live feed", "%s", sub)
	}
	row("data", "%s (journal, finished games, the table's key)", cfg.Dir)
	if logFile != "" {
		row("log", "%s", logFile)
	} else {
		row("log", "this terminal (standard error)")
	}
	b.WriteString("Ctrl-C stops; the game resumes where it was.\n")
	_, err := io.WriteString(w, b.String())
	return err
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
// is drawn (the drawing clears the screen, and the banner with it).
func headerLines(cfg *config.Daemon, logFile string) []string {
	first := "parchisd sim"
	if cfg.Dashboard.Enabled {
		first += " · dashboard " + dashboardURL(cfg)
		if cfg.Dashboard.Judges == "" {
			first += " (juez / juez)"
		}
	}
	lines := []string{first}
	if sub := subscribeLine(cfg); sub != "" {
		lines = append(lines, "feed: "+sub)
	}
	last := "Ctrl-C stops; the game resumes where it was"
	if logFile != "" {
		last = "log: " + logFile + " · " + last
	}
	return append(lines, last)
}

func dashboardURL(cfg *config.Daemon) string {
	scheme := "http"
	if cfg.Dashboard.Cert != "" {
		scheme = "https"
	}
	return scheme + "://" + dialable(cfg.Dashboard.Addr)
}
