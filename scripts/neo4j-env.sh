# Sourced by scripts/validity.sh and scripts/heldout.sh (not run): with
# KGEVAL_NEO4J_URI set, that Neo4j is used as it is; unset, the bundled one
# is started unless it runs (started_neo4j=1 then, for the caller's
# cleanup) and its URI and password are exported.
use_neo4j() {
  [ -n "${KGEVAL_NEO4J_URI:-}" ] && return 0
  if ! deploy/neo4j/neo4j.sh status >/dev/null 2>&1; then
    deploy/neo4j/neo4j.sh start || return 1
    started_neo4j=1
  fi
  export KGEVAL_NEO4J_URI=bolt://127.0.0.1:${KGEVAL_NEO4J_BOLT_PORT:-7687}
  export KGEVAL_NEO4J_PASSWORD=$(cat "$KGEVAL_STATE_DIR/neo4j/password")
}
