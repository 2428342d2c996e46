package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parchisd config -check and the daemon read a configuration with the
// same check: every problem at once, with its line and field, exit 2.
func TestConfigCheck_SameAsTheDaemon_EveryProblemExit2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(path, []byte(`dir: `+t.TempDir()+`
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
`), 0o644)
	want := []string{"line 3: mqtt.broker", "line 5: broker.tcp", "line 7: broker.users[0].event", "line 7: broker.users[0].table", "line 11: dashboard.judges"}
	for _, args := range [][]string{{"config", "-check", path}, {"sim", "-config", path}, {"run", "-config", path}} {
		var out, errb bytes.Buffer
		st := run(args, nil, &out, &errb)
		if st != exitUsage {
			t.Errorf("%v: exit %d, want %d\n%s", args, st, exitUsage, errb.String())
		}
		for _, w := range want {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%v: %s\nlacks %q", args, errb.String(), w)
			}
		}
	}
	var out, errb bytes.Buffer
	good := filepath.Join(t.TempDir(), "good.yaml")
	os.WriteFile(good, []byte("table: t2\n"), 0o644)
	if st := run([]string{"config", "-check", good}, nil, &out, &errb); st != exitOK {
		t.Errorf("a good file: exit %d: %s", st, errb.String())
	}
}
