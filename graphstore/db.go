// Package graphstore stores kgeval's runs, samples, pair graphs, scores
// and model cache in Neo4j and runs the Graph Data Science procedures over
// them. It implements the storage services of package kgeval (RunService,
// SampleService, ScoreService, PairGraphService, CacheService), the
// readers of package readmodel (Reader) and the GDS KG engine; with its
// package console (the dashboard's read-only Cypher console, readmodel.Console)
// it is the only package that imports the Neo4j driver.
// It stores and reads: aggregates other than the two the dashboard needs
// at speed (RunSummary, RunSweep) are computed by package analysis. Every
// query comes from package cypher, resolved when the package loads, and
// every value reaches Neo4j as a parameter. One file per node type: run.go
// (Run), sample.go (Sample), pairgraph.go (Entity, Relation), pairscore.go
// (PairScore), metricscore.go (MetricScore), cache.go (CacheEntry), shard.go
// (the shards of a run split over workers, evaluate --shard); gds.go is the
// engine (one Louvain call per pair graph by default, or one Leiden call per
// batch: GDS.Communities).
package graphstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j/config"
)

// Queries, resolved when the package loads.
var (
	qServerInfo        = statement("server_info")
	qGdsVersion        = statement("gds_version")
	qSchemaConstraints = statement("schema_constraints")
	qSchemaIndexes     = statement("schema_indexes")
)

// Config is how to reach Neo4j.
type Config struct {
	URI            string
	User           string
	Password       string
	Database       string
	ConnectTimeout time.Duration
	QueryTimeout   time.Duration
	MaxConnections int
}

// DB is a connection to Neo4j.
type DB struct {
	driver neo4j.DriverWithContext
	cfg    Config
}

var (
	_ kgeval.RunService       = (*DB)(nil)
	_ kgeval.SampleService    = (*DB)(nil)
	_ kgeval.ScoreService     = (*DB)(nil)
	_ kgeval.PairGraphService = (*DB)(nil)
	_ readmodel.Reader        = (*DB)(nil)
)

// Open creates a driver for cfg and verifies connectivity. Errors:
// EUNAVAILABLE when Neo4j does not answer, EUNAUTHORIZED on bad credentials.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	if cfg.Database == "" {
		cfg.Database = "neo4j"
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	if cfg.QueryTimeout <= 0 {
		cfg.QueryTimeout = 120 * time.Second
	}
	drv, err := neo4j.NewDriverWithContext(cfg.URI, neo4j.BasicAuth(cfg.User, cfg.Password, ""), func(c *config.Config) {
		c.SocketConnectTimeout = cfg.ConnectTimeout
		c.ConnectionAcquisitionTimeout = cfg.ConnectTimeout
		c.MaxTransactionRetryTime = 15 * time.Second
		if cfg.MaxConnections > 0 {
			c.MaxConnectionPoolSize = cfg.MaxConnections
		}
	})
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "neo4j uri %q", cfg.URI)
	}
	cctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	if err := drv.VerifyConnectivity(cctx); err != nil {
		drv.Close(ctx)
		return nil, mapError(err, fmt.Sprintf("neo4j at %s", cfg.URI))
	}
	return &DB{driver: drv, cfg: cfg}, nil
}

// Close closes the driver.
func (db *DB) Close(ctx context.Context) error { return db.driver.Close(ctx) }

// Database returns the name of the database all queries run against.
func (db *DB) Database() string { return db.cfg.Database }

// statement returns the query of package cypher called name; it panics
// when there is none, so that a misspelt name fails when the package loads.
func statement(name string) cypher.Statement {
	return cypher.Statement{Name: name, Query: cypher.MustGet(name)}
}

// query runs one auto-committed statement (retried on transient errors) and
// returns its records.
func (db *DB) query(ctx context.Context, q cypher.Statement, params map[string]any, routing neo4j.ExecuteQueryConfigurationOption) ([]*neo4j.Record, error) {
	res, err := neo4j.ExecuteQuery(ctx, db.driver, q.Query, params, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(db.cfg.Database),
		routing,
		neo4j.ExecuteQueryWithTransactionConfig(neo4j.WithTxTimeout(db.cfg.QueryTimeout)))
	if err != nil {
		return nil, err
	}
	return res.Records, nil
}
func (db *DB) read(ctx context.Context, q cypher.Statement, params map[string]any) ([]*neo4j.Record, error) {
	return db.query(ctx, q, params, neo4j.ExecuteQueryWithReadersRouting())
}
func (db *DB) write(ctx context.Context, q cypher.Statement, params map[string]any) ([]*neo4j.Record, error) {
	return db.query(ctx, q, params, neo4j.ExecuteQueryWithWritersRouting())
}

// Info returns the server's version and edition and the GDS version.
func (db *DB) Info(ctx context.Context) (kgeval.StoreInfo, error) {
	var info kgeval.StoreInfo
	recs, err := db.read(ctx, qServerInfo, nil)
	if err != nil {
		return info, mapError(err, "read server version")
	}
	for _, r := range recs {
		if name, _ := r.Get("name"); name == "Neo4j Kernel" {
			v, _ := r.Get("version")
			e, _ := r.Get("edition")
			info.Version, _ = v.(string)
			info.Edition, _ = e.(string)
		}
	}
	info.GDSVersion, err = db.gdsVersion(ctx)
	return info, err
}

// gdsVersion returns gds.version(). Errors: EUNAVAILABLE when the Graph Data
// Science library is not installed.
func (db *DB) gdsVersion(ctx context.Context) (string, error) {
	recs, err := db.read(ctx, qGdsVersion, nil)
	if err != nil {
		if strings.Contains(err.Error(), "Unknown function") {
			return "", kgeval.Errorf(kgeval.EUNAVAILABLE, "the Graph Data Science library is not installed in Neo4j")
		}
		return "", mapError(err, "read gds version")
	}
	v, _ := recs[0].Get("version")
	s, _ := v.(string)
	return s, nil
}

// Health reports Neo4j's and GDS's versions for /healthz.
type Health struct{ DB *DB }

// Check returns the Neo4j and GDS versions, or an EUNAVAILABLE error.
func (h *Health) Check(ctx context.Context) (map[string]string, error) {
	info, err := h.DB.Info(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]string{"neo4j": info.Version, "gds": info.GDSVersion}, nil
}

// OpenMigrated opens the store as Open does and makes sure kgeval's schema
// is in place (Migrate).
func OpenMigrated(ctx context.Context, cfg Config) (*DB, error) {
	db, err := Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close(ctx)
		return nil, err
	}
	return db, nil
}

// Migrate creates kgeval's constraints and indexes. It is idempotent, also
// when several processes run it at once: IF NOT EXISTS does not stop two
// concurrent creations from racing, and the loser's "already exists" error
// means the schema is in place.
func (db *DB) Migrate(ctx context.Context) error {
	for _, st := range cypher.Schema() {
		if _, err := db.write(ctx, st, nil); err != nil && !alreadyExists(err) {
			return mapError(err, "schema "+st.Name)
		}
	}
	return nil
}
func alreadyExists(err error) bool {
	var nerr *neo4j.Neo4jError
	return errors.As(err, &nerr) && strings.HasPrefix(nerr.Code, "Neo.ClientError.Schema.") &&
		(strings.Contains(nerr.Code, "AlreadyExists") || strings.Contains(nerr.Code, "EquivalentSchemaRule"))
}

// MissingSchema returns the names of constraints and indexes that Migrate
// would create and that are not in the database.
func (db *DB) MissingSchema(ctx context.Context) ([]string, error) {
	have := map[string]bool{}
	for _, q := range []cypher.Statement{qSchemaConstraints, qSchemaIndexes} {
		recs, err := db.read(ctx, q, nil)
		if err != nil {
			return nil, mapError(err, "list schema")
		}
		for _, r := range recs {
			n, _ := r.Get("name")
			s, _ := n.(string)
			have[s] = true
		}
	}
	var missing []string
	for _, st := range cypher.Schema() {
		name := st.Name
		if i := strings.IndexByte(name, '_'); i >= 0 {
			name = name[i+1:]
		}
		if !have[name] {
			missing = append(missing, name)
		}
	}
	return missing, nil
}

// mapError turns a driver error into an application error.
func mapError(err error, what string) error {
	if err == nil {
		return nil
	}
	var nerr *neo4j.Neo4jError
	if errors.As(err, &nerr) {
		switch {
		case strings.HasPrefix(nerr.Code, "Neo.ClientError.Security"):
			return kgeval.Wrap(kgeval.EUNAUTHORIZED, err, "%s: authentication failed (check neo4j.user / neo4j.password or neo4j.password_file)", what)
		case strings.HasPrefix(nerr.Code, "Neo.ClientError.Statement"), strings.HasPrefix(nerr.Code, "Neo.ClientError.Procedure"):
			return kgeval.Wrap(kgeval.EINVALID, err, "%s: %s", what, nerr.Msg)
		case strings.HasPrefix(nerr.Code, "Neo.ClientError.Schema.ConstraintValidationFailed"):
			return kgeval.Wrap(kgeval.ECONFLICT, err, "%s", what)
		}
		return kgeval.Wrap(kgeval.EINTERNAL, err, "%s", what)
	}
	if neo4j.IsConnectivityError(err) || errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "connection refused") {
		e := kgeval.Wrap(kgeval.EUNAVAILABLE, err, "%s is not reachable", what)
		e.Kind = kgeval.KindUnreachable
		return e
	}
	return kgeval.Wrap(kgeval.EINTERNAL, err, "%s", what)
}

func asInt(x any) int64 {
	switch v := x.(type) {
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}
func asFloat(x any) float64 {
	switch v := x.(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	}
	return 0
}
func asString(x any) string {
	s, _ := x.(string)
	return s
}
func optional(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}
func optFloat(x any) *float64 {
	if v, ok := x.(float64); ok {
		return &v
	}
	return nil
}
func floatOrNil(x any) *float64 {
	switch v := x.(type) {
	case float64:
		return &v
	case int64:
		f := float64(v)
		return &f
	}
	return nil
}

// jsonText encodes an explanation for a string property ("" for none).
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" || string(b) == "{}" || string(b) == "[]" {
		return ""
	}
	return string(b)
}

// decodeJSONText decodes a property jsonText wrote; an empty or bad value
// leaves out unchanged.
func decodeJSONText(v any, out any) {
	if s, ok := v.(string); ok && s != "" {
		_ = json.Unmarshal([]byte(s), out)
	}
}
