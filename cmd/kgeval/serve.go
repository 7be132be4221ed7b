package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/web"
	"github.com/spf13/cobra"
)

func (m *Main) serveCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the team dashboard and its JSON API (sign-in required; see the web: config section)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			return m.serve(cmd.Context(), cfg)
		},
	}
	c.Flags().String("addr", "", "listen address (server.addr, default 127.0.0.1:8080)")
	c.AddCommand(&cobra.Command{
		Use:   "hash-password",
		Short: "Read a password on standard input and print its bcrypt hash for web.users",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
			if err != nil && line == "" {
				return kgeval.Errorf(kgeval.EINVALID, "no password on standard input")
			}
			h, err := web.HashPassword(strings.TrimRight(line, "\r\n"))
			if err != nil {
				return err
			}
			fmt.Fprintln(m.Stdout, h)
			return nil
		},
	})
	c.AddCommand(&cobra.Command{
		Use:   "new-token NAME",
		Short: "Print a new API token and the web.tokens entry (its sha256) to configure",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			tok := web.NewToken()
			fmt.Fprintf(m.Stdout, "token:  %s\nconfig: web.tokens: [{name: %s, sha256: %s}]\n", tok, args[0], web.HashToken(tok))
			return nil
		},
	})
	return c
}

func (m *Main) serve(ctx context.Context, cfg *configs.Config) error {
	auth, err := m.webAuth(cfg)
	if err != nil {
		return err
	}
	db, err := openMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	s, err := web.NewServer(web.Config{
		Version:        version,
		Auth:           auth,
		Console:        kgeval.ConsoleLimits{Timeout: cfg.Web.CypherTimeout, MaxRows: cfg.Web.CypherMaxRows, MaxBytes: cfg.Web.CypherMaxBytes},
		TrustedProxies: cfg.Web.TrustedProxies,
	}, &graphstore.Health{DB: db}, db)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Server.Addr)
	if err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "listen on %s (server.addr)", cfg.Server.Addr)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	fmt.Fprintf(m.Stderr, "kgeval serve: dashboard at http://%s/\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// webAuth builds the dashboard's access configuration: users and tokens
// from the config, the session key from the state directory (made at first
// start), and, when sign-in is on and nobody is configured, an admin token
// that is printed once and kept only as its hash.
func (m *Main) webAuth(cfg *configs.Config) (web.AuthConfig, error) {
	a := web.AuthConfig{Disabled: !cfg.Web.Auth, Users: map[string]string{}, Tokens: map[string]string{},
		InsecureCookies: !cfg.Web.SecureCookies, SessionTTL: cfg.Web.SessionTTL, Admins: map[string]bool{}}
	for _, u := range cfg.Web.Users {
		a.Users[u.Name] = u.PasswordHash
		a.Admins["user:"+u.Name] = u.Admin
	}
	for _, t := range cfg.Web.Tokens {
		a.Tokens[strings.ToLower(t.SHA256)] = t.Name
		a.Admins["token:"+t.Name] = t.Admin
	}
	dir := expandHome(cfg.Web.StateDir)
	if !filepath.IsAbs(dir) {
		if root := projectRoot(); root != "" {
			dir = filepath.Join(root, dir)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return a, kgeval.Wrap(kgeval.EINVALID, err, "web.state_dir %s", dir)
	}
	key, err := readOrCreate(filepath.Join(dir, "session.key"), func() (string, error) {
		b := make([]byte, 64)
		_, err := rand.Read(b)
		return hex.EncodeToString(b), err
	})
	if err != nil {
		return a, err
	}
	if a.SessionKey, err = hex.DecodeString(key); err != nil || len(a.SessionKey) != 64 {
		return a, kgeval.Errorf(kgeval.EINVALID, "%s: not a session key (delete it to make a new one)", filepath.Join(dir, "session.key"))
	}
	if a.Disabled {
		fmt.Fprintln(m.Stderr, "kgeval serve: web.auth is false: anyone who reaches server.addr can use the dashboard")
		return a, nil
	}
	if len(a.Users) > 0 || len(a.Tokens) > 0 {
		return a, nil
	}
	file := filepath.Join(dir, "admin-token.sha256")
	var token string
	hash, err := readOrCreate(file, func() (string, error) {
		token = web.NewToken()
		return web.HashToken(token), nil
	})
	if err != nil {
		return a, err
	}
	a.Tokens[hash] = "admin"
	a.Admins["token:admin"] = true
	if token != "" {
		fmt.Fprintf(m.Stderr, "kgeval serve: no web.users or web.tokens configured; admin token (shown once, only its hash is kept in %s):\n%s\n", file, token)
	} else {
		fmt.Fprintf(m.Stderr, "kgeval serve: sign in with the admin token printed at first start (delete %s to make a new one)\n", file)
	}
	return a, nil
}

// readOrCreate returns the trimmed content of file, first writing what make
// returns (mode 0600) when the file does not exist.
func readOrCreate(file string, make func() (string, error)) (string, error) {
	b, err := os.ReadFile(file)
	if err == nil {
		return strings.TrimSpace(string(b)), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", kgeval.Wrap(kgeval.EINVALID, err, "read %s", file)
	}
	v, err := make()
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(file, []byte(v+"\n"), 0o600); err != nil {
		return "", kgeval.Wrap(kgeval.EINVALID, err, "write %s", file)
	}
	return v, nil
}
