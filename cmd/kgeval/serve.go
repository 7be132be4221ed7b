package main

import (
	"bufio"
	"fmt"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/web"
	"github.com/spf13/cobra"
)

func (m *Main) serveCommand() *cobra.Command {
	var jobDelay time.Duration
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the team dashboard and its JSON API (sign-in required; see the web: config section)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			return app.Serve(cmd.Context(), cfg, version, m.Stderr, jobDelay)
		},
	}
	c.Flags().String("addr", "", "listen address (server.addr, default 127.0.0.1:8080)")
	// The browser test slows jobs down so that their progress can be
	// watched without a model.
	c.Flags().DurationVar(&jobDelay, "test-job-delay", 0, "pause at every progress report of a dashboard job (tests only)")
	_ = c.Flags().MarkHidden("test-job-delay")
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
