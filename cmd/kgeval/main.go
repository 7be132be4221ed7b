// Command kgeval evaluates RAG systems with knowledge graphs stored in Neo4j.
//
// Run `kgeval --help` for the commands. Configuration comes from
// configs/kgeval.yaml (embedded defaults), a --config file, KGEVAL_*
// environment variables and flags, in that order.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/kgeval/kgeval"
	"github.com/spf13/cobra"
)

// Build information, set with -ldflags by `make build`.
var (
	version = "dev"
	commit  = "unknown"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := NewMain(os.Stdout, os.Stderr)
	if err := m.Run(ctx, os.Args[1:]); err != nil {
		if !errors.Is(err, errReported) {
			fmt.Fprintln(os.Stderr, "kgeval: "+oneLine(err))
		}
		os.Exit(exitCode(err))
	}
}

// errReported marks an error whose details the command already printed.
var errReported = errors.New("reported")

// exitCode is the process's exit status for err: 1 for a failed gate and
// any error without a code below (not found, internal); 2 for bad usage
// (EINVALID, flag errors); 3 when a service is unavailable or refuses the
// credentials.
func exitCode(err error) int {
	var gate *gateFailure
	if errors.As(err, &gate) {
		return 1
	}
	switch kgeval.ErrorCode(err) {
	case kgeval.EINVALID:
		return 2
	case kgeval.EUNAVAILABLE, kgeval.EUNAUTHORIZED:
		return 3
	}
	return 1
}

// oneLine renders err for a terminal: the user-safe message of an
// application error with its cause, on one line.
func oneLine(err error) string {
	var e *kgeval.Error
	if errors.As(err, &e) {
		return e.Error()
	}
	return err.Error()
}

// Main is the program: it holds the output streams and the flags shared by
// all commands, so that tests can run it in process.
type Main struct {
	Stdout, Stderr io.Writer
	configFile     string
	root           *cobra.Command
}

// NewMain returns the program with its command tree.
func NewMain(stdout, stderr io.Writer) *Main {
	m := &Main{Stdout: stdout, Stderr: stderr}
	m.root = m.rootCommand()
	return m
}

// Run executes the command line args.
func (m *Main) Run(ctx context.Context, args []string) error {
	m.root.SetArgs(args)
	m.root.SetOut(m.Stdout)
	m.root.SetErr(m.Stderr)
	return m.root.ExecuteContext(ctx)
}

// flagKeys maps persistent flags to configuration keys.
var flagKeys = map[string]string{
	"neo4j-uri":      "neo4j.uri",
	"neo4j-user":     "neo4j.user",
	"neo4j-password": "neo4j.password",
	"neo4j-database": "neo4j.database",
	"llm-base-url":   "llm.base_url",
	"llm-model":      "llm.model",
	"engine":         "scoring.engine",
	"tau":            "scoring.tau",
	"delta":          "scoring.delta",
	"metrics":        "scoring.metrics",
	"concurrency":    "llm.concurrency",
	"cache-only":     "llm.cache_only",
	"strict":         "dataset.strict",
	"addr":           "server.addr",
	"log-level":      "log.level",
}

func (m *Main) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "kgeval",
		Short: "Evaluate RAG systems with knowledge graphs in Neo4j",
		Long: `kgeval extracts (subject, relation, object) triplets from each RAG sample's
question, answer, contexts and reference, stores one knowledge graph per pair
of texts in Neo4j, and scores them with multi-hop semantic matching (Dijkstra)
and community overlap (Louvain) through Neo4j Graph Data Science.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return kgeval.Errorf(kgeval.EINVALID, "%v (see --help)", err)
	})
	pf := root.PersistentFlags()
	pf.StringVar(&m.configFile, "config", "", "config file (YAML) merged over the defaults")
	pf.String("neo4j-uri", "", "Neo4j Bolt URI (neo4j.uri)")
	pf.String("neo4j-user", "", "Neo4j user (neo4j.user)")
	pf.String("neo4j-password", "", "Neo4j password (neo4j.password)")
	pf.String("neo4j-database", "", "Neo4j database (neo4j.database)")
	pf.String("llm-base-url", "", "OpenAI-compatible base URL (llm.base_url)")
	pf.String("llm-model", "", "LLM model name (llm.model)")
	pf.String("log-level", "", "debug, info, warn or error (log.level)")
	root.AddCommand(
		m.versionCommand(),
		m.doctorCommand(),
		m.datasetCommand(),
		m.evaluateCommand(),
		m.serveCommand(),
		m.sweepCommand(),
		m.exportCommand(),
		m.runsCommand(),
		m.configCommand(),
		m.correlateCommand(),
		m.compareCommand(),
		m.sensitivityCommand(),
		m.sweepReportCommand(),
		m.cacheCommand(),
		m.validityCommand(),
		m.explainCommand(),
		m.gateCommand(),
	)
	return root
}

// config loads the configuration for cmd.
func (m *Main) config(cmd *cobra.Command) (*Config, error) {
	return loadConfig(m.configFile, cmd.Flags())
}

func (m *Main) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print kgeval's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(m.Stdout, "kgeval %s (commit %s)\n", version, commit)
			return nil
		},
	}
}

func (m *Main) configCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Print the configuration in force (defaults, file, environment, flags)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			r := redacted(c)
			return printYAML(m.Stdout, &r)
		},
	}
}

func redact(s string) string {
	if s == "" {
		return ""
	}
	return "***"
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
