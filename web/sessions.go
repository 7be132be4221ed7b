package web

import (
	"crypto/rand"
	"encoding/base64"
	"sort"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
)

// sessionStore holds the signed-in sessions on the server. The cookie
// carries only a random session id, so a session ends when the server says
// so: at sign-out, when an admin revokes it, when it expires, when its
// identity signs in once too often, or when the server restarts (everyone
// signs in again).
//
// It holds at most max sessions, and at most perIdentity of one identity (a
// user or a token). A sign-in beyond either ends the identity's own oldest
// session; one that would need another identity's session to go is refused
// instead, so that no flood of sign-ins signs anybody else
// out.
type sessionStore struct {
	mu          sync.Mutex
	max         int
	perIdentity int
	m           map[string]*serverSession
}

// serverSession is one sign-in.
type serverSession struct {
	Name     string // the user or token name
	Kind     string // "user" (password) or "token"
	Created  time.Time
	Expires  time.Time
	LastSeen time.Time
}

func newSessionStore(max, perIdentity int) *sessionStore {
	return &sessionStore{max: max, perIdentity: perIdentity, m: map[string]*serverSession{}}
}

// create records a new session for name and returns its id. Errors:
// ETOOMANY when the store is full of other identities' sessions.
func (s *sessionStore) create(name, kind string, ttl time.Duration) (string, error) {
	b := make([]byte, 32)
	rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	own, oldest := s.sweep(name, kind, now)
	if own > 0 && (own >= s.perIdentity || len(s.m) >= s.max) {
		delete(s.m, oldest)
	}
	if len(s.m) >= s.max {
		return "", kgeval.Errorf(kgeval.ETOOMANY, "the server holds %d sessions, none of them yours to replace: try again later, or ask an admin to revoke some", s.max)
	}
	s.m[id] = &serverSession{Name: name, Kind: kind, Created: now, Expires: now.Add(ttl), LastSeen: now}
	return id, nil
}

// sweep drops expired sessions and returns how many live sessions name
// (signed in as kind) holds and the id of its oldest. Callers hold mu.
func (s *sessionStore) sweep(name, kind string, now time.Time) (own int, oldest string) {
	for id, ss := range s.m {
		switch {
		case !now.Before(ss.Expires):
			delete(s.m, id)
		case ss.Name == name && ss.Kind == kind:
			own++
			if oldest == "" || ss.Created.Before(s.m[oldest].Created) {
				oldest = id
			}
		}
	}
	return own, oldest
}

// get returns the live session id names, or false.
func (s *sessionStore) get(id string) (serverSession, bool) {
	if id == "" {
		return serverSession{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.m[id]
	if !ok {
		return serverSession{}, false
	}
	now := time.Now()
	if !now.Before(ss.Expires) {
		delete(s.m, id)
		return serverSession{}, false
	}
	ss.LastSeen = now
	return *ss, true
}

// delete ends one session.
func (s *sessionStore) delete(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, id)
}

// revoke ends every session of name signed in as kind and returns how many
// it ended.
func (s *sessionStore) revoke(name, kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, ss := range s.m {
		if ss.Name == name && ss.Kind == kind {
			delete(s.m, id)
			n++
		}
	}
	return n
}

// SessionRow is a live session as GET /api/sessions lists it (never its id).
type SessionRow struct {
	Name     string    `json:"name"`
	Kind     string    `json:"kind"`
	Created  time.Time `json:"created"`
	Expires  time.Time `json:"expires"`
	LastSeen time.Time `json:"last_seen"`
	Current  bool      `json:"current"`
}

// list returns the live sessions, oldest first; current marks the id of the
// caller's.
func (s *sessionStore) list(current string) []SessionRow {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	out := []SessionRow{}
	for id, ss := range s.m {
		if now.Before(ss.Expires) {
			out = append(out, SessionRow{Name: ss.Name, Kind: ss.Kind, Created: ss.Created, Expires: ss.Expires, LastSeen: ss.LastSeen, Current: id == current})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out
}
