package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/llm"
	"github.com/spf13/cobra"
)

// check is one line of `kgeval doctor`.
type check struct {
	name     string
	ok       bool
	required bool
	detail   string
}

func (m *Main) doctorCommand() *cobra.Command {
	var fix bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check Neo4j, GDS, the schema and the model endpoints",
		Long: `doctor checks, one line each, that Neo4j answers, that the Graph Data Science
procedures are installed, that kgeval's schema is in place and that the model
endpoints are reachable. It exits non-zero when something required is missing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			checks := runChecks(cmd.Context(), cfg, fix)
			failed := false
			for _, ch := range checks {
				status := "ok  "
				if !ch.ok && ch.required {
					status, failed = "FAIL", true
				} else if !ch.ok {
					status = "warn"
				}
				fmt.Fprintf(m.Stdout, "%s  %-10s %s\n", status, ch.name, ch.detail)
			}
			if failed {
				return kgeval.Errorf(kgeval.EUNAVAILABLE, "doctor: something required is missing (see FAIL lines above)")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&fix, "fix", false, "create kgeval's constraints and indexes when they are missing")
	return c
}

func runChecks(ctx context.Context, cfg *configs.Config, fix bool) []check {
	var out []check
	out = append(out, check{name: "config", ok: true, required: true, detail: "valid"})
	db, err := openStore(ctx, cfg)
	if err != nil {
		out = append(out, check{name: "neo4j", required: true, detail: oneLine(err)})
		out = append(out, check{name: "gds", required: true, detail: "not checked: Neo4j is not reachable"})
		out = append(out, check{name: "schema", required: true, detail: "not checked: Neo4j is not reachable"})
	} else {
		defer db.Close(ctx)
		info, err := db.Info(ctx)
		out = append(out, check{name: "neo4j", ok: info.Version != "", required: true,
			detail: fmt.Sprintf("Neo4j %s %s at %s, database %q", info.Version, info.Edition, cfg.Neo4j.URI, db.Database())})
		if info.GDSVersion != "" {
			out = append(out, check{name: "gds", ok: true, required: true, detail: "Graph Data Science " + info.GDSVersion})
		} else {
			out = append(out, check{name: "gds", required: true, detail: oneLine(err)})
		}
		out = append(out, schemaCheck(ctx, db, fix))
	}
	out = append(out, llmCheck(ctx, cfg))
	out = append(out, embeddingCheck(ctx, cfg))
	return out
}

func schemaCheck(ctx context.Context, db *graphstore.DB, fix bool) check {
	missing, err := db.MissingSchema(ctx)
	if err != nil {
		return check{name: "schema", required: true, detail: oneLine(err)}
	}
	if len(missing) > 0 && fix {
		if err := db.Migrate(ctx); err != nil {
			return check{name: "schema", required: true, detail: oneLine(err)}
		}
		if missing, err = db.MissingSchema(ctx); err != nil {
			return check{name: "schema", required: true, detail: oneLine(err)}
		}
		if len(missing) == 0 {
			return check{name: "schema", ok: true, required: true, detail: "created kgeval's constraints and indexes"}
		}
	}
	if len(missing) > 0 {
		return check{name: "schema", required: true, detail: fmt.Sprintf("missing %s (run `kgeval doctor --fix`)", strings.Join(missing, ", "))}
	}
	return check{name: "schema", ok: true, required: true, detail: "constraints and indexes in place"}
}

func llmCheck(ctx context.Context, cfg *configs.Config) check {
	ch := check{name: "llm", required: cfg.LLM.Required}
	if cfg.LLM.BaseURL == "" {
		ch.detail = "no endpoint configured (llm.base_url or OPENAI_BASE_URL)"
		return ch
	}
	if err := llm.Probe(ctx, cfg.LLM.BaseURL, cfg.LLM.APIKey); err != nil {
		ch.detail = fmt.Sprintf("%s not reachable: %v (start the local server with `make llm-start`)", cfg.LLM.BaseURL, err)
		return ch
	}
	ch.ok, ch.detail = true, fmt.Sprintf("model %s at %s", cfg.LLM.Model, cfg.LLM.BaseURL)
	return ch
}

func embeddingCheck(ctx context.Context, cfg *configs.Config) check {
	ch := check{name: "embedding", required: true}
	if cfg.Embedding.Provider == "openai" {
		base := cfg.Embedding.BaseURL
		if base == "" {
			base = cfg.LLM.BaseURL
		}
		if err := llm.Probe(ctx, base, cfg.Embedding.APIKey); err != nil {
			ch.detail = fmt.Sprintf("%s not reachable: %v", base, err)
			return ch
		}
		ch.ok, ch.detail = true, fmt.Sprintf("model %s at %s", cfg.Embedding.Model, base)
		return ch
	}
	dir := filepath.Join(cfg.Embedding.ModelsDir, cfg.Embedding.Model)
	for _, f := range []string{"config.json", "model.safetensors", "vocab.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			ch.detail = fmt.Sprintf("local model %s missing %s in %s (run `make models`)", cfg.Embedding.Model, f, dir)
			return ch
		}
	}
	ch.ok, ch.detail = true, fmt.Sprintf("local %s in %s", cfg.Embedding.Model, dir)
	return ch
}
