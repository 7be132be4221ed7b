package main

import (
	"os"
	"strings"

	"github.com/kgeval/kgeval"
	neo4jdeploy "github.com/kgeval/kgeval/deploy/neo4j"
	"github.com/spf13/cobra"
)

// neo4jCommand runs the bundled Neo4j + GDS launcher (deploy/neo4j/neo4j.sh,
// embedded in the binary) with the state directory of the configuration (configs.Config.StateDir), so
// that a binary installed without the repository (the Python wheel) can
// start the same Neo4j as `make neo4j-start`.
func (m *Main) neo4jCommand() *cobra.Command {
	c := &cobra.Command{
		Use:       "neo4j install|start|stop|status|password",
		Short:     "Install, start or stop the bundled Neo4j + GDS on 127.0.0.1 (needs Java 17 or 21; the jars come from Maven Central, checked against a lock)",
		Long:      help("neo4j"),
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"install", "start", "stop", "status", "password"},
		RunE: func(cmd *cobra.Command, args []string) error {
			action := args[0]
			switch action {
			case "install", "start", "stop", "status", "password", "restart":
			default:
				return kgeval.Errorf(kgeval.EINVALID, "neo4j %q: want install, start, stop, restart, status or password", action)
			}
			cfg, err := m.readConfig(cmd)
			if err != nil {
				return err
			}
			return neo4jdeploy.Run(cmd.Context(), action, cfg.StateDir, neo4jdeploy.RunOptions{JavaHome: os.Getenv("JAVA_HOME"),
				Repos: mavenRepos(), Stdout: m.Stdout, Stderr: m.Stderr})
		},
	}
	return c
}

// mavenRepos are the repositories of KGEVAL_MAVEN_URL (comma-separated
// https:// or file:// roots) the jars come from; none: Maven Central.
func mavenRepos() []string {
	var repos []string
	for _, r := range strings.Split(os.Getenv("KGEVAL_MAVEN_URL"), ",") {
		if r = strings.TrimSpace(r); r != "" {
			repos = append(repos, r)
		}
	}
	return repos
}
