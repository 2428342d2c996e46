package certify

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadOrCreateKey_CreatedMode0600_LoadedAgain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys", "table.key")
	k, err := LoadOrCreateKey(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	k2, err := LoadOrCreateKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Equal(k2) {
		t.Error("the key loaded again differs from the one created")
	}
}

func TestLoadOrCreateKey_ReadableByOthers_Refused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table.key")
	if _, err := LoadOrCreateKey(path); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o644)
	if _, err := LoadOrCreateKey(path); !errors.Is(err, ErrKeyPermissions) {
		t.Errorf("key of mode 0644: %v, want ErrKeyPermissions", err)
	}
}

func TestSignVerify(t *testing.T) {
	k, err := LoadOrCreateKey(filepath.Join(t.TempDir(), "k"))
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("parchis-result v1\n")
	sig := Sign(k, msg)
	pub := PublicKeyString(k)
	tests := []struct {
		name     string
		pub, sig string
		msg      []byte
		bad      bool
	}{
		{"good", pub, sig, msg, false},
		{"other message", pub, sig, []byte("parchis-result v2\n"), true},
		{"signature not base64", pub, "!!", msg, true},
		{"short key", "AAAA", sig, msg, true},
	}
	for _, tt := range tests {
		if err := VerifyString(tt.pub, tt.msg, tt.sig); (err != nil) != tt.bad {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestChain_AnyChangedEntryChangesTheHead(t *testing.T) {
	entries := [][]byte{[]byte("throw 5"), []byte("move 5-10"), []byte("throw 6")}
	var c Chain
	var want []Hash
	for _, e := range entries {
		want = append(want, c.Append(e))
	}
	if c.Len() != 3 || c.Head() != want[2] {
		t.Fatalf("chain of 3: len %d head %v", c.Len(), c.Head())
	}
	if head, bad := VerifyChain(entries, want); head != c.Head() || bad != -1 {
		t.Errorf("intact journal: head %v bad %d", head, bad)
	}
	entries[1] = []byte("move 5-11")
	if head, bad := VerifyChain(entries, want); head == c.Head() || bad != 1 {
		t.Errorf("changed entry 1: head %v bad %d, want a new head and bad 1", head, bad)
	}
	r := ResumeChain(want[0], 1)
	r.Append([]byte("move 5-10"))
	if r.Append([]byte("throw 6")) != c.Head() {
		t.Error("a resumed chain differs")
	}
}

func TestRecordHash(t *testing.T) {
	if got := RecordHash([]byte("")); got != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("RecordHash of nothing: %s", got)
	}
}
