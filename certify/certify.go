// Package certify holds what makes a table's results checkable by anyone:
// the table's Ed25519 key (created on first start, kept in a file of mode
// 0600), signatures over canonical texts, the SHA-256 hash of a game record
// and the hash chain of the table's journal.
//
// Keys and signatures travel as standard base64 text, as in the live-feed
// payloads of package broadcast. The texts that are signed (a result, a
// judge's verdict) are defined next to the payloads, in package broadcast,
// which imports this package; this package imports nothing of the project.
package certify

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// KeyFileMode is the mode of a key file created by LoadOrCreateKey.
const KeyFileMode fs.FileMode = 0o600

// ErrKeyPermissions reports a key file that others than its owner may read
// or write. LoadOrCreateKey refuses such a file rather than trust a key
// that may have been copied or replaced.
var ErrKeyPermissions = errors.New("key file is accessible to group or others (want mode 0600)")

// ErrBadSignature reports a signature that does not verify.
var ErrBadSignature = errors.New("signature does not verify")

// LoadOrCreateKey returns the Ed25519 private key kept at path, creating a
// new key in a new file of mode 0600 (and its directory, mode 0700) when
// there is none. The file holds a PEM "PRIVATE KEY" block (PKCS #8), the
// form openssl reads. A file that group or others may access is refused
// with an error wrapping ErrKeyPermissions.
func LoadOrCreateKey(path string) (ed25519.PrivateKey, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		if fi.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("table key %s: mode %v: %w", path, fi.Mode().Perm(), ErrKeyPermissions)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("table key: %w", err)
		}
		k, err := ParsePrivateKey(b)
		if err != nil {
			return nil, fmt.Errorf("table key %s: %w", path, err)
		}
		return k, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("table key: %w", err)
	}
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("table key: generate: %w", err)
	}
	b, err := MarshalPrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("table key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("table key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, KeyFileMode)
	if err != nil {
		return nil, fmt.Errorf("table key: create: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("table key: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("table key: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("table key: close %s: %w", path, err)
	}
	return k, nil
}

// MarshalPrivateKey returns the PEM (PKCS #8) form of a private key.
func MarshalPrivateKey(k ed25519.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, fmt.Errorf("marshal key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// ParsePrivateKey reads the PEM (PKCS #8) form of an Ed25519 private key.
func ParsePrivateKey(b []byte) (ed25519.PrivateKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, errors.New("no PEM PRIVATE KEY block")
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse key: %w", err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("parse key: %T is not an Ed25519 key", k)
	}
	return ek, nil
}

// PublicKeyString returns a key's public half in standard base64, the form
// used in payloads and configuration.
func PublicKeyString(k ed25519.PrivateKey) string {
	return EncodePublicKey(k.Public().(ed25519.PublicKey))
}

// EncodePublicKey returns a public key in standard base64.
func EncodePublicKey(pub ed25519.PublicKey) string {
	return base64.StdEncoding.EncodeToString(pub)
}

// ParsePublicKey reads a public key in standard base64.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	if len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("public key: %d bytes, want %d", len(b), ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// Sign signs msg and returns the signature in standard base64.
func Sign(k ed25519.PrivateKey, msg []byte) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(k, msg))
}

// VerifyString checks sig, a base64 signature of msg, by pub, a public key
// in base64. The error says which of the two is malformed, or wraps
// ErrBadSignature.
func VerifyString(pub string, msg []byte, sig string) error {
	k, err := ParsePublicKey(pub)
	if err != nil {
		return err
	}
	return verify(k, msg, sig)
}

func verify(pub, msg []byte, sig string) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("public key: %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	s, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("signature: %w", err)
	}
	if len(s) != ed25519.SignatureSize {
		return fmt.Errorf("signature: %d bytes, want %d", len(s), ed25519.SignatureSize)
	}
	if !ed25519.Verify(ed25519.PublicKey(pub), msg, s) {
		return ErrBadSignature
	}
	return nil
}

// RecordHash returns the SHA-256 of a game record in lower-case hex, the
// form of broadcast.Result.RecordSHA256.
func RecordHash(record []byte) string {
	h := sha256.Sum256(record)
	return hex.EncodeToString(h[:])
}
