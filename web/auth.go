package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

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
	// than loopback); the default is Secure.
	InsecureCookies bool
	// SessionTTL is how long a sign-in lasts (default 12h).
	SessionTTL time.Duration
}

const (
	sessionName = "kgeval_session"
	csrfHeader  = "X-CSRF-Token"
	csrfField   = "csrf_token"
)

type auth struct {
	cfg   AuthConfig
	store *sessions.CookieStore
	dummy []byte // a bcrypt hash to compare against for unknown users
}

func newAuth(cfg AuthConfig) (*auth, error) {
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
	return &auth{cfg: cfg, store: st, dummy: dummy}, nil
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
	keyVia  = "kgeval.via" // "token", "session" or "open"
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
			c.Set(keyVia, "token")
		}
		c.Next()
		return
	}
	sess, _ := a.store.Get(c.Request, sessionName) // a bad or expired cookie gives a new session
	c.Set(keySess, sess)
	if u, ok := sess.Values["user"].(string); ok && u != "" {
		if exp, ok := sess.Values["expires"].(int64); ok && time.Now().Unix() < exp {
			c.Set(keyUser, u)
			c.Set(keyVia, "session")
		}
	}
	c.Next()
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
// as the X-CSRF-Token header or the csrf_token form field.
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
	want := a.csrfToken(c)
	got := c.GetHeader(csrfHeader)
	if got == "" {
		got = c.PostForm(csrfField)
	}
	if want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		c.AbortWithStatusJSON(http.StatusForbidden, apiError{Error: "missing or wrong CSRF token: reload the page", Code: "forbidden"})
		return
	}
	c.Next()
}

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

// checkLogin returns the user a name and password or a token sign in as.
func (a *auth) checkLogin(user, password, token string) (string, bool) {
	if token != "" {
		return a.tokenName(token)
	}
	hash, ok := a.cfg.Users[user]
	if !ok {
		// Spend the same time as for a real user, so names cannot be probed.
		bcrypt.CompareHashAndPassword(a.dummy, []byte(password))
		return "", false
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) != nil {
		return "", false
	}
	return user, true
}

// signIn records user in the session with a fresh CSRF token.
func (a *auth) signIn(c *gin.Context, user string) error {
	sess := session(c)
	if sess == nil {
		return kgeval.Errorf(kgeval.EINTERNAL, "no session")
	}
	b := make([]byte, 32)
	rand.Read(b)
	sess.Values = map[any]any{"user": user, "csrf": base64.RawURLEncoding.EncodeToString(b),
		"expires": time.Now().Add(a.cfg.SessionTTL).Unix()}
	if err := sess.Save(c.Request, c.Writer); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	return nil
}

func (a *auth) signOut(c *gin.Context) {
	if sess := session(c); sess != nil {
		sess.Values = map[any]any{}
		sess.Options.MaxAge = -1
		sess.Save(c.Request, c.Writer)
	}
}

func isAPI(c *gin.Context) bool { return strings.HasPrefix(c.Request.URL.Path, "/api/") }

// safeNext keeps a post-sign-in redirect on this site.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		return "/"
	}
	return next
}
