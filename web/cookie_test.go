package web_test

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/web"
)

// cookieServer is a server with the test user, Secure cookies unless
// insecure, the trusted proxies given, and no store (sign-in needs none).
func cookieServer(t *testing.T, insecure bool, proxies ...string) *web.Server {
	t.Helper()
	hash, err := web.HashPassword(testPassword)
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.NewServer(web.Config{Version: "test", Auth: web.AuthConfig{
		Users: map[string]string{testUser: hash}, SessionKey: []byte(strings.Repeat("k", 64)), InsecureCookies: insecure,
	}, TrustedProxies: proxies}, downHealth{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testProxy is the trusted proxy of the cookie tests; httptest's requests
// come from 192.0.2.1, a client.
const testProxy = "198.51.100.7"

// sessionCookie returns the session cookie a GET /login sets for a request
// to host (with a X-Forwarded-Proto header when proto is set), from the
// peer from (host:port; httptest's default when empty).
func sessionCookie(t *testing.T, s *web.Server, host, proto, from string, overTLS bool) *http.Cookie {
	t.Helper()
	req := httptest.NewRequest("GET", "/login", nil)
	req.Host = host
	if from != "" {
		req.RemoteAddr = from
	}
	if proto != "" {
		req.Header.Set("X-Forwarded-Proto", proto)
	}
	if overTLS {
		req.TLS = &tls.ConnectionState{}
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	cookies := rec.Result().Cookies()
	if len(cookies) != 1 {
		t.Fatalf("GET /login on %s: %d cookies: %v", host, len(cookies), rec.Header()["Set-Cookie"])
	}
	return cookies[0]
}

// TestServer_SessionCookie checks the session cookie's name and flags:
// __Host-kgeval_session over https (the server's own TLS, or the
// X-Forwarded-Proto of a proxy in web.trusted_proxies) and on a host that
// is not loopback (where a Secure cookie only works over https anyway);
// kgeval_session over plain http on loopback, where a browser may refuse a
// __Host- cookie. Always HttpOnly, SameSite=Strict, Path=/ and no Domain.
// X-Forwarded-Proto from a client that is no trusted proxy changes nothing:
// with web.trusted_proxies empty (the default) or naming another address,
// "https" neither renames the cookie nor makes it Secure.
func TestServer_SessionCookie(t *testing.T) {
	secure, insecure := cookieServer(t, false, testProxy), cookieServer(t, true, testProxy)
	open, openInsecure := cookieServer(t, false), cookieServer(t, true) // web.trusted_proxies empty
	proxy := testProxy + ":40000"
	for _, tc := range []struct {
		name, host, proto, from string
		tls, insecure           bool
		want                    string
		secure, trustNone       bool // trustNone: web.trusted_proxies empty
	}{
		{"LoopbackIP", "127.0.0.1:8080", "", "", false, false, "kgeval_session", true, false},
		{"LoopbackIPv6", "[::1]:8080", "", "", false, false, "kgeval_session", true, false},
		{"Localhost", "localhost:8080", "", "", false, false, "kgeval_session", true, false},
		{"OwnLocalhostName", "kgeval.localhost:8080", "", "", false, false, "kgeval_session", true, false},
		{"TLS", "127.0.0.1:8443", "", "", true, false, "__Host-kgeval_session", true, false},
		{"TLSProxy", "127.0.0.1:8080", "https", proxy, false, false, "__Host-kgeval_session", true, false},
		{"TLSProxyHost", "kgeval.example.org", "https", proxy, false, false, "__Host-kgeval_session", true, false},
		{"TeamHost", "kgeval.example.org", "", "", false, false, "__Host-kgeval_session", true, false},
		{"PlainProxy", "kgeval.localhost", "http", proxy, false, false, "kgeval_session", true, false},
		{"InsecureTeamHost", "kgeval.example.org", "", "", false, true, "kgeval_session", false, false},
		{"InsecureButTLS", "kgeval.example.org", "https", proxy, false, true, "__Host-kgeval_session", true, false},
		// A forwarded proto from a client, not the proxy: ignored.
		{"SpoofedTLS", "127.0.0.1:8080", "https", "", false, false, "kgeval_session", true, false},
		{"SpoofedTLSInsecure", "kgeval.example.org", "https", "", false, true, "kgeval_session", false, false},
		{"SpoofedTLSNoProxies", "127.0.0.1:8080", "https", proxy, false, false, "kgeval_session", true, true},
		{"SpoofedTLSNoProxiesInsecure", "kgeval.example.org", "https", proxy, false, true, "kgeval_session", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := map[[2]bool]*web.Server{{false, false}: secure, {true, false}: insecure, {false, true}: open, {true, true}: openInsecure}[[2]bool{tc.insecure, tc.trustNone}]
			ck := sessionCookie(t, s, tc.host, tc.proto, tc.from, tc.tls)
			t.Logf("%s (proto %q from %q, tls %v, secure_cookies %v): %s", tc.host, tc.proto, tc.from, tc.tls, !tc.insecure, ck.String())
			if ck.Name != tc.want || ck.Secure != tc.secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Domain != "" {
				t.Errorf("cookie %s, want %s with Secure %v, HttpOnly, SameSite=Strict, Path=/, no Domain", ck.String(), tc.want, tc.secure)
			}
		})
	}
}

// TestServer_SessionCookieTLS signs in over TLS: the session lives in the
// __Host- cookie, and the same sealed value under the plain name (a cookie
// a plain-http page of the host could set) is no session.
func TestServer_SessionCookieTLS(t *testing.T) {
	srv := httptest.NewTLSServer(cookieServer(t, false).Handler())
	defer srv.Close()
	hc := srv.Client()
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	jar := map[string]*http.Cookie{}
	do := func(method, path string, form url.Values) (*http.Response, string) {
		t.Helper()
		var req *http.Request
		if form != nil {
			req, _ = http.NewRequest(method, srv.URL+path, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			req, _ = http.NewRequest(method, srv.URL+path, nil)
		}
		for _, ck := range jar {
			req.AddCookie(&http.Cookie{Name: ck.Name, Value: ck.Value})
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		for _, ck := range resp.Cookies() {
			jar[ck.Name] = ck
		}
		return resp, b.String()
	}
	_, page := do("GET", "/login", nil)
	m := regexp.MustCompile(`name="csrf_token" value="([^"]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on the sign-in page")
	}
	resp, _ := do("POST", "/login", url.Values{"csrf_token": {m[1]}, "user": {testUser}, "password": {testPassword}, "next": {"/"}})
	ck := jar["__Host-kgeval_session"]
	if resp.StatusCode != http.StatusSeeOther || ck == nil || !ck.Secure || len(jar) != 1 {
		t.Fatalf("sign-in over TLS: %d, cookies %v", resp.StatusCode, jar)
	}
	if resp, body := do("GET", "/api/me", nil); resp.StatusCode != 200 || !strings.Contains(body, `"user":"`+testUser+`"`) {
		t.Errorf("me with the __Host- cookie: %d %s", resp.StatusCode, body)
	}
	// The plain name with the same value: no session (the value is sealed
	// with its name, and over TLS only the __Host- name is read).
	jar = map[string]*http.Cookie{"kgeval_session": {Name: "kgeval_session", Value: ck.Value}}
	resp, _ = do("GET", "/api/me", nil)
	t.Logf("over TLS: signed in with %s (Secure %v); the value under kgeval_session: %d", ck.Name, ck.Secure, resp.StatusCode)
	if resp.StatusCode != 401 {
		t.Errorf("me with the plain-named cookie: %d, want 401", resp.StatusCode)
	}
}
