package configs

import (
	"encoding/json"
	"path/filepath"

	"github.com/kgeval/kgeval"
)

// RunRecord is what a run stores of its configuration (kgeval.Run.Config):
// an allowlist of the settings that change its scores, or which records it
// keeps, and nothing else. Users, tokens, passwords, password files, API
// keys, endpoints and server paths are not in it (issue 49, N2: a run used
// to store the whole configuration, web.users' bcrypt hashes and
// web.tokens' sha256 included). Its JSON has the shape of the configuration
// recorded before ({"Scoring": {"Tau": 0.7, ...}, "Extraction": {...}}), so
// that the readers of Run.Config read either. A section a record lacks
// stays out (nil).
//
// What is kept, and why:
//   - scoring.* (kgeval.RunSettings): every score's parameters, the
//     engine, pairs and metrics; a resume refuses a run whose settings
//     changed, a sweep rescores with them, compare warns when they differ.
//   - extraction.method, window_chars, grounding: which triplets a text
//     gets.
//   - llm.model, temperature, max_tokens, context_tokens: what the model
//     answers (the endpoint is Run.LLM's); llm.cache_only: a dashboard
//     resume keeps a replay a replay.
//   - embedding.provider, model: the encoder, whose cosines are SIMILAR
//     edges.
//   - dataset.*: the caps on texts (max_text_chars cuts a text) and labels,
//     strict, and the caps on records, bytes, depth and values, which
//     decide which records are kept or whether a file is read at all.
//
// Left out: neo4j.* (address, user, password, password file), llm.base_url
// and api_key, llm.timeout, retries and concurrency (how, not what, is
// asked), embedding.base_url, api_key, models_dir and batch_size, server.*,
// log.*, web.* (users, tokens, state folder, limits), Root and StateDir.
type RunRecord struct {
	Scoring    *kgeval.RunSettings `json:",omitempty"`
	Extraction *RunExtraction      `json:",omitempty"`
	LLM        *RunLLM             `json:",omitempty"`
	Embedding  *RunEmbedding       `json:",omitempty"`
	Dataset    *RunDatasetCaps     `json:",omitempty"`
}

// RunExtraction is the extraction section of a RunRecord.
type RunExtraction struct {
	Method      string
	WindowChars int
	Grounding   string
}

// RunLLM is the llm section of a RunRecord: the model and how it samples,
// not where it is or how to sign in to it.
type RunLLM struct {
	Model         string
	Temperature   float64
	MaxTokens     int
	ContextTokens int
	CacheOnly     bool
}

// RunEmbedding is the embedding section of a RunRecord: which encoder, not
// where its files or endpoint are.
type RunEmbedding struct {
	Provider string
	Model    string
}

// RunDatasetCaps is the dataset section of a RunRecord.
type RunDatasetCaps struct {
	MaxTextChars    int
	MaxLabelChars   int
	Strict          bool
	MaxRecords      int
	MaxDecodedBytes int64
	MaxDepth        int
	MaxValues       int
	MaxFileValues   int64
}

// RunRecord returns the allowlist of c that a run records.
func (c *Config) RunRecord() RunRecord {
	s := c.Scoring
	d := c.Dataset
	return RunRecord{
		Scoring:    &s,
		Extraction: &RunExtraction{Method: c.Extraction.Method, WindowChars: c.Extraction.WindowChars, Grounding: c.Extraction.Grounding},
		LLM: &RunLLM{Model: c.LLM.Model, Temperature: c.LLM.Temperature, MaxTokens: c.LLM.MaxTokens, ContextTokens: c.LLM.ContextTokens,
			CacheOnly: c.LLM.CacheOnly},
		Embedding: &RunEmbedding{Provider: c.Embedding.Provider, Model: c.Embedding.Model},
		Dataset: &RunDatasetCaps{MaxTextChars: d.MaxTextChars, MaxLabelChars: d.MaxLabelChars, Strict: d.Strict, MaxRecords: d.MaxRecords,
			MaxDecodedBytes: d.MaxDecodedBytes, MaxDepth: d.MaxDepth, MaxValues: d.MaxValues, MaxFileValues: d.MaxFileValues},
	}
}

// RunConfig is c's RunRecord as JSON, what kgeval.Run.Config holds.
func (c *Config) RunConfig() string {
	b, err := json.Marshal(c.RunRecord())
	if err != nil { // plain structs of numbers, strings and lists
		panic(err)
	}
	return string(b)
}

// CleanRunConfig returns a stored Run.Config reduced to the allowlist of
// RunRecord: what a record from before issue 49 held beyond it (web users
// and tokens, paths, masked passwords) is dropped, every kept value stays.
// A record already in that form comes back byte for byte; "" stays "".
// Errors: EINVALID when stored is not a JSON object.
func CleanRunConfig(stored string) (string, error) {
	if stored == "" {
		return "", nil
	}
	var r RunRecord
	if err := json.Unmarshal([]byte(stored), &r); err != nil {
		return "", kgeval.Wrap(kgeval.EINVALID, err, "recorded configuration")
	}
	b, err := json.Marshal(r)
	if err != nil {
		return "", kgeval.Wrap(kgeval.EINTERNAL, err, "recorded configuration")
	}
	return string(b), nil
}

// CleanRun is CleanRunConfig and CleanRunDataset of a stored run's
// configuration and dataset (pipeline.CleanRun).
func (c *Config) CleanRun(config, dataset string) (string, string, error) {
	clean, err := CleanRunConfig(config)
	if err != nil {
		return "", "", err
	}
	return clean, c.CleanRunDataset(dataset), nil
}

// UploadsDir is where kgeval serve keeps the dashboard's uploads:
// web.state_dir/uploads.
func (c *Config) UploadsDir() string { return filepath.Join(c.Path(c.Web.StateDir), "uploads") }

// RunDataset is what a run records as its dataset (kgeval.Run.Dataset) for
// the file at path, without the server's folders (issue 49, N6): a
// dashboard upload is "uploads/ID"; a file in the project is its path from
// the project's root ("testdata/wikieval.jsonl"); any other file is its
// base name. The file's content is the run's Fingerprint.
func (c *Config) RunDataset(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Base(path)
	}
	if up, err := filepath.Abs(c.UploadsDir()); err == nil && filepath.Dir(abs) == up {
		return kgeval.UploadDataset(filepath.Base(abs))
	}
	if c.Root != "" {
		if rel, err := filepath.Rel(c.Root, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(abs)
}

// CleanRunDataset is RunDataset for a Run.Dataset stored before issue 49:
// an absolute path, or one that leaves its folder, becomes RunDataset's
// form; a path inside its folder ("testdata/x.jsonl", "uploads/ID") stays.
func (c *Config) CleanRunDataset(stored string) string {
	if stored == "" || (!filepath.IsAbs(stored) && filepath.IsLocal(stored)) {
		return stored
	}
	if !filepath.IsAbs(stored) {
		return filepath.Base(stored)
	}
	return c.RunDataset(stored)
}
