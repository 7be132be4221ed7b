package graphstore

import "context"

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
