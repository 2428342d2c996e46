package main

import (
	"fmt"
	"io"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/internal/cli"
	"github.com/parchis-table/parchis/internal/spanish"
)

func runConfig(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l := spanish.LocaleLang()
	fs := newFlags("config", l.Pick("[-check FILE]", "[-check FICHERO]"), l.Pick(
		"Prints the default configuration, every setting explained; with -check,\nreads FILE and reports every problem in it (exit 2) or nothing (exit 0).",
		"Escribe la configuración por defecto, con cada ajuste explicado; con -check,\nlee FICHERO e informa de cada problema que tenga (estado 2) o de nada\n(estado 0)."),
		"  parchisd config > parchisd.yaml\n  parchisd config -check parchisd.yaml", stderr)
	check := fs.String("check", "", l.Pick("check the configuration `FILE`", "comprueba el `FICHERO` de configuración"))
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if *check != "" {
		if _, err := config.LoadAndCheckDaemonFile(*check); err != nil {
			fmt.Fprintf(stderr, "parchisd config: %s\n", l.Say(err.Error()))
			return exitUsage
		}
		return exitOK
	}
	if l == spanish.Spanish {
		stdout.Write(config.DefaultDaemonYAMLSpanish())
	} else {
		stdout.Write(config.DefaultDaemonYAML())
	}
	return exitOK
}

func runHashPassword(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.HashPassword("parchisd", args, stdin, stdout, stderr, exitUsage)
}
