package certify

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is a SHA-256 hash, of a journal entry in a Chain.
type Hash [32]byte

// String returns the hash in lower-case hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// Next returns the hash of the entry that follows the one hashed prev:
// SHA-256(prev ‖ entry). The first entry of a journal follows the zero
// Hash. Changing, removing or reordering any entry changes the hash of
// every later one, so the last hash (broadcast.Result.JournalHead) stands
// for the whole journal.
func Next(prev Hash, entry []byte) Hash {
	h := sha256.New()
	h.Write(prev[:])
	h.Write(entry)
	var out Hash
	h.Sum(out[:0])
	return out
}

// Chain is the running hash of a journal. The zero Chain is a journal with
// no entries.
type Chain struct {
	head Hash
	n    uint64
}

// ResumeChain returns a Chain whose last entry, the n-th, hashed head, as
// read back from a journal on disk.
func ResumeChain(head Hash, n uint64) Chain { return Chain{head: head, n: n} }

// Append adds an entry and returns its hash, the new head.
func (c *Chain) Append(entry []byte) Hash {
	c.head = Next(c.head, entry)
	c.n++
	return c.head
}

// Head returns the hash of the last entry (the zero Hash with none).
func (c *Chain) Head() Hash { return c.head }

// Len returns the number of entries appended.
func (c *Chain) Len() uint64 { return c.n }

// VerifyChain reports whether entries, hashed from the zero Hash, end in
// head, and returns the index of the first entry whose hash differs from
// want[i] when want (the hashes stored with the entries) is given.
func VerifyChain(entries [][]byte, want []Hash) (head Hash, bad int) {
	bad = -1
	for i, e := range entries {
		head = Next(head, e)
		if bad < 0 && i < len(want) && want[i] != head {
			bad = i
		}
	}
	return head, bad
}
