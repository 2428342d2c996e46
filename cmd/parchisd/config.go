package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/parchis-table/parchis/broadcast"
	"github.com/parchis-table/parchis/config"
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
	fs := newFlags("hash-password", "< PASSWORD",
		"Reads a password from standard input and prints the hash to put in a broker\nuser's password field.",
		"  echo 'secret' | parchisd hash-password\n  pbkdf2-sha256$100000$…", stderr)
	if st := parseFlags(fs, args); st >= 0 {
		return st
	}
	line, err := bufio.NewReader(stdin).ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		fmt.Fprintf(stderr, "parchisd hash-password: no password on standard input (%v)\n", err)
		return exitUsage
	}
	h, err := broadcast.HashPassword(line)
	if err != nil {
		fmt.Fprintf(stderr, "parchisd hash-password: %v\n", err)
		return exitFail
	}
	fmt.Fprintln(stdout, h)
	return exitOK
}
