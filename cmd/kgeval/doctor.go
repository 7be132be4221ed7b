package main

import (
	"path/filepath"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

func (m *Main) doctorCommand() *cobra.Command {
	var fix bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check Neo4j, GDS, the schema and the model endpoints",
		Long:  help("doctor"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			o := pipeline.DoctorOptions{URI: cfg.Neo4j.URI, Fix: fix, LLMBaseURL: cfg.LLM.BaseURL, LLMKey: cfg.LLM.APIKey, LLMModel: cfg.LLM.Model,
				LLMRequired: cfg.LLM.Required, EmbeddingProvider: cfg.Embedding.Provider, EmbeddingBaseURL: cfg.Embedding.BaseURL,
				EmbeddingKey: cfg.Embedding.APIKey, EmbeddingModel: cfg.Embedding.Model, ModelDir: filepath.Join(cfg.Embedding.ModelsDir, cfg.Embedding.Model),
				Probe: llm.Probe, MissingFile: minilm.MissingFile, Message: m.oneLine, CleanRun: cfg.CleanRun}
			if db, err := runner.OpenStore(cmd.Context(), cfg); err != nil {
				o.StoreErr = err
			} else {
				defer db.Close(cmd.Context())
				o.Store = db
			}
			if render.Doctor(m.Stdout, pipeline.Doctor(cmd.Context(), o)) {
				return kgeval.Errorf(kgeval.EUNAVAILABLE, "doctor: something required is missing (see FAIL lines above)")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&fix, "fix", false, "create kgeval's constraints and indexes when they are missing, and rewrite stored runs' records to the configuration's allowlist")
	return c
}
