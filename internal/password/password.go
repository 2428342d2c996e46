// Package password hashes the passwords of the broker's users and of the
// judges, one way for both, so that one command (parchisd hash-password)
// makes the hashes every configuration takes.
//
// A hash is written pbkdf2-sha256$ITERATIONS$SALT$KEY, salt and key in
// unpadded standard base64. Hashes with salt and key in hex, as the
// judges' files were first written, are read too.
package password

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

const (
	scheme = "pbkdf2-sha256"
	// Iterations is the PBKDF2 iteration count of Hash: about 0.2 s on a
	// Raspberry Pi 4, paid once per sign-in or broker connection.
	Iterations = 210_000
	keyLen     = 32
	saltLen    = 16
)

// ErrBadHash is returned for a hash not in the form Hash writes.
var ErrBadHash = errors.New("bad password hash: want pbkdf2-sha256$ITERATIONS$SALT$KEY")

// Hash returns a salted hash of pw.
func Hash(pw string) (string, error) { return HashWith(pw, Iterations) }

// HashWith returns a salted hash of pw made with iter iterations (tests use
// few).
func HashWith(pw string, iter int) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("salt: %w", err)
	}
	key, err := pbkdf2.Key(sha256.New, pw, salt, iter, keyLen)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	enc := base64.RawStdEncoding
	return scheme + "$" + strconv.Itoa(iter) + "$" + enc.EncodeToString(salt) + "$" + enc.EncodeToString(key), nil
}

// Parse splits a hash into its parts.
func Parse(h string) (iter int, salt, key []byte, err error) {
	f := strings.Split(h, "$")
	if len(f) != 4 || f[0] != scheme {
		return 0, nil, nil, ErrBadHash
	}
	iter, err = strconv.Atoi(f[1])
	if err != nil || iter < 1 || iter > 10_000_000 {
		return 0, nil, nil, ErrBadHash
	}
	decode := base64.RawStdEncoding.DecodeString
	if len(f[3]) == hex.EncodedLen(keyLen) {
		decode = hex.DecodeString
	}
	salt, err1 := decode(f[2])
	key, err2 := decode(f[3])
	if err1 != nil || err2 != nil || len(salt) == 0 || len(key) != keyLen {
		return 0, nil, nil, ErrBadHash
	}
	return iter, salt, key, nil
}

// Check reports whether pw matches hash h, comparing in constant time.
func Check(h, pw string) bool {
	iter, salt, want, err := Parse(h)
	if err != nil {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, pw, salt, iter, keyLen)
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}
