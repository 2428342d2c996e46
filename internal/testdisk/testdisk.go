// Package testdisk gives tests a small file system that fills up: a tmpfs
// of a given size. As root it mounts one; otherwise it runs the test again
// in a new user and mount namespace (unshare -Urm), where an unprivileged
// user may mount a tmpfs, and the test ends with that run's outcome.
package testdisk

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// envInside marks a test run inside the namespace.
const envInside = "PARCHIS_TESTDISK_INSIDE"

// Mount returns a directory on a tmpfs of size bytes, unmounted when the
// test ends, and true. When the test was run again in a namespace
// instead, it returns false: the caller returns at once, the test having
// passed or failed as that run did.
func Mount(t *testing.T, size int) (string, bool) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv(envInside) != "" {
			t.Skip("not root even in a user namespace")
		}
		runInside(t)
		return "", false
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0700", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir, true
}

// runInside runs t again, alone, as root of a new user and mount
// namespace, and passes or fails as it did.
func runInside(t *testing.T) {
	t.Helper()
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("not root, and no unshare to mount a tmpfs in a user namespace")
	}
	args := []string{"--user", "--map-root-user", "--mount", os.Args[0],
		"-test.run=^" + regexp.QuoteMeta(t.Name()) + "$", "-test.v", "-test.count=1"}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.Command(unshare, args...)
	cmd.Env = append(os.Environ(), envInside+"=1")
	out, err := cmd.CombinedOutput()
	text := string(out)
	switch {
	case strings.Contains(text, "unshare failed") || strings.Contains(text, "unshare: "):
		t.Skipf("not root, and no user namespace to mount a tmpfs in: %s", firstLine(text))
	case err != nil:
		t.Fatalf("run as root of a user namespace: %v\n%s", err, text)
	case strings.Contains(text, "--- SKIP"):
		t.Skipf("skipped in a user namespace:\n%s", text)
	case !strings.Contains(text, "--- PASS"):
		t.Fatalf("run as root of a user namespace did not pass:\n%s", text)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "_test.go:") {
			t.Log("in a user namespace:", strings.TrimSpace(l))
		}
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
