package readmodel

import (
	"context"
	"time"
)

// ConsoleLimits bound a console query. Beyond them the console refuses, on
// its own, what it does not know, and a query whose text, expressions or
// patterns are past what Neo4j's parser and planner get through in seconds,
// or whose expressions could loop or grow inside a single row past what
// Neo4j's time limit and memory guard can stop (see package
// graphstore/console).
type ConsoleLimits struct {
	// Timeout is the time limit of the query's transaction (default 10s).
	Timeout time.Duration
	MaxRows int
	// MaxBytes bounds the JSON size of the rows and graph elements returned
	// (default 2 MiB). Rows past it are cut; a first row alone over it is
	// refused.
	MaxBytes int
	// Owner names who runs the query (as jobs and uploads record their
	// owner): one owner may hold at most half of the console's slots at
	// once, so that one user cannot keep the others out.
	Owner string
}

// ConsoleNode is a node in a console result.
type ConsoleNode struct {
	ID         string         `json:"id"`
	Labels     []string       `json:"labels"`
	Properties map[string]any `json:"properties"`
}

// ConsoleRel is a relationship in a console result.
type ConsoleRel struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Start      string         `json:"start"`
	End        string         `json:"end"`
	Properties map[string]any `json:"properties"`
}

// ConsoleResult is what a console query returned: the rows as JSON values
// (nodes, relationships and paths as objects with a "_kind"), and every node
// and relationship met in them, for drawing.
type ConsoleResult struct {
	Columns   []string `json:"columns"`
	Rows      [][]any  `json:"rows"`
	Truncated bool     `json:"truncated"`
	// TruncatedBy says which limit cut the rows: "rows" or "bytes".
	TruncatedBy string        `json:"truncated_by,omitempty"`
	Nodes       []ConsoleNode `json:"nodes"`
	Rels        []ConsoleRel  `json:"relationships"`
	Millis      int64         `json:"ms"`
	// Plan is the database's plan as text, for a query that starts with
	// EXPLAIN (which runs nothing) or PROFILE (which runs it and counts).
	Plan string `json:"plan,omitempty"`
}

// Console runs read-only queries typed by a user of the dashboard.
type Console interface {
	// RunConsole runs query read-only within lim. A leading EXPLAIN returns
	// the plan without running the query; PROFILE runs it and returns the
	// profiled plan with the rows. Errors: EINVALID when the query is
	// refused before it runs or while its rows are read (the message
	// starts with "refused:"), when it ran past lim.Timeout (the message
	// starts with "timed out:") or when the store rejects it; ETOOMANY
	// when the console is running as many queries as it allows at once, or
	// lim.Owner as many as one owner may;
	// EUNAVAILABLE only when the store does not answer; EINTERNAL when the
	// console fails to read a query (a bug of its own, refused rather than
	// run).
	RunConsole(ctx context.Context, query string, lim ConsoleLimits) (*ConsoleResult, error)
}
