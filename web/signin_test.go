package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/web"
)

// signInConfig is MustServer's configuration (alice, the admin token "ci")
// with more tokens, none of them admin (name → token), and the trusted
// proxies given.
func signInConfig(tb testing.TB, tokens map[string]string, proxies ...string) web.Config {
	tb.Helper()
	hash, err := web.HashPassword(testPassword)
	if err != nil {
		tb.Fatal(err)
	}
	hashes := map[string]string{web.HashToken(testToken): "ci"}
	for name, tok := range tokens {
		hashes[web.HashToken(tok)] = name
	}
	return web.Config{Version: "test", TrustedProxies: proxies, Auth: web.AuthConfig{
		Users: map[string]string{testUser: hash}, Tokens: hashes, Admins: map[string]bool{"token:ci": true},
		SessionKey: []byte(strings.Repeat("k", 64)), InsecureCookies: true,
	}}
}

// mustSignInServer serves cfg on httptest against the real Neo4j.
func mustSignInServer(tb testing.TB, db *graphstore.DB, cfg web.Config) *httptest.Server {
	tb.Helper()
	s, err := web.NewServer(cfg, &graphstore.Health{DB: db}, db)
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	tb.Cleanup(srv.Close)
	return srv
}

// signInAs signs c in from the client address ip (X-Forwarded-For, which
// the server believes when it trusts 127.0.0.1) with a token, or with the
// test user's password when token is empty, and returns the status.
func signInAs(c *client, ip, token string) *http.Response {
	c.tb.Helper()
	hdr := map[string]string{"X-Forwarded-For": ip}
	c.do("GET", "/login", nil, hdr)
	form := url.Values{"csrf_token": {c.csrf}, "next": {"/"}}
	if token != "" {
		form.Set("token", token)
	} else {
		form.Set("user", testUser)
		form.Set("password", testPassword)
	}
	hdr["Content-Type"] = "application/x-www-form-urlencoded"
	resp, _ := c.do("POST", "/login", strings.NewReader(form.Encode()), hdr)
	if resp.StatusCode == http.StatusSeeOther {
		c.do("GET", "/", nil, hdr) // the page carries the session's CSRF token
	}
	return resp
}

// TestServer_SignInFlood checks that a flood of sign-ins evicts nobody
// else: 10,001 sign-ins with one non-admin token and the same pre-login
// cookie used to evict every other session. Now successful sign-ins are
// limited per identity (10 in a row, then one per 30 s) and per client (30,
// then one per 10 s) with 429 and Retry-After, and the admin's and another
// user's sessions still answer 200 after the flood.
func TestServer_SignInFlood(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	tokens := map[string]string{"flood": "kgv_flood-token-of-a-non-admin"}
	for i := range 31 {
		tokens[fmt.Sprintf("team%d", i)] = fmt.Sprintf("kgv_team-token-%d", i)
	}
	srv := mustSignInServer(t, db, signInConfig(t, tokens, "127.0.0.1"))
	admin, alice := &client{tb: t, base: srv.URL}, &client{tb: t, base: srv.URL}
	if resp := signInAs(admin, "203.0.113.1", testToken); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("admin sign-in: %d", resp.StatusCode)
	}
	if resp := signInAs(alice, "203.0.113.2", ""); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("alice's sign-in: %d", resp.StatusCode)
	}

	// The flood: one pre-login cookie and CSRF token, 10,001 sign-ins.
	flood := &client{tb: t, base: srv.URL}
	flood.do("GET", "/login", nil, map[string]string{"X-Forwarded-For": "203.0.113.66"})
	body := url.Values{"csrf_token": {flood.csrf}, "token": {tokens["flood"]}, "next": {"/"}}.Encode()
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	status := map[int]int{}
	firstLimited, retryAfter := 0, ""
	start := time.Now()
	for i := range 10001 {
		req, _ := http.NewRequest("POST", srv.URL+"/login", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", "203.0.113.66")
		for _, ck := range flood.jar {
			req.AddCookie(ck)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		status[resp.StatusCode]++
		if resp.StatusCode == http.StatusTooManyRequests && firstLimited == 0 {
			firstLimited, retryAfter = i+1, resp.Header.Get("Retry-After")
		}
	}
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("F5: 10,001 sign-ins of one token in %.1f s: %v (first 429 at sign-in %d, Retry-After %s s); heap %+.1f MB",
		elapsed.Seconds(), status, firstLimited, retryAfter, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/1e6)
	if status[http.StatusSeeOther] != 10 || status[http.StatusTooManyRequests] != 9991 {
		t.Errorf("flood statuses %v, want 10×303 and 9,991×429", status)
	}
	if secs, err := strconv.Atoi(retryAfter); err != nil || secs < 1 || secs > 30 {
		t.Errorf("Retry-After %q, want 1..30 s", retryAfter)
	}

	// Everybody else is still signed in.
	for _, who := range []struct {
		name, path string
		c          *client
	}{{"admin", "/api/sessions", admin}, {"alice", "/api/runs", alice}} {
		resp, out := who.c.do("GET", who.path, nil, nil)
		t.Logf("after the flood, %s GET %s: %d", who.name, who.path, resp.StatusCode)
		if resp.StatusCode != 200 {
			t.Errorf("%s's session after the flood: GET %s %d %.200s", who.name, who.path, resp.StatusCode, out)
		}
	}
	var list web.SessionsView
	if code := admin.getJSON("/api/sessions", &list); code != 200 {
		t.Fatalf("list sessions: %d", code)
	}
	count := map[string]int{}
	for _, s := range list.Sessions {
		count[s.Kind+":"+s.Name]++
	}
	t.Logf("sessions after the flood: %v", count)
	if count["token:flood"] != 10 || count["token:ci"] != 1 || count["user:"+testUser] != 1 {
		t.Errorf("sessions after the flood: %v", count)
	}

	// Per identity: the flood's token is limited from any address.
	if resp := signInAs(&client{tb: t, base: srv.URL}, "203.0.113.99", tokens["flood"]); resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("the flooding token from another address: %d, want 429 with Retry-After", resp.StatusCode)
	}
	// Per client: 30 sign-ins of 30 identities from one address, then 429.
	for i := range 31 {
		resp := signInAs(&client{tb: t, base: srv.URL}, "203.0.113.77", tokens[fmt.Sprintf("team%d", i)])
		want := http.StatusSeeOther
		if i == 30 {
			want = http.StatusTooManyRequests
		}
		if resp.StatusCode != want {
			t.Errorf("sign-in %d of 31 identities from one address: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	// Another address is not affected.
	if resp := signInAs(&client{tb: t, base: srv.URL}, "203.0.113.78", tokens["team0"]); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a second sign-in of team0 from another address: %d", resp.StatusCode)
	}
}

// signInWith tries the test user's password pw from the client address ip
// (X-Forwarded-For, believed from 127.0.0.1) and returns the status and
// Retry-After.
func signInWith(c *client, ip, pw string) (int, string) {
	c.tb.Helper()
	hdr := map[string]string{"X-Forwarded-For": ip}
	if c.csrf == "" {
		c.do("GET", "/login", nil, hdr)
	}
	hdr["Content-Type"] = "application/x-www-form-urlencoded"
	form := url.Values{"csrf_token": {c.csrf}, "next": {"/"}, "user": {testUser}, "password": {pw}}
	resp, _ := c.do("POST", "/login", strings.NewReader(form.Encode()), hdr)
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

// TestServer_SignInPerClient checks that wrong passwords cannot lock a user
// out (issue 49, N3): 5 wrong passwords for alice from client A used to
// make the right password from client B get 429 (Retry-After 60). Failures
// now count per (name, client) and per client: A is limited, B signs in.
// Then a guessing campaign from 100 addresses empties the bucket of the
// name from all clients (100, then one per 30 s): an address that failed
// for alice before is held back, a fresh one still gets its password
// checked, so alice signs in from a fresh address and a guesser gets one
// guess per address.
func TestServer_SignInPerClient(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv := mustSignInServer(t, db, signInConfig(t, nil, "127.0.0.1"))
	a := &client{tb: t, base: srv.URL}
	for i := range 5 {
		if code, _ := signInWith(a, "203.0.113.10", "wrong-password"); code != http.StatusUnauthorized {
			t.Fatalf("wrong password %d from A: %d, want 401", i+1, code)
		}
	}
	code, retry := signInWith(a, "203.0.113.10", testPassword)
	t.Logf("N3: after 5 wrong passwords from A, the right password from A: %d, Retry-After %s s", code, retry)
	if secs, err := strconv.Atoi(retry); code != http.StatusTooManyRequests || err != nil || secs < 1 || secs > 60 {
		t.Errorf("the right password from A after 5 wrong: %d, Retry-After %q; want 429 with Retry-After 1..60", code, retry)
	}
	code, _ = signInWith(&client{tb: t, base: srv.URL}, "203.0.113.11", testPassword)
	t.Logf("N3: the right password from B: %d", code)
	if code != http.StatusSeeOther {
		t.Errorf("the right password from B after A's 5 wrong: %d, want 303", code)
	}
	if code, retry = signInWith(a, "203.0.113.10", "wrong-password"); code != http.StatusTooManyRequests || retry == "" {
		t.Errorf("A again after B signed in: %d, Retry-After %q; want 429 with Retry-After", code, retry)
	}

	// Many addresses: 95 more failures (one from each of 95 addresses) make
	// 100 for alice, the name's burst.
	first := &client{tb: t, base: srv.URL}
	if code, _ := signInWith(first, "198.51.100.1", "guess-1"); code != http.StatusUnauthorized {
		t.Fatalf("guess from 198.51.100.1: %d", code)
	}
	for i := 2; i <= 95; i++ {
		if code, _ := signInWith(&client{tb: t, base: srv.URL}, fmt.Sprintf("198.51.100.%d", i), fmt.Sprintf("guess-%d", i)); code != http.StatusUnauthorized {
			t.Fatalf("guess from 198.51.100.%d: %d, want 401", i, code)
		}
	}
	code, retry = signInWith(first, "198.51.100.1", "guess-again")
	t.Logf("after 100 failures for alice from 96 addresses, a second guess from an address that failed once: %d, Retry-After %s s", code, retry)
	if code != http.StatusTooManyRequests || retry == "" {
		t.Errorf("a second guess from 198.51.100.1 with alice's bucket empty: %d, Retry-After %q; want 429", code, retry)
	}
	if code, _ = signInWith(&client{tb: t, base: srv.URL}, "198.51.100.200", "guess-fresh"); code != http.StatusUnauthorized {
		t.Errorf("a first guess from a fresh address: %d, want 401 (its password is checked)", code)
	}
	code, _ = signInWith(&client{tb: t, base: srv.URL}, "198.51.100.201", testPassword)
	t.Logf("with alice's bucket empty, alice from a fresh address: %d", code)
	if code != http.StatusSeeOther {
		t.Errorf("alice from a fresh address during the campaign: %d, want 303", code)
	}
}

// TestServer_ForwardedFor checks that X-Forwarded-For names the client for
// the sign-in limits only when the peer is in web.trusted_proxies: from
// anyone else, 21 failed sign-ins under 21 made-up addresses are one
// client and the 21st gets 429; behind a trusted proxy they are 21
// clients.
func TestServer_ForwardedFor(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	for _, tc := range []struct {
		name    string
		proxies []string
		want21  int
	}{
		{"Untrusted", nil, http.StatusTooManyRequests},
		{"OtherProxy", []string{"198.51.100.7"}, http.StatusTooManyRequests},
		{"TrustedProxy", []string{"127.0.0.0/8"}, http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := mustSignInServer(t, db, signInConfig(t, nil, tc.proxies...))
			got := 0
			for i := range 21 {
				c := &client{tb: t, base: srv.URL}
				ip := fmt.Sprintf("203.0.113.%d", i+1)
				c.do("GET", "/login", nil, map[string]string{"X-Forwarded-For": ip})
				form := url.Values{"csrf_token": {c.csrf}, "token": {"kgv_wrong"}}
				resp, _ := c.do("POST", "/login", strings.NewReader(form.Encode()),
					map[string]string{"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip})
				got = resp.StatusCode
				if i < 20 && got != http.StatusUnauthorized {
					t.Fatalf("failure %d: %d, want 401", i+1, got)
				}
			}
			t.Logf("trusted proxies %v: 21st failed sign-in under its own X-Forwarded-For: %d", tc.proxies, got)
			if got != tc.want21 {
				t.Errorf("21st failure: %d, want %d", got, tc.want21)
			}
		})
	}
}

// TestServer_Banner checks the banner of kgeval serve: it names
// kgeval.localhost, a host of the dashboard's own whose cookies no other
// program on 127.0.0.1 gets; the server answers that Host, and its session
// cookie is host-only (no Domain).
func TestServer_Banner(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	cfg := signInConfig(t, nil)
	cfg.Auth.InsecureCookies = false // the default: Secure, which loopback names get over http
	s, err := web.NewServer(cfg, &graphstore.Health{DB: db}, db)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", pw) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	}()
	lines := bufio.NewScanner(pr)
	var banner []string
	for len(banner) < 2 && lines.Scan() {
		banner = append(banner, lines.Text())
	}
	go io.Copy(io.Discard, pr)
	t.Logf("banner:\n%s", strings.Join(banner, "\n"))
	m := regexp.MustCompile(`^kgeval serve: dashboard at (http://kgeval\.localhost:(\d+))/$`).FindStringSubmatch(banner[0])
	if m == nil {
		t.Fatalf("banner %q, want http://kgeval.localhost:PORT/", banner[0])
	}
	if len(banner) < 2 || !strings.Contains(banner[1], "http://127.0.0.1:"+m[2]+"/") {
		t.Errorf("no loopback address for tools in the banner: %q", banner)
	}
	// Go does not resolve *.localhost: dial loopback, as browsers do.
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+m[2])
	}}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer hc.CloseIdleConnections()
	var jar []*http.Cookie
	do := func(method, path string, form url.Values) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, m[1]+path, strings.NewReader(form.Encode()))
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for _, ck := range jar {
			req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if ck := resp.Cookies(); len(ck) > 0 {
			jar = ck
		}
		return resp, string(b)
	}
	resp, page := do("GET", "/login", nil)
	set := resp.Header.Get("Set-Cookie")
	t.Logf("GET %s/login: %d, Set-Cookie %s=…%s", m[1], resp.StatusCode, set[:strings.Index(set, "=")], set[strings.Index(set, ";"):])
	ck := resp.Cookies()
	if resp.StatusCode != 200 || len(ck) != 1 || ck[0].Name != "kgeval_session" || ck[0].Domain != "" || strings.Contains(strings.ToLower(set), "domain=") || !ck[0].Secure {
		t.Fatalf("GET /login on kgeval.localhost: %d, cookies %q; want one host-only Secure kgeval_session", resp.StatusCode, resp.Header["Set-Cookie"])
	}
	csrf := regexp.MustCompile(`name="csrf_token" value="([^"]+)"`).FindStringSubmatch(page)
	if csrf == nil {
		t.Fatal("no CSRF token on the sign-in page")
	}
	resp, _ = do("POST", "/login", url.Values{"csrf_token": {csrf[1]}, "user": {testUser}, "password": {testPassword}, "next": {"/"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in on kgeval.localhost: %d", resp.StatusCode)
	}
	if resp, body := do("GET", "/api/me", nil); resp.StatusCode != 200 || !strings.Contains(body, `"user":"`+testUser+`"`) {
		t.Errorf("GET /api/me on kgeval.localhost: %d %s", resp.StatusCode, body)
	}
}
