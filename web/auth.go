package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/gorilla/sessions"
	"github.com/kgeval/kgeval"
	"golang.org/x/crypto/bcrypt"
)

// AuthConfig says who may use the dashboard.
type AuthConfig struct {
	// Disabled lets anyone in (web.auth: false); the default is sign-in.
	Disabled bool
	// Users maps a user name to the bcrypt hash of their password.
	Users map[string]string
	// Tokens maps the hex sha256 of an API token to its name. Tokens are
	// long random strings, so a fast hash is enough and keeps every API call
	// cheap; passwords get bcrypt.
	Tokens map[string]string
	// SessionKey signs and encrypts session cookies: 64 bytes (32 for the
	// HMAC, 32 for AES-256).
	SessionKey []byte
	// InsecureCookies drops the Secure flag (plain http on another host
	// than loopback); the default is Secure. A request that came over TLS
	// gets a Secure cookie either way (see cookieFor).
	InsecureCookies bool
	// SessionTTL is how long a sign-in lasts (default 12h).
	SessionTTL time.Duration
	// Admins names who may list and revoke sessions: "user:NAME" for a
	// user, "token:NAME" for an API token (a session opened with the token
	// counts as the token).
	Admins map[string]bool
}

// Sign-in limits, each so many in a row, then one more per interval:
// failed sign-ins per user name from one client, per client, and per user
// name from all clients; successful ones per identity (a user or a token)
// and per client, so that nobody can churn sessions. Then how many
// sessions the server keeps, in all and of one identity (sessionStore).
//
// Failures count per (name, client), not per name (issue 49, N3): five
// wrong passwords for a name from one address locked that name out for
// every address, so anyone could lock a user out. The limit per name from
// all clients is much higher and stops only clients that already failed
// for that name: a client with no failure for it always gets its
// password checked, so its owner signs in during a guessing campaign from
// many addresses, each of which gets one guess once the name's bucket is
// empty (docs/DASHBOARD.md, "Sign-in limits").
const (
	pairAttempts        = 5
	pairEvery           = time.Minute
	clientAttempts      = 20
	clientEvery         = 15 * time.Second
	nameAttempts        = 100
	nameEvery           = 30 * time.Second
	identitySignIns     = 10
	identityEvery       = 30 * time.Second
	clientSignIns       = 30
	clientSignInEvery   = 10 * time.Second
	maxSessions         = 10000
	maxIdentitySessions = 100
	maxLimitKeys        = 10000
)

const (
	sessionName = "kgeval_session"
	// hostSessionName is the session cookie's name where the browser
	// reached the server over https (cookieFor). A browser keeps a
	// __Host- cookie only when it is Secure, set over https, with Path=/
	// and no Domain: no sibling host can scope one to this host, and no
	// plain-http page can set or overwrite it. Like every cookie it is
	// still sent to every port of its host.
	hostSessionName = "__Host-" + sessionName
	csrfHeader      = "X-CSRF-Token"
	csrfField       = "csrf_token"
)

type auth struct {
	cfg        AuthConfig
	store      *sessions.CookieStore // the cookie: session id and CSRF token
	sessions   *sessionStore         // who is signed in, on the server
	pairs      *signInLimiter        // failed sign-ins per user name from one client address
	clients    *signInLimiter        // failed sign-ins per client address
	names      *signInLimiter        // failed sign-ins per user name from all clients
	identities *signInLimiter        // successful sign-ins per identity
	clientsOK  *signInLimiter        // successful sign-ins per client address
	proxies    []*net.IPNet          // whose X-Forwarded-* headers count
	dummy      []byte                // a bcrypt hash to compare against for unknown users
}

// newAuth returns the sign-in of cfg; X-Forwarded-Proto counts only from
// the peers in proxies (IP addresses or CIDRs, as gin's SetTrustedProxies
// takes them).
func newAuth(cfg AuthConfig, proxies []string) (*auth, error) {
	if len(cfg.SessionKey) != 64 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "session key: %d bytes, want 64", len(cfg.SessionKey))
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 12 * time.Hour
	}
	st := sessions.NewCookieStore(cfg.SessionKey[:32], cfg.SessionKey[32:])
	st.Options = &sessions.Options{Path: "/", MaxAge: int(cfg.SessionTTL.Seconds()), HttpOnly: true,
		Secure: !cfg.InsecureCookies, SameSite: http.SameSiteStrictMode}
	st.MaxAge(st.Options.MaxAge)
	dummy, err := bcrypt.GenerateFromPassword(cfg.SessionKey[:16], bcrypt.DefaultCost)
	if err != nil {
		return nil, err
	}
	trusted, err := parseProxies(proxies)
	if err != nil {
		return nil, err
	}
	return &auth{cfg: cfg, store: st, dummy: dummy, sessions: newSessionStore(maxSessions, maxIdentitySessions), proxies: trusted,
		pairs:      newSignInLimiter(pairAttempts, pairEvery, maxLimitKeys),
		clients:    newSignInLimiter(clientAttempts, clientEvery, maxLimitKeys),
		names:      newSignInLimiter(nameAttempts, nameEvery, maxLimitKeys),
		identities: newSignInLimiter(identitySignIns, identityEvery, maxLimitKeys),
		clientsOK:  newSignInLimiter(clientSignIns, clientSignInEvery, maxLimitKeys)}, nil
}

// HashToken returns the hex sha256 of an API token, as web.tokens stores it.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewToken returns a new random API token.
func NewToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return "kgv_" + base64.RawURLEncoding.EncodeToString(b)
}

// HashPassword returns the bcrypt hash of a password, as web.users stores it.
func HashPassword(pw string) (string, error) {
	if len(pw) < 8 {
		return "", kgeval.Errorf(kgeval.EINVALID, "a password needs at least 8 characters")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.DefaultCost)
	return string(h), err
}

// Context keys set by identify.
const (
	keyUser = "kgeval.user"
	keyVia  = "kgeval.via"  // "token", "session" or "open"
	keyKind = "kgeval.kind" // "user" or "token": what keyUser names
	keySess = "kgeval.session"
)

// identify finds who is calling: a bearer token, else a session cookie.
func (a *auth) identify(c *gin.Context) {
	if a.cfg.Disabled {
		c.Set(keyUser, "anonymous")
		c.Set(keyVia, "open")
	}
	if h := c.GetHeader("Authorization"); strings.HasPrefix(h, "Bearer ") {
		if name, ok := a.tokenName(strings.TrimSpace(strings.TrimPrefix(h, "Bearer "))); ok {
			c.Set(keyUser, name)
			c.Set(keyKind, "token")
			c.Set(keyVia, "token")
		}
		c.Next()
		return
	}
	name, secure := a.cookieFor(c.Request)
	sess, _ := a.store.Get(c.Request, name) // a bad or expired cookie gives a new session
	sess.Options.Secure = secure
	c.Set(keySess, sess)
	id, _ := sess.Values["sid"].(string)
	if ss, ok := a.sessions.get(id); ok {
		c.Set(keyUser, ss.Name)
		c.Set(keyKind, ss.Kind)
		c.Set(keyVia, "session")
	}
	c.Next()
}

// cookieFor returns the session cookie's name and Secure flag for a
// request. Over https (the connection's own TLS, or the X-Forwarded-Proto:
// https of a proxy in web.trusted_proxies) the cookie is Secure and named
// __Host-kgeval_session. Over plain http it is Secure unless
// InsecureCookies, and keeps the plain name kgeval_session on a loopback
// host (127.0.0.0/8, ::1, localhost, *.localhost), where browsers take a
// Secure cookie over plain http but may refuse a __Host- one; on any other
// host a Secure cookie only works over https, so it gets the prefix too.
//
// The name decides nothing about who is signed in (the session lives on
// the server and the cookie's value is sealed with its name); a client
// that is no trusted proxy cannot change it with X-Forwarded-Proto.
func (a *auth) cookieFor(r *http.Request) (name string, secure bool) {
	switch {
	case a.overTLS(r):
		return hostSessionName, true
	case a.cfg.InsecureCookies:
		return sessionName, false
	case isLoopbackHost(r.Host):
		return sessionName, true
	}
	return hostSessionName, true
}

// isLoopbackHost reports whether a Host header (with or without a port)
// names this machine's loopback: 127.0.0.0/8, ::1, localhost or a name
// under .localhost (RFC 6761; browsers resolve those to loopback).
func isLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// tokenName looks a token up in constant time per stored token.
func (a *auth) tokenName(token string) (string, bool) {
	if token == "" {
		return "", false
	}
	h := HashToken(token)
	for stored, name := range a.cfg.Tokens {
		if subtle.ConstantTimeCompare([]byte(stored), []byte(h)) == 1 {
			return name, true
		}
	}
	return "", false
}

// require stops callers who are not signed in: 401 JSON for the API and
// /metrics, a redirect to the sign-in page for pages.
func (a *auth) require(c *gin.Context) {
	if c.GetString(keyUser) != "" {
		c.Next()
		return
	}
	if isAPI(c) || c.Request.URL.Path == "/metrics" || c.Request.Method != http.MethodGet {
		c.Header("WWW-Authenticate", `Bearer realm="kgeval"`)
		c.AbortWithStatusJSON(http.StatusUnauthorized, apiError{Error: "sign in, or send an API token as Authorization: Bearer", Code: kgeval.EUNAUTHORIZED})
		return
	}
	c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request.URL.RequestURI()))
	c.Abort()
}

// csrf checks the synchronizer token of every state-changing request made
// with a session cookie (a bearer token is no ambient credential, so token
// calls need none). The token is in the session and the page; it comes back
// as the X-CSRF-Token header or the csrf_token field of a URL-encoded form.
// A multipart body is never parsed to look for it: without the header it
// is refused unread. Beside the token, the standard library's
// http.CrossOriginProtection refuses a request the browser marks as
// cross-site (Sec-Fetch-Site) or whose Origin is not the Host.
func (a *auth) csrf(c *gin.Context) {
	switch c.Request.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		c.Next()
		return
	}
	if c.GetString(keyVia) == "token" {
		c.Next()
		return
	}
	if err := crossOrigin.Check(c.Request); err != nil {
		c.AbortWithStatusJSON(http.StatusForbidden, apiError{Error: "cross-origin request refused: use the dashboard's own pages", Code: kgeval.EFORBIDDEN})
		return
	}
	want := a.csrfToken(c)
	got := c.GetHeader(csrfHeader)
	if got == "" && c.ContentType() == "application/x-www-form-urlencoded" {
		got = c.PostForm(csrfField)
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		c.AbortWithStatusJSON(http.StatusForbidden, apiError{Error: "missing or wrong CSRF token: reload the page", Code: kgeval.EFORBIDDEN})
		return
	}
	c.Next()
}

// crossOrigin is the cross-origin check of csrf (no trusted origins).
var crossOrigin = http.NewCrossOriginProtection()

// session returns the caller's cookie session (nil for token calls).
func session(c *gin.Context) *sessions.Session {
	s, _ := c.Get(keySess)
	sess, _ := s.(*sessions.Session)
	return sess
}

// csrfToken returns the session's CSRF token, creating it (and saving the
// session) when there is none.
func (a *auth) csrfToken(c *gin.Context) string {
	sess := session(c)
	if sess == nil {
		return ""
	}
	if t, ok := sess.Values["csrf"].(string); ok && t != "" {
		return t
	}
	b := make([]byte, 32)
	rand.Read(b)
	t := base64.RawURLEncoding.EncodeToString(b)
	sess.Values["csrf"] = t
	if err := sess.Save(c.Request, c.Writer); err != nil {
		return ""
	}
	return t
}

// checkLogin returns who a name and password or a token sign in as: the
// name and "user" or "token".
func (a *auth) checkLogin(user, password, token string) (name, kind string, ok bool) {
	if token != "" {
		name, ok := a.tokenName(token)
		return name, "token", ok
	}
	hash, ok := a.cfg.Users[user]
	if !ok {
		// Spend the same time as for a real user, so names cannot be probed.
		bcrypt.CompareHashAndPassword(a.dummy, []byte(password))
		return "", "", false
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) != nil {
		return "", "", false
	}
	return user, "user", true
}

// attemptWait returns how long a client (and, for a password sign-in, the
// user name as typed) must wait before its next sign-in attempt, checked
// before any password: 0 when it may try now. The limit per name from all
// clients holds back only a client that has failed for that name before.
func (a *auth) attemptWait(client, user string) time.Duration {
	now := time.Now()
	wait := max(a.clients.wait(client, now), a.clientsOK.wait(client, now))
	if user != "" {
		name := nameKey(user)
		wait = max(wait, a.pairs.wait(pairKey(name, client), now), a.identities.wait("user:"+user, now))
		if a.pairs.failedBefore(pairKey(name, client), now) {
			wait = max(wait, a.names.wait(name, now))
		}
	}
	return wait
}

// identityWait returns how long an identity (kind "user" or "token") must
// wait before it may sign in again: 0 when now.
func (a *auth) identityWait(name, kind string) time.Duration {
	return a.identities.wait(kind+":"+name, time.Now())
}

// failed records a failed sign-in of a client and user name (as typed).
func (a *auth) failed(client, user string) {
	now := time.Now()
	a.clients.count(client, now)
	if user != "" {
		name := nameKey(user)
		a.pairs.count(pairKey(name, client), now)
		a.names.count(name, now)
	}
}

// nameKey is the key of a user name as typed, in any case, in the limits.
func nameKey(user string) string { return "user:" + strings.ToLower(user) }

// pairKey is the key of a user name's failures from one client (a client
// address holds no NUL byte).
func pairKey(name, client string) string { return name + "\x00" + client }

// succeeded records a successful sign-in of a client as an identity.
func (a *auth) succeeded(client, name, kind string) {
	now := time.Now()
	a.clientsOK.count(client, now)
	a.identities.count(kind+":"+name, now)
}

// signIn starts a server-side session for name (a user or token, per kind)
// and puts its id in the cookie with a fresh CSRF token. A session the
// cookie held before ends. Errors: ETOOMANY when the session store is full
// of other identities' sessions.
func (a *auth) signIn(c *gin.Context, name, kind string) error {
	sess := session(c)
	if sess == nil {
		return kgeval.Errorf(kgeval.EINTERNAL, "no session")
	}
	if old, _ := sess.Values["sid"].(string); old != "" {
		a.sessions.delete(old)
	}
	id, err := a.sessions.create(name, kind, a.cfg.SessionTTL)
	if err != nil {
		return err
	}
	b := make([]byte, 32)
	rand.Read(b)
	sess.Values = map[any]any{"sid": id, "csrf": base64.RawURLEncoding.EncodeToString(b)}
	if err := sess.Save(c.Request, c.Writer); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	return nil
}

// signOut ends the caller's session on the server, so that a copy of the
// cookie is worth nothing, and clears the cookie.
func (a *auth) signOut(c *gin.Context) {
	if sess := session(c); sess != nil {
		if id, _ := sess.Values["sid"].(string); id != "" {
			a.sessions.delete(id)
		}
		sess.Values = map[any]any{}
		sess.Options.MaxAge = -1
		sess.Save(c.Request, c.Writer)
	}
}

// isAdmin reports whether the caller may list and revoke sessions.
func (a *auth) isAdmin(c *gin.Context) bool {
	if c.GetString(keyVia) == "open" || c.GetString(keyUser) == "" {
		return false
	}
	return a.cfg.Admins[c.GetString(keyKind)+":"+c.GetString(keyUser)]
}

// caller names who is calling, as jobs and uploads record their owner:
// "user:NAME" or "token:NAME" (the keys of AuthConfig.Admins; a session
// opened with a token is the token), "anonymous" with sign-in off, "" for
// nobody.
func caller(c *gin.Context) string {
	user := c.GetString(keyUser)
	switch {
	case user == "":
		return ""
	case c.GetString(keyVia) == "open":
		return "anonymous"
	}
	return c.GetString(keyKind) + ":" + user
}

// sessionID returns the id of the caller's server-side session, if any.
func sessionID(c *gin.Context) string {
	if sess := session(c); sess != nil {
		id, _ := sess.Values["sid"].(string)
		return id
	}
	return ""
}

func isAPI(c *gin.Context) bool { return strings.HasPrefix(c.Request.URL.Path, "/api/") }

// safeNext keeps a post-sign-in redirect on this site: a path starting with
// one '/', with no "//", no backslash, no space, control, format or line
// separator character anywhere (browsers drop tabs and newlines and read a
// backslash as '/', so "/\t/evil.example" leaves the site), and no scheme or
// host. Anything else becomes "/".
func safeNext(next string) string {
	if len(next) > 2048 || !strings.HasPrefix(next, "/") || strings.Contains(next, "//") || strings.ContainsRune(next, '\\') {
		return "/"
	}
	for _, r := range next {
		if r <= ' ' || r == utf8.RuneError || !unicode.IsGraphic(r) || unicode.IsSpace(r) {
			return "/"
		}
	}
	if u, err := url.Parse(next); err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "/"
	}
	return next
}
