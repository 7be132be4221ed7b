package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/web"
	"github.com/spf13/cobra"
)

func (m *Main) serveCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve kgeval over HTTP (for now /healthz; the dashboard and API come next)",
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
	return c
}

func (m *Main) serve(ctx context.Context, cfg *Config) error {
	db, err := openMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	ln, err := net.Listen("tcp", cfg.Server.Addr)
	if err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "listen on %s (server.addr)", cfg.Server.Addr)
	}
	srv := &http.Server{Handler: web.NewServer(&graphstore.Health{DB: db}, version).Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(m.Stderr, "kgeval serve: http://%s/healthz\n", ln.Addr())
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
