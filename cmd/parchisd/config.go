package main

import (
	"fmt"
	"io"

	"github.com/parchis-table/parchis/config"
	"github.com/parchis-table/parchis/internal/cli"
)

func runConfig(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("config", "[-check FILE]",
		"Prints the default configuration, every setting explained; with -check,\nreads FILE and reports every problem in it (exit 2) or nothing (exit 0).",
		"  parchisd config > parchisd.yaml\n  parchisd config -check parchisd.yaml", stderr)
	check := fs.String("check", "", "check the configuration `FILE`")
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	if *check != "" {
		if _, err := config.LoadAndCheckDaemonFile(*check); err != nil {
			fmt.Fprintf(stderr, "parchisd config: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	stdout.Write(config.DefaultDaemonYAML())
	return exitOK
}

func runHashPassword(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return cli.HashPassword("parchisd", args, stdin, stdout, stderr, exitUsage)
}
