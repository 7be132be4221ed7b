# Sourced by scripts/validity.sh, heldout.sh and factcheck.sh (not run): with
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

# use_llm: with KGEVAL_LLM_BASE_URL set, that endpoint is used as it is;
# unset, the local model server is installed and started unless it runs
# (started_llm=1 then, for the caller's cleanup) and its URL is exported.
use_llm() {
  [ -n "${KGEVAL_LLM_BASE_URL:-}" ] && return 0
  scripts/llm.sh install || return 1
  if ! scripts/llm.sh status >/dev/null 2>&1; then
    scripts/llm.sh start || return 1
    started_llm=1
  fi
  export KGEVAL_LLM_BASE_URL=http://127.0.0.1:${KGEVAL_LLM_PORT:-8089}/v1
}
