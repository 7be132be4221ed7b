package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// This file exports internals of the console to the tests of package
// graphstore_test; it is compiled into tests only.

// ConsoleApp is the metadata {app: ConsoleApp} of every console
// transaction, by which SHOW TRANSACTIONS finds them.
const ConsoleApp = consoleApp

// RunConsoleUnguarded runs a console query without the plan check, so that
// a test can show what the READ transaction refuses on its own, and what it
// lets through (LOAD CSV, procedures) that the plan check must stop.
func (db *DB) RunConsoleUnguarded(ctx context.Context, query string, lim kgeval.ConsoleLimits) (*kgeval.ConsoleResult, error) {
	return db.runConsole(ctx, query, lim, false)
}

// ConsolePlan returns the operators of a query's EXPLAIN plan as the
// console reads them (readPlan), depth first.
func (db *DB) ConsolePlan(ctx context.Context, query string) ([]string, error) {
	recs, err := neo4j.ExecuteQuery(ctx, db.driver, "EXPLAIN "+query, nil, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(db.cfg.Database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return nil, mapError(err, "explain")
	}
	plan, err := readPlan(recs.Summary.Plan())
	if err != nil {
		return nil, err
	}
	var ops []string
	var walk func(n *planNode)
	walk = func(n *planNode) {
		ops = append(ops, n.Operator)
		for i := range n.Children {
			walk(&n.Children[i])
		}
	}
	walk(plan)
	return ops, nil
}

// ConsoleHeld returns how many console slots owner holds.
func (db *DB) ConsoleHeld(owner string) int {
	c, err := db.consoleConn(0)
	if err != nil {
		return 0
	}
	c.ownersMu.Lock()
	defer c.ownersMu.Unlock()
	return c.owners[owner]
}
