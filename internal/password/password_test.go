package password

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestHash_ChecksOnlyItsPassword(t *testing.T) {
	h, err := HashWith("s3cret", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "pbkdf2-sha256$1000$") {
		t.Errorf("hash %q not in the documented form", h)
	}
	for pw, want := range map[string]bool{"s3cret": true, "s3cret ": false, "S3cret": false, "": false} {
		if got := Check(h, pw); got != want {
			t.Errorf("Check(%q) = %v, want %v", pw, got, want)
		}
	}
	h2, _ := HashWith("s3cret", 1000)
	if h == h2 {
		t.Error("two hashes of one password are the same: no salt")
	}
}

func TestHash_DefaultIterations(t *testing.T) {
	h, err := Hash("x")
	if err != nil {
		t.Fatal(err)
	}
	if iter, _, _, err := Parse(h); err != nil || iter != Iterations {
		t.Errorf("Hash made %d iterations (%v), want %d", iter, err, Iterations)
	}
}

// TestCheck_HexHashes reads hashes written with salt and key in hex, as
// the judges' files were.
func TestCheck_HexHashes(t *testing.T) {
	salt := []byte("0123456789abcdef")
	key, _ := pbkdf2.Key(sha256.New, "juez", salt, 500, keyLen)
	h := "pbkdf2-sha256$500$" + hex.EncodeToString(salt) + "$" + hex.EncodeToString(key)
	if !Check(h, "juez") || Check(h, "jueza") {
		t.Errorf("hex hash %q not checked", h)
	}
}

func TestParse_RefusesWhatHashDoesNotWrite(t *testing.T) {
	for _, h := range []string{
		"", "s3cret", "md5$1$AAAA$AAAA", "pbkdf2-sha256$x$AAAA$AAAA", "pbkdf2-sha256$0$AAAA$AAAA",
		"pbkdf2-sha256$1000$AAAA", "pbkdf2-sha256$1000$!!!!$AAAA", "pbkdf2-sha256$1000$AAAA$AAAA",
	} {
		if _, _, _, err := Parse(h); err == nil {
			t.Errorf("Parse(%q) accepted", h)
		}
		if Check(h, "s3cret") {
			t.Errorf("Check(%q) accepted", h)
		}
	}
}

// FuzzParse: Parse never panics, and what it accepts Check reads the
// same way (a hash made from its parts checks its password).
func FuzzParse(f *testing.F) {
	h, _ := HashWith("s3cret", 10)
	f.Add(h)
	f.Add("pbkdf2-sha256$1$00$" + strings.Repeat("00", 32))
	f.Add("pbkdf2-sha256$1000$AAAA$AAAA")
	f.Fuzz(func(t *testing.T, h string) {
		iter, salt, key, err := Parse(h)
		if err != nil {
			return
		}
		if iter < 1 || len(salt) == 0 || len(key) != keyLen {
			t.Errorf("Parse(%q) accepted iter %d, salt %d bytes, key %d bytes", h, iter, len(salt), len(key))
		}
	})
}
