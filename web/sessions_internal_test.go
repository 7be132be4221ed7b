package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

// TestSessionStore_Create checks where a full store makes room (a flood of
// sign-ins with one token used to evict every other session): a sign-in
// past the per-identity cap or into a full store ends the identity's own
// oldest session, never another identity's; an identity with no session in
// a store full of others' gets ETOOMANY.
func TestSessionStore_Create(t *testing.T) {
	t.Run("OwnOldestFirst", func(t *testing.T) {
		s := newSessionStore(10000, 100)
		admin := mustCreate(t, s, "ci", "token")
		alice := mustCreate(t, s, "alice", "user")
		var first string
		for i := range 10001 {
			id := mustCreate(t, s, "flood", "token")
			if i == 0 {
				first = id
			}
		}
		n := count(s, "flood", "token")
		t.Logf("after 10,001 sessions of one token: %d sessions of it, %d in all", n, len(s.m))
		if _, ok := s.get(admin); !ok {
			t.Error("the admin's session was evicted")
		}
		if _, ok := s.get(alice); !ok {
			t.Error("alice's session was evicted")
		}
		if _, ok := s.get(first); ok || n != 100 {
			t.Errorf("the flood holds %d sessions (its first one kept: %v), want its newest 100", n, ok)
		}
	})
	t.Run("FullOfOthers", func(t *testing.T) {
		s := newSessionStore(50, 10)
		var ids []string
		for i := range 50 {
			ids = append(ids, mustCreate(t, s, fmt.Sprintf("u%d", i/10), "user"))
		}
		_, err := s.create("newcomer", "token", time.Hour)
		t.Logf("a new identity in a store full of others': %v", err)
		if kgeval.ErrorCode(err) != kgeval.ETOOMANY {
			t.Errorf("a new identity in a full store: %v, want ETOOMANY", err)
		}
		// An identity already in the full store replaces its own oldest.
		mustCreate(t, s, "u0", "user")
		if _, ok := s.get(ids[0]); ok {
			t.Error("u0's oldest session survived its 11th sign-in")
		}
		for _, id := range ids[1:] {
			if _, ok := s.get(id); !ok {
				t.Fatal("another session was evicted")
			}
		}
	})
	t.Run("ExpiredFirst", func(t *testing.T) {
		s := newSessionStore(2, 2)
		old, _ := s.create("a", "user", time.Nanosecond)
		time.Sleep(time.Millisecond)
		mustCreate(t, s, "b", "user")
		mustCreate(t, s, "c", "user") // room: a's session expired
		if _, ok := s.m[old]; ok || len(s.m) != 2 {
			t.Errorf("expired session kept: %d sessions", len(s.m))
		}
	})
}

func mustCreate(tb testing.TB, s *sessionStore, name, kind string) string {
	tb.Helper()
	id, err := s.create(name, kind, time.Hour)
	if err != nil {
		tb.Fatalf("create %s:%s: %v", kind, name, err)
	}
	return id
}

func count(s *sessionStore, name, kind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, ss := range s.m {
		if ss.Name == name && ss.Kind == kind {
			n++
		}
	}
	return n
}

// TestServer_SignInFloodUnlimited replays the sign-in flood of
// TestServer_SignInFlood with the sign-in rate limits lifted, so that all
// 10,001 sign-ins of one non-admin token (same pre-login cookie) succeed:
// the store's own rule still keeps the admin's and another user's sessions,
// and the token ends with its newest 100.
func TestServer_SignInFloodUnlimited(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	hash, err := HashPassword("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewServer(Config{Version: "test", Auth: AuthConfig{
		Users:      map[string]string{"alice": hash},
		Tokens:     map[string]string{HashToken("kgv_admin"): "ci", HashToken("kgv_flood"): "flood"},
		Admins:     map[string]bool{"token:ci": true},
		SessionKey: []byte(strings.Repeat("k", 64)), InsecureCookies: true,
	}}, &graphstore.Health{DB: db}, db)
	if err != nil {
		t.Fatal(err)
	}
	s.auth.identities = newSignInLimiter(1<<30, time.Second, maxLimitKeys)
	s.auth.clientsOK = newSignInLimiter(1<<30, time.Second, maxLimitKeys)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	csrfRE := regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)
	// preLogin returns a fresh pre-login cookie and its CSRF token.
	preLogin := func() (*http.Cookie, string) {
		resp, err := hc.Get(srv.URL + "/login")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.Cookies()[0], csrfRE.FindStringSubmatch(string(b))[1]
	}
	signIn := func(ck *http.Cookie, csrf string, form url.Values) (int, *http.Cookie) {
		form.Set("csrf_token", csrf)
		req, _ := http.NewRequest("POST", srv.URL+"/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(ck)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if c := resp.Cookies(); len(c) > 0 {
			return resp.StatusCode, c[0]
		}
		return resp.StatusCode, nil
	}
	get := func(ck *http.Cookie, path string) int {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.AddCookie(ck)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	ck, csrf := preLogin()
	_, admin := signIn(ck, csrf, url.Values{"token": {"kgv_admin"}})
	ck, csrf = preLogin()
	_, alice := signIn(ck, csrf, url.Values{"user": {"alice"}, "password": {"correct horse battery"}})
	ck, csrf = preLogin()
	start, ok := time.Now(), 0
	for range 10001 {
		if code, _ := signIn(ck, csrf, url.Values{"token": {"kgv_flood"}}); code == http.StatusSeeOther {
			ok++
		}
	}
	adminCode, aliceCode := get(admin, "/api/sessions"), get(alice, "/api/runs")
	n := count(s.auth.sessions, "flood", "token")
	t.Logf("F5 without rate limits: %d of 10,001 sign-ins in %.1f s; then admin GET /api/sessions %d, alice GET /api/runs %d; the token holds %d sessions",
		ok, time.Since(start).Seconds(), adminCode, aliceCode, n)
	if ok != 10001 || adminCode != 200 || aliceCode != 200 || n != maxIdentitySessions {
		t.Errorf("flood: %d sign-ins, admin %d, alice %d, %d flood sessions", ok, adminCode, aliceCode, n)
	}
}
