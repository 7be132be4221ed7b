package web

import (
	"crypto/rand"
	"encoding/base64"
	"sort"
	"sync"
	"time"
)

// sessionStore holds the signed-in sessions on the server. The cookie
// carries only a random session id, so a session ends when the server says
// so: at sign-out, when an admin revokes it, when it expires, or when the
// server restarts (everyone signs in again).
type sessionStore struct {
	mu  sync.Mutex
	max int
	m   map[string]*serverSession
}

// serverSession is one sign-in.
type serverSession struct {
	Name     string // the user or token name
	Kind     string // "user" (password) or "token"
	Created  time.Time
	Expires  time.Time
	LastSeen time.Time
}

func newSessionStore(max int) *sessionStore {
	return &sessionStore{max: max, m: map[string]*serverSession{}}
}

// create records a new session for name and returns its id.
func (s *sessionStore) create(name, kind string, ttl time.Duration) string {
	b := make([]byte, 32)
	rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) >= s.max {
		s.evict(now)
	}
	s.m[id] = &serverSession{Name: name, Kind: kind, Created: now, Expires: now.Add(ttl), LastSeen: now}
	return id
}

// evict drops expired sessions and, when the store is still full, the
// oldest one. Callers hold mu.
func (s *sessionStore) evict(now time.Time) {
	var oldest string
	for id, ss := range s.m {
		if !now.Before(ss.Expires) {
			delete(s.m, id)
		} else if oldest == "" || ss.Created.Before(s.m[oldest].Created) {
			oldest = id
		}
	}
	if len(s.m) >= s.max && oldest != "" {
		delete(s.m, oldest)
	}
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
