package main

import (
	"io"

	"github.com/parchis-table/parchis/hw/selftest"
)

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return selftest.Main("parchis check", args, stdout, stderr)
}
