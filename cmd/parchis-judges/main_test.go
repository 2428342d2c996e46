package main

import (
	"bytes"
	"strings"
	"testing"
)

// The demo judge (juez / juez) is refused on any address beyond this
// machine: anyone on the network could certify.
func TestRun_DemoJudgeOnlyOnLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0", "192.168.1.10:0"} {
		var out, errb bytes.Buffer
		st := run([]string{"-addr", addr, "-broker", "tcp://127.0.0.1:1"}, nil, &out, &errb)
		if st != 2 || !strings.Contains(errb.String(), "demo judge") {
			t.Errorf("-addr %s: exit %d, %q; want 2 and the demo judge refused", addr, st, errb.String())
		}
	}
}
