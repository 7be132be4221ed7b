// Command kgeval evaluates RAG systems with knowledge graphs stored in Neo4j.
//
// Run `kgeval --help` for the commands. Configuration comes from
// configs/kgeval.yaml (embedded defaults), a --config file, KGEVAL_*
// environment variables and flags, in that order.
package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/runner"
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
		switch {
		case m.jsonErrors(os.Args[1:]):
			writeJSONError(os.Stderr, err, m.oneLine(err))
		case !errors.Is(err, errReported):
			fmt.Fprintln(os.Stderr, "kgeval: "+m.oneLine(err))
		}
		os.Exit(exitCode(err))
	}
}

// errReported marks an error whose details the command already printed.
var errReported = errors.New("reported")

// exitStatus is the process's exit status per error code (docs/OPERATIONS.md
// "Exit status"): 0 ok, 1 a failed gate or an internal error, 2 bad usage,
// 3 a service unavailable; then one status per other code. The Python
// package reads the code from the JSON error (jsonErrors), not the status.
var exitStatus = map[string]int{
	kgeval.EINTERNAL:     1,
	kgeval.EINVALID:      2,
	kgeval.EUNAVAILABLE:  3,
	kgeval.ENOTFOUND:     4,
	kgeval.ECONFLICT:     5,
	kgeval.EUNAUTHORIZED: 6,
	kgeval.EFORBIDDEN:    7,
	kgeval.ETOOLARGE:     8,
	kgeval.ETOOMANY:      9,
}

// codeGateFailed is the code of a failed gate in a JSON error: not an
// application error, the checks' verdict (exit status 1).
const codeGateFailed = "gate_failed"

// errorCode is err's code for the JSON error: a failed gate's, else its
// application error code (kgeval.ErrorCode: internal for an error without one).
func errorCode(err error) string {
	var gate *check.GateError
	if errors.As(err, &gate) {
		return codeGateFailed
	}
	return kgeval.ErrorCode(err)
}

// exitCode is the process's exit status for err (exitStatus; 1 for a
// failed gate and for a code it does not list).
func exitCode(err error) int {
	if s, ok := exitStatus[errorCode(err)]; ok {
		return s
	}
	return 1
}

// jsonErrors reports whether the error goes to standard error as one JSON
// object (writeJSONError) instead of a "kgeval: ..." line: when
// KGEVAL_ERROR_FORMAT is json (the Python package sets it), or the command
// that ran was given its boolean --json (its output is JSON too; gate's
// --json FILE is a report file, not this).
func (m *Main) jsonErrors(args []string) bool {
	if os.Getenv("KGEVAL_ERROR_FORMAT") == "json" {
		return true
	}
	cmd, _, err := m.root.Find(args)
	if err != nil || cmd == nil {
		return false
	}
	f := cmd.Flags().Lookup("json")
	return f != nil && f.Value.Type() == "bool" && f.Changed
}

// jsonError is the JSON form of an error on standard error.
type jsonError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Kind    string `json:"kind,omitempty"`
	Exit    int    `json:"exit"`
}

// writeJSONError writes err as one line of JSON: its code (errorCode), the
// message the terminal would show (msg), its kind when it has one and the
// exit status.
func writeJSONError(w io.Writer, err error, msg string) {
	b, _ := json.Marshal(jsonError{Code: errorCode(err), Message: msg, Kind: kgeval.ErrorKind(err), Exit: exitCode(err)})
	fmt.Fprintln(w, string(b))
}

// Main is the program: it holds the output streams and the flags shared by
// all commands, so that tests can run it in process.
type Main struct {
	Stdout, Stderr io.Writer
	configFile     string
	root           *cobra.Command
	// cfg is the configuration the command loaded, kept for the advice on
	// its errors (see advice).
	cfg *configs.Config
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

func (m *Main) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "kgeval",
		Short:         "Evaluate RAG systems with knowledge graphs in Neo4j",
		Long:          help("kgeval"),
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
		m.factcheckCommand(),
		m.calibrateCommand(),
		m.neo4jCommand(),
		m.importTracesCommand(),
	)
	return root
}

// config loads the configuration for cmd.
func (m *Main) config(cmd *cobra.Command) (*configs.Config, error) {
	cfg, err := configs.Load(m.configFile, cmd.Flags())
	m.cfg = cfg
	return cfg, err
}

// readConfig loads the configuration of a command whose own flags do not
// configure (its --metrics or --tau mean something else): only the global
// flags do.
func (m *Main) readConfig(cmd *cobra.Command) (*configs.Config, error) {
	cfg, err := configs.Load(m.configFile, cmd.InheritedFlags())
	m.cfg = cfg
	return cfg, err
}

// withStore runs fn on the store, configured by the command's own flags
// (own) or by the global ones only, and closes it after.
func (m *Main) withStore(cmd *cobra.Command, own bool, fn func(db *graphstore.DB) error) error {
	cfg, err := m.readConfig(cmd)
	if own {
		cfg, err = m.config(cmd)
	}
	if err != nil {
		return err
	}
	db, err := runner.OpenStore(cmd.Context(), cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(cmd.Context()))
	return fn(db)
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
	var keys bool
	c := &cobra.Command{
		Use:   "config",
		Short: "Print the configuration in force (defaults, file, environment, flags)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if keys {
				for _, k := range configs.Keys() {
					fmt.Fprintln(m.Stdout, k)
				}
				return nil
			}
			c, err := m.config(cmd)
			if err != nil {
				return err
			}
			return c.WriteYAML(m.Stdout)
		},
	}
	c.Flags().BoolVar(&keys, "keys", false, "print every configuration key, one a line (a map's as key.*), and nothing else")
	return c
}

//go:embed help
var helpFiles embed.FS

// help returns the long help of a command, help/NAME.txt.
func help(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic(err) // a missing file fails every command test
	}
	return strings.TrimSuffix(string(b), "\n")
}
