package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/web"
)

// TestServer_Redirect checks that ?next= after sign-in stays on the site:
// the tab trick ("/\t/evil.example/") and its relatives become "/".
func TestServer_Redirect(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL}
	c.signIn()
	for _, tc := range []struct{ next, want string }{
		{"%2F%09%2Fevil.example%2F", "/"}, // finding 4: "/\t/evil.example/"
		{"%2F%0A%2Fevil.example", "/"},
		{"%2F%0D%0ASet-Cookie:x=1", "/"},
		{"//evil.example/", "/"},
		{"/%5Cevil.example", "/"}, // "/\evil.example"
		{"%2F%5C%2Fevil.example", "/"},
		{"https://evil.example/", "/"},
		{"javascript:alert(1)", "/"},
		{"/runs/x//evil.example", "/"},
		{"%2F%E2%80%A8%2Fevil.example", "/"}, // U+2028
		{"%2F%C2%A0%2Fevil.example", "/"},    // no-break space
		{"%2F%E2%80%8B%2Fevil.example", "/"}, // zero-width space
		{"evil.example", "/"},
		{"/runs/r1?variant=a", "/runs/r1?variant=a"},
		{"%2Fruns%2Fr1%2Fsamples%2Fa%252Fb", "/runs/r1/samples/a%2Fb"},
	} {
		resp, _ := c.get("/login?next=" + tc.next)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != tc.want {
			t.Errorf("GET /login?next=%s while signed in: %d %q, want 303 %q", tc.next, resp.StatusCode, resp.Header.Get("Location"), tc.want)
		}
	}
	// The same rule applies to the sign-in form's next.
	d := &client{tb: t, base: srv.URL}
	d.get("/login")
	resp, _ := d.postForm("/login", url.Values{"csrf_token": {d.csrf}, "user": {testUser}, "password": {testPassword}, "next": {"/\t/evil.example/"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Errorf("POST /login with next=/\\t/evil.example/: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// TestServer_Sessions checks that sessions live on the server: a cookie
// replayed after sign-out is refused, and an admin can end every session
// of a user or of a token, which others may not.
func TestServer_Sessions(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	admin := &client{tb: t, base: srv.URL, token: testToken}
	t.Run("SignOut", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		c.signIn()
		stolen := append([]*http.Cookie(nil), c.jar...)
		if resp, _ := c.get("/api/me"); resp.StatusCode != 200 {
			t.Fatalf("signed in: %d", resp.StatusCode)
		}
		if resp, _ := c.postForm("/logout", url.Values{"csrf_token": {c.csrf}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("logout: %d", resp.StatusCode)
		}
		replay := &client{tb: t, base: srv.URL, jar: stolen}
		if resp, _ := replay.get("/api/me"); resp.StatusCode != 401 {
			t.Errorf("cookie replayed after sign-out: %d, want 401 (finding 5)", resp.StatusCode)
		}
		if resp, _ := replay.get("/runs/x"); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("page with a cookie replayed after sign-out: %d, want a redirect to sign in", resp.StatusCode)
		}
	})
	t.Run("Revoke", func(t *testing.T) {
		a1, a2 := &client{tb: t, base: srv.URL}, &client{tb: t, base: srv.URL}
		a1.signIn()
		a2.signIn()
		viaToken := &client{tb: t, base: srv.URL}
		viaToken.get("/login")
		if resp, _ := viaToken.postForm("/login", url.Values{"csrf_token": {viaToken.csrf}, "token": {testToken}}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign-in with the token: %d", resp.StatusCode)
		}
		var list web.SessionsView
		if code := admin.getJSON("/api/sessions", &list); code != 200 {
			t.Fatalf("list: %d", code)
		}
		count := map[string]int{}
		for _, s := range list.Sessions {
			count[s.Kind+":"+s.Name]++
		}
		if count["user:"+testUser] != 2 || count["token:ci"] != 1 {
			t.Errorf("sessions: %+v", list.Sessions)
		}
		// alice is no admin.
		if resp, body := a1.do("GET", "/api/sessions", nil, nil); resp.StatusCode != 403 || !strings.Contains(body, kgeval.EFORBIDDEN) {
			t.Errorf("non-admin list: %d %s", resp.StatusCode, body)
		}
		if resp, _ := a1.do("POST", "/api/sessions/revoke", strings.NewReader(`{"token":"ci"}`), map[string]string{"Content-Type": "application/json", "X-CSRF-Token": a1.csrf}); resp.StatusCode != 403 {
			t.Errorf("non-admin revoke: %d", resp.StatusCode)
		}
		post := func(body string) (int, map[string]any) {
			resp, out := admin.do("POST", "/api/sessions/revoke", strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
			var v map[string]any
			json.Unmarshal([]byte(out), &v)
			return resp.StatusCode, v
		}
		if code, v := post(`{}`); code != 400 {
			t.Errorf("revoke nobody: %d %v", code, v)
		}
		if code, v := post(`{"user":"` + testUser + `"}`); code != 200 || v["revoked"] != 2.0 {
			t.Errorf("revoke alice: %d %v", code, v)
		}
		for i, c := range []*client{a1, a2} {
			if resp, _ := c.get("/api/me"); resp.StatusCode != 401 {
				t.Errorf("alice's session %d after revocation: %d", i, resp.StatusCode)
			}
		}
		if resp, _ := viaToken.get("/api/me"); resp.StatusCode != 200 {
			t.Errorf("the token's session ended with alice's: %d", resp.StatusCode)
		}
		if code, v := post(`{"token":"ci"}`); code != 200 || v["revoked"] != 1.0 {
			t.Errorf("revoke the token's sessions: %d %v", code, v)
		}
		if resp, _ := viaToken.get("/api/me"); resp.StatusCode != 401 {
			t.Errorf("the token's session after revocation: %d", resp.StatusCode)
		}
		// A bearer token is no session: it still works.
		var me map[string]any
		if code := admin.getJSON("/api/me", &me); code != 200 || me["admin"] != true {
			t.Errorf("bearer after revocation: %d %v", code, me)
		}
	})
}

// TestServer_Limits checks the request limits: bodies over the limit are
// refused before anything parses them, a multipart sign-in is never parsed
// without a CSRF header, API answers are not cached and /assets/ lists
// nothing.
func TestServer_Limits(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	tok := &client{tb: t, base: srv.URL, token: testToken}
	big := func(n int) io.Reader { return io.LimitReader(zeros{}, int64(n)) }
	t.Run("Body", func(t *testing.T) {
		req, _ := http.NewRequest("POST", srv.URL+"/api/cypher", big(50<<20))
		req.ContentLength = 50 << 20
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("50 MB JSON: %d, want 413", resp.StatusCode)
		}
		// Without a length (chunked), the read stops at the limit.
		body := `{"query":"RETURN 1 AS x","pad":"` + strings.Repeat("x", 300<<10) + `"}`
		req, _ = http.NewRequest("POST", srv.URL+"/api/cypher", io.MultiReader(strings.NewReader(body)))
		req.ContentLength = -1
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		if resp, err = http.DefaultClient.Do(req); err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(out), kgeval.ETOOLARGE) {
			t.Errorf("300 KB chunked JSON: %d %s, want 413", resp.StatusCode, out)
		}
		// A query under the limit runs.
		if resp, out := tok.do("POST", "/api/cypher", strings.NewReader(`{"query":"RETURN 1 AS x"}`), map[string]string{"Content-Type": "application/json"}); resp.StatusCode != 200 {
			t.Errorf("small query: %d %s", resp.StatusCode, out)
		}
	})
	t.Run("Multipart", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		c.get("/login")
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		w.WriteField("csrf_token", "wrong")
		w.WriteField("user", testUser)
		w.WriteField("password", testPassword)
		w.Close()
		if resp, _ := c.do("POST", "/login", bytes.NewReader(b.Bytes()), map[string]string{"Content-Type": w.FormDataContentType()}); resp.StatusCode != 403 {
			t.Errorf("small multipart sign-in with a wrong CSRF token: %d, want 403", resp.StatusCode)
		}
		// Even with the right token in the form, a multipart body is not
		// read for it.
		b.Reset()
		w = multipart.NewWriter(&b)
		w.WriteField("csrf_token", c.csrf)
		w.Close()
		if resp, _ := c.do("POST", "/login", bytes.NewReader(b.Bytes()), map[string]string{"Content-Type": w.FormDataContentType()}); resp.StatusCode != 403 {
			t.Errorf("multipart sign-in with the CSRF token in the body: %d, want 403", resp.StatusCode)
		}
		req, _ := http.NewRequest("POST", srv.URL+"/login", big(50<<20))
		req.ContentLength = 50 << 20
		req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("50 MB multipart sign-in: %d, want 413", resp.StatusCode)
		}
	})
	t.Run("NoStore", func(t *testing.T) {
		for _, p := range []string{"/api/me", "/api/runs", "/metrics", "/healthz", "/api/openapi.json"} {
			if resp, _ := tok.get(p); resp.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s: Cache-Control %q", p, resp.Header.Get("Cache-Control"))
			}
		}
		c := &client{tb: t, base: srv.URL}
		if resp, _ := c.get("/login"); resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("/login: Cache-Control %q", resp.Header.Get("Cache-Control"))
		}
		if resp, _ := c.get("/api/runs"); resp.StatusCode != 401 || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("401: %d, Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
		if resp, _ := c.get("/assets/app.js"); resp.StatusCode != 200 || resp.Header.Get("Cache-Control") == "no-store" {
			t.Errorf("/assets/app.js: %d, Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
	})
	t.Run("NoListing", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		for _, p := range []string{"/assets/", "/assets", "/assets/vendor/", "/assets/vendor", "/assets/./", "/assets/%2e/"} {
			resp, body := c.get(p)
			if resp.StatusCode == http.StatusMovedPermanently && resp.Header.Get("Location") == p+"/" {
				resp, body = c.get(p + "/")
			}
			if resp.StatusCode != 404 || strings.Contains(body, `href="app.js"`) || strings.Contains(body, `href="vendor/"`) || strings.Contains(body, `href="cytoscape.min.js"`) {
				t.Errorf("GET %s: %d, lists %.100q", p, resp.StatusCode, body)
			}
		}
	})
}

// zeros reads as an endless run of '0'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// TestServer_RateLimit checks that failed sign-ins are limited per user
// name from one client and per client, with Retry-After, before any
// password is checked.
func TestServer_RateLimit(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL}
	c.get("/login")
	try := func(user, password string) *http.Response {
		resp, _ := c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "user": {user}, "password": {password}})
		return resp
	}
	limited := func(resp *http.Response) bool {
		secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		return resp.StatusCode == http.StatusTooManyRequests && err == nil && secs > 0
	}
	for i := 0; i < 5; i++ {
		if resp := try(testUser, "wrong"); resp.StatusCode != 401 {
			t.Fatalf("wrong password %d: %d", i+1, resp.StatusCode)
		}
	}
	if resp := try(testUser, "wrong"); !limited(resp) {
		t.Errorf("6th wrong password: %d, Retry-After %q; want 429 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp := try(strings.ToUpper(testUser), "wrong"); !limited(resp) {
		t.Errorf("the user name in capitals: %d", resp.StatusCode)
	}
	if resp := try(testUser, testPassword); !limited(resp) {
		t.Errorf("the right password while limited: %d, want 429", resp.StatusCode)
	}
	// Other names from the same client: 15 more failures reach the
	// client's limit of 20.
	for i := 0; i < 15; i++ {
		if resp := try(fmt.Sprintf("nobody%d", i), "wrong"); resp.StatusCode != 401 {
			t.Fatalf("unknown user %d: %d", i, resp.StatusCode)
		}
	}
	if resp := try("someone-else", "wrong"); !limited(resp) {
		t.Errorf("21st failure from one client: %d, want 429", resp.StatusCode)
	}
	resp, _ := c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "token": {"kgv_wrong"}})
	if !limited(resp) {
		t.Errorf("a token from a limited client: %d, want 429", resp.StatusCode)
	}
	// Another server (another client as far as limits go) signs in fine.
	srv2, _ := MustServer(t, db, &graphstore.Health{DB: db})
	(&client{tb: t, base: srv2.URL}).signIn()
}
