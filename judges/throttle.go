package judges

import (
	"math"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"
)

// throttle slows down guessing passwords: failed sign-ins are counted per
// user name and per client address; past a few, each further try must
// wait, twice as long after every failure, up to a ceiling. A success
// clears the counts of its user and address; counts are forgotten after
// a quiet hour.
type throttle struct {
	mu   sync.Mutex
	now  func() time.Time
	keys map[string]*failures
	// free is how many failures are let through without waiting; first
	// the first wait, ceiling the longest; forget how long a key is
	// remembered after its last failure.
	free          map[string]int
	first, ceil   time.Duration
	forget        time.Duration
	maxRemembered int
}

type failures struct {
	n     int
	last  time.Time
	until time.Time
}

func newThrottle() *throttle {
	return &throttle{now: time.Now, keys: map[string]*failures{},
		free:  map[string]int{"user": 5, "addr": 20},
		first: time.Second, ceil: 15 * time.Minute, forget: time.Hour, maxRemembered: 100_000}
}

// keysOf are the keys a sign-in is counted under.
func keysOf(user, remote string) [2]string {
	host := remote
	if h, _, err := net.SplitHostPort(remote); err == nil {
		host = h
	}
	if len(user) > 64 {
		user = user[:64]
	}
	return [2]string{"user\x00" + user, "addr\x00" + host}
}

// wait returns how long a sign-in of user from remote must still wait, or
// 0 when it may be tried now.
func (t *throttle) wait(user, remote string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var w time.Duration
	for _, k := range keysOf(user, remote) {
		if f := t.keys[k]; f != nil && f.until.After(now) {
			w = max(w, f.until.Sub(now))
		}
	}
	return w
}

// failed counts a failed sign-in and returns how long the next try of
// this user or from this address must wait.
func (t *throttle) failed(user, remote string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.keys) >= t.maxRemembered {
		for k, f := range t.keys {
			if now.Sub(f.last) > t.forget {
				delete(t.keys, k)
			}
		}
	}
	var w time.Duration
	for _, k := range keysOf(user, remote) {
		f := t.keys[k]
		if f == nil || now.Sub(f.last) > t.forget {
			if len(t.keys) >= t.maxRemembered {
				continue // the table is full of fresh failures: the other key still counts
			}
			f = &failures{}
			t.keys[k] = f
		}
		f.n++
		f.last = now
		if over := f.n - t.free[k[:strings.IndexByte(k, 0)]]; over > 0 {
			d := time.Duration(float64(t.first) * math.Pow(2, float64(min(over-1, 30))))
			f.until = now.Add(min(d, t.ceil))
			w = max(w, f.until.Sub(now))
		}
	}
	return w
}

// succeeded clears the counts of a sign-in that passed.
func (t *throttle) succeeded(user, remote string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keysOf(user, remote) {
		delete(t.keys, k)
	}
}

// safeNext returns where to go after signing in: next when it is a path
// of this site (no scheme, host or user; starting with one /, not two,
// nor a backslash; no control characters or spaces, which browsers drop
// or mend into another site's address), else "/".
func safeNext(next string) string {
	if next == "" || strings.ContainsFunc(next, func(r rune) bool { return r < 0x21 || r == 0x7f || r == '\\' }) {
		return "/"
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(u.Path, "//") {
		return "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}
