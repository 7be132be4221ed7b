package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
)

// WithState completes a's access configuration from the server's state
// directory dir (made at first start): the session key, and, when sign-in
// is on and nobody is configured, an admin token that is printed once on
// log and kept only as its hash.
func WithState(a AuthConfig, dir string, log io.Writer) (AuthConfig, error) {
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
		fmt.Fprintln(log, "kgeval serve: web.auth is false: anyone who reaches server.addr can use the dashboard")
		return a, nil
	}
	if len(a.Users) > 0 || len(a.Tokens) > 0 {
		return a, nil
	}
	file := filepath.Join(dir, "admin-token.sha256")
	var token string
	hash, err := readOrCreate(file, func() (string, error) {
		token = NewToken()
		return HashToken(token), nil
	})
	if err != nil {
		return a, err
	}
	a.Tokens[hash] = "admin"
	a.Admins["token:admin"] = true
	if token != "" {
		fmt.Fprintf(log, "kgeval serve: no web.users or web.tokens configured; admin token (shown once, only its hash is kept in %s):\n%s\n", file, token)
	} else {
		fmt.Fprintf(log, "kgeval serve: sign in with the admin token printed at first start (delete %s to make a new one)\n", file)
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

// dashboardHost is the host name the banner names for a dashboard on
// loopback: browsers resolve every *.localhost name to loopback by
// themselves, and keep its cookies apart from those of 127.0.0.1 and
// localhost, whose every port another program may serve (see
// docs/DASHBOARD.md, Deployment).
const dashboardHost = "kgeval.localhost"

// banner says where the dashboard listening on addr is: on
// dashboardHost when that name reaches it (addr is 127.0.0.1, ::1 or every
// address), with the loopback address for tools that do not resolve
// *.localhost; else at addr.
func banner(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !(tcp.IP.IsUnspecified() || tcp.IP.Equal(net.IPv4(127, 0, 0, 1)) || tcp.IP.Equal(net.IPv6loopback)) {
		return fmt.Sprintf("kgeval serve: dashboard at http://%s/\n", addr)
	}
	loop := "127.0.0.1"
	if tcp.IP.Equal(net.IPv6loopback) {
		loop = "[::1]"
	}
	return fmt.Sprintf("kgeval serve: dashboard at http://%s:%d/\n"+
		"kgeval serve: (tools that do not resolve *.localhost: http://%s:%d/; a browser there shares the session cookie with every port of %s)\n",
		dashboardHost, tcp.Port, loop, tcp.Port, loop)
}

// ListenAndServe serves s on addr until ctx ends, then shuts down within
// 10 seconds; it says where on log. Errors: EUNAVAILABLE when addr cannot
// be listened on.
func (s *Server) ListenAndServe(ctx context.Context, addr string, log io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "listen on %s (server.addr)", addr)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	fmt.Fprint(log, banner(ln.Addr()))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go s.watch.run(wctx, s.health, s.cfg.HealthEvery)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := srv.Shutdown(sctx)
		// Running jobs are cancelled and record their runs as interrupted
		// (resumable after a restart) while the store is still open.
		if c, ok := s.cfg.Jobs.(interface{ Close(time.Duration) }); ok {
			c.Close(10 * time.Second)
		}
		if c, ok := s.cfg.Cypher.(interface{ Close(context.Context) error }); ok {
			c.Close(sctx)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}
