package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestGet_StampedThenModuleThenRevision(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}
	tests := []struct {
		name     string
		stamped  string
		bi       *debug.BuildInfo
		version  string
		revision string
	}{
		{"no build info", "", nil, "devel", ""},
		{"stamped wins", "1.2.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}, Settings: rev}, "1.2.0", "0123456789ab-dirty"},
		{"module version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "v0.9.0", ""},
		{"devel with revision", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "devel+0123456789ab-dirty", "0123456789ab-dirty"},
		{"devel without", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := get(tc.stamped, tc.bi)
			if in.Version != tc.version || in.Revision != tc.revision {
				t.Errorf("get = %+v, want version %q revision %q", in, tc.version, tc.revision)
			}
			if s := in.String(); !strings.HasPrefix(s, tc.version+" (") || !strings.Contains(s, "go") {
				t.Errorf("String() = %q, want it to start with the version and name the Go release", s)
			}
		})
	}
}

func TestGet_ThisTestBinary(t *testing.T) {
	if v := Get().Version; v == "" {
		t.Fatal("Get().Version is empty")
	}
}
