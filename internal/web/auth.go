package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"sync"
	"time"
)

// Lifetimes of what auth hands out.
const (
	CodeTTL    = time.Minute    // a login code
	SessionTTL = 12 * time.Hour // a session cookie
	cookieName = "cairn_ui"
	maxCodes   = 64 // codes not yet used; more are refused, so that the map stays small
)

// sessions holds the login codes not yet used and the sessions they
// opened, in memory: a daemon that restarts forgets them, and `cairn ui`
// asks for a new code.
type sessions struct {
	now func() time.Time

	mu       sync.Mutex
	codes    map[string]time.Time // code → expiry
	sessions map[string]*session  // secret → session
}

// session is one browser's login.
type session struct {
	csrf    string
	expires time.Time
}

func newSessions(now func() time.Time) *sessions {
	return &sessions{now: now, codes: map[string]time.Time{}, sessions: map[string]*session{}}
}

// secret returns 32 random bytes in hex.
func secret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// newCode makes a login code good for one use within CodeTTL.
func (s *sessions) newCode() (string, error) {
	c, err := secret()
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep()
	if len(s.codes) >= maxCodes {
		return "", errTooMany
	}
	s.codes[c] = s.now().Add(CodeTTL)
	return c, nil
}

// login trades a code for a new session's secret; a code unknown, used or
// expired gives "".
func (s *sessions) login(code string) (secretValue string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep()
	exp, ok := s.codes[code]
	if !ok || code == "" {
		return "", nil
	}
	delete(s.codes, code) // used, whatever follows
	if !s.now().Before(exp) {
		return "", nil
	}
	sec, err := secret()
	if err != nil {
		return "", err
	}
	csrf, err := secret()
	if err != nil {
		return "", err
	}
	s.sessions[sec] = &session{csrf: csrf, expires: s.now().Add(SessionTTL)}
	return sec, nil
}

// get returns the session of r's cookie, or nil. The map is keyed by the
// secret, so the lookup is not in constant time: a local process that
// can time it can also read the daemon's token file only if it is the
// user, and then owns the memory anyway.
func (s *sessions) get(r *http.Request) *session {
	c, err := r.Cookie(cookieName)
	if err != nil || len(c.Value) != 64 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.sessions[c.Value]
	if se == nil || !s.now().Before(se.expires) {
		return nil
	}
	return se
}

// sweep drops expired codes and sessions. The caller holds s.mu.
func (s *sessions) sweep() {
	now := s.now()
	for c, exp := range s.codes {
		if !now.Before(exp) {
			delete(s.codes, c)
		}
	}
	for k, se := range s.sessions {
		if !now.Before(se.expires) {
			delete(s.sessions, k)
		}
	}
}

// checkCSRF reports whether r's form carries se's CSRF token.
func checkCSRF(r *http.Request, se *session) bool {
	return subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(se.csrf)) == 1
}

// sameOrigin reports whether r comes from a page of this daemon: browsers
// send Sec-Fetch-Site (same-origin for our own pages), and Origin on a
// POST; a request with neither is refused, since every browser that runs
// the viewer sends one of them.
func sameOrigin(r *http.Request) bool {
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" {
		return s == "same-origin"
	}
	o := r.Header.Get("Origin")
	return o != "" && o == "http://"+r.Host
}

// setSecurityHeaders sets what every answer under /ui/ carries: no
// inline script, no framing, no sniffing, no referrer leaving the page.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}
