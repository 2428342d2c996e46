package judges

import (
	"crypto/ed25519"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/parchis-table/parchis/internal/password"
)

// Password hashes are those of internal/password, which the broker's
// users share; hashIterations and hashLen shape the dummy hash compared
// when a user is unknown, so that it costs what a real one does.
const (
	hashIterations = password.Iterations
	hashLen        = 32
	saltLen        = 16
)

// HashPassword returns a salted PBKDF2-SHA256 hash of password, in the form
// Judge.PasswordHash takes (the same as parchisd hash-password prints).
func HashPassword(pw string) (string, error) { return password.Hash(pw) }

func hashWith(password string, salt []byte, iter int) (string, error) {
	k, err := pbkdf2.Key(sha256.New, password, salt, iter, hashLen)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return "pbkdf2-sha256$" + strconv.Itoa(iter) + "$" + hex.EncodeToString(salt) + "$" + hex.EncodeToString(k), nil
}

// ErrBadHash is returned for a password hash not in the form HashPassword
// writes.
var ErrBadHash = password.ErrBadHash

// parseHash splits a stored hash into its parts.
func parseHash(h string) (iter int, salt, sum []byte, err error) { return password.Parse(h) }

// CheckPassword reports whether password matches the stored hash, comparing
// in constant time.
func CheckPassword(hash, pw string) bool { return password.Check(hash, pw) }

// judge is a configured judge, ready to sign in and sign.
type judge struct {
	name string
	hash string
	key  ed25519.PrivateKey
}

// session is a signed-in judge's session.
type session struct {
	judge   *judge
	csrf    string
	expires time.Time
	flash   string // a message to show once
	flashOK bool
}

// sessions holds the open sessions by token.
type sessions struct {
	mu  sync.Mutex
	m   map[string]*session
	ttl time.Duration
	now func() time.Time
}

func newSessions(ttl time.Duration) *sessions {
	return &sessions{m: map[string]*session{}, ttl: ttl, now: time.Now}
}

// randomToken returns 32 random bytes in hex.
func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // never returns an error on supported systems
	}
	return hex.EncodeToString(b)
}

// open starts a session for j and returns its token.
func (s *sessions) open(j *judge) (string, *session) {
	tok := randomToken()
	ss := &session{judge: j, csrf: randomToken(), expires: s.now().Add(s.ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, v := range s.m {
		if now.After(v.expires) {
			delete(s.m, k)
		}
	}
	s.m[tok] = ss
	return tok, ss
}

// get returns the live session of a token, extending it.
func (s *sessions) get(tok string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.m[tok]
	if !ok {
		return nil
	}
	now := s.now()
	if now.After(ss.expires) {
		delete(s.m, tok)
		return nil
	}
	ss.expires = now.Add(s.ttl)
	return ss
}

// setFlash leaves a message for the session's next page.
func (s *sessions) setFlash(ss *session, msg string, ok bool) {
	s.mu.Lock()
	ss.flash, ss.flashOK = msg, ok
	s.mu.Unlock()
}

// takeFlash returns and clears the session's message.
func (s *sessions) takeFlash(ss *session) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := ss.flash, ss.flashOK
	ss.flash = ""
	return m, ok
}

func (s *sessions) close(tok string) {
	s.mu.Lock()
	delete(s.m, tok)
	s.mu.Unlock()
}

// Cookie names.
const (
	sessionCookie = "parchis_session"
	loginCSRF     = "parchis_login_csrf"
)

// cookie returns an HttpOnly, SameSite=Strict cookie valid for the whole
// site, for an answer to r: Secure when r came over HTTPS, so that the
// browser never sends it in clear.
func cookie(r *http.Request, name, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil}
}

// sameToken compares two tokens in constant time.
func sameToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
