// Package version tells which build of the project is running: the
// version package.sh stamps in with -ldflags, else the module's version or
// the VCS revision Go records in the binary, else "devel". Every command's
// --version, the status topic and the parchis_build_info metric say it.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Version is set at link time by package.sh:
//
//	go build -ldflags "-X github.com/parchis-table/parchis/internal/version.Version=1.2.0"
//
// Left empty, Get reads the build information instead.
var Version string

// Info is what a binary knows of its build.
type Info struct {
	// Version is package.sh's version, the module's, or "devel".
	Version string
	// Revision is the VCS commit (with "-dirty" for uncommitted changes),
	// or "" when the build did not record it (go build -buildvcs=false).
	Revision string
	// GoVersion is the Go release that built the binary.
	GoVersion string
}

// Get returns the running binary's build information.
func Get() Info {
	return get(Version, readBuildInfo())
}

func readBuildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}

// get is Get on a given stamped version and build information, for tests.
func get(stamped string, bi *debug.BuildInfo) Info {
	in := Info{Version: stamped, GoVersion: runtime.Version()}
	if bi == nil {
		if in.Version == "" {
			in.Version = "devel"
		}
		return in
	}
	if bi.GoVersion != "" {
		in.GoVersion = bi.GoVersion
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "-dirty"
		}
		in.Revision = rev
	}
	if in.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		in.Version = bi.Main.Version
	}
	if in.Version == "" {
		in.Version = "devel"
		if rev != "" {
			in.Version = "devel+" + in.Revision
		}
	}
	return in
}

// String is the one-line form --version prints after the program's name:
// "1.2.0 (go1.26.0 linux/arm64)", with the revision when known.
func (in Info) String() string {
	s := in.Version + " ("
	if in.Revision != "" && in.Version != "devel+"+in.Revision {
		s += "commit " + in.Revision + ", "
	}
	return s + fmt.Sprintf("%s %s/%s)", in.GoVersion, runtime.GOOS, runtime.GOARCH)
}

// IsFlag reports whether arg asks for the version.
func IsFlag(arg string) bool { return arg == "--version" || arg == "-version" || arg == "version" }
