#!/usr/bin/env bash
# Checks the toolchain kgeval builds with, and says what to install when
# something is missing.
set -euo pipefail
fail=0
need() { command -v "$1" >/dev/null 2>&1 || { echo "missing: $1 — $2" >&2; fail=1; }; }
need go "install Go 1.26 or newer (https://go.dev/dl)"
need mvn "apt-get install -y maven"
need prlimit "apt-get install -y util-linux (the upload memory-cap tests run under prlimit)"
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
java_bin="$JAVA_HOME/bin/java"
[ -x "$java_bin" ] || java_bin=$(command -v java || true)
if [ -z "$java_bin" ]; then
  echo "missing: java — apt-get install -y openjdk-17-jdk-headless (Neo4j 5.26 needs Java 17 or 21)" >&2; fail=1
else
  v=$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  if [ "${v:-0}" -lt 17 ]; then echo "java $v is too old: Neo4j 5.26 needs Java 17 or 21 (set JAVA_HOME)" >&2; fail=1; fi
fi
exit $fail
