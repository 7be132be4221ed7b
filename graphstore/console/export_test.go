package console

import (
	"context"

	"github.com/kgeval/kgeval/readmodel"
)

// This file exports internals of the console to the tests of package
// console_test; it is compiled into tests only.

// RunUnchecked runs a query without the console's reading of it (and
// without its read-only plan check), in the same READ transaction, so that
// a test can show what the transaction refuses on its own and what it lets
// through (LOAD CSV, procedures) that the reading must stop.
func (c *Console) RunUnchecked(ctx context.Context, query string, lim readmodel.ConsoleLimits) (*readmodel.ConsoleResult, error) {
	return c.run(ctx, query, lim, false)
}

// Held returns how many console slots owner holds.
func (c *Console) Held(owner string) int {
	cn, err := c.connection(0)
	if err != nil {
		return 0
	}
	cn.ownersMu.Lock()
	defer cn.ownersMu.Unlock()
	return cn.owners[owner]
}
