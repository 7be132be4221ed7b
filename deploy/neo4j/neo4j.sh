#!/usr/bin/env bash
# Local Neo4j Community 5.26 + OpenGDS 2.13, assembled from Maven Central jars (no Docker,
# no tarball). See deploy/neo4j/README.md.
#
# Usage: deploy/neo4j/neo4j.sh install|start|stop|restart|status|password|smoke
#
# Environment (all optional):
#   KGEVAL_STATE_DIR            runtime state (default: <repo>/.kgeval); Neo4j home is $STATE/neo4j
#   KGEVAL_M2_REPO              Maven local repository (default: ~/.cache/kgeval/m2)
#   KGEVAL_NEO4J_BOLT_PORT      Bolt port on 127.0.0.1 (default 7687)
#   KGEVAL_NEO4J_HTTP_PORT      HTTP port on 127.0.0.1, serves /browser/ (default 7474)
#   KGEVAL_NEO4J_HEAP           JVM heap, -Xms = -Xmx (default 2g)
#   KGEVAL_NEO4J_PAGECACHE      server.memory.pagecache.size (default 512m)
#   KGEVAL_NEO4J_TX_MEMORY      db.memory.transaction.max, what one transaction may hold (default 256m)
#   KGEVAL_NEO4J_TX_MEMORY_TOTAL  dbms.memory.transaction.total.max (default half the heap)
#   KGEVAL_NEO4J_WATCHDOG       1 (default): start runs a watchdog that restarts the JVM when it
#                               exits unexpectedly (an OutOfMemoryError, a kill -9), with backoff;
#                               0: start runs the JVM alone (for systemd or another supervisor)
#   KGEVAL_NEO4J_START_TIMEOUT  seconds to wait for readiness (default 180)
#   KGEVAL_NEO4J_STOP_TIMEOUT   seconds to wait after SIGTERM before SIGKILL (default 60)
#   KGEVAL_NEO4J_PASSWORD       initial password, used only when the store is first created
#                               (default: 24 random url-safe chars); stored in $STATE/neo4j/password
#   KGEVAL_NEO4J_JAVA_OPTS      extra JVM flags appended to the built-in set
#   JAVA_HOME                   Java 17 or 21 (default /usr/lib/jvm/java-17-openjdk-amd64)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SCRIPT_PATH="$SCRIPT_DIR/$(basename "${BASH_SOURCE[0]}")"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"

STATE_DIR="${KGEVAL_STATE_DIR:-$REPO_ROOT/.kgeval}"
M2_REPO="${KGEVAL_M2_REPO:-$HOME/.cache/kgeval/m2}"
BOLT_PORT="${KGEVAL_NEO4J_BOLT_PORT:-7687}"
HTTP_PORT="${KGEVAL_NEO4J_HTTP_PORT:-7474}"
HEAP="${KGEVAL_NEO4J_HEAP:-2g}"
PAGECACHE="${KGEVAL_NEO4J_PAGECACHE:-512m}"
TX_MEMORY="${KGEVAL_NEO4J_TX_MEMORY:-256m}"
TX_MEMORY_TOTAL="${KGEVAL_NEO4J_TX_MEMORY_TOTAL:-}"
START_TIMEOUT="${KGEVAL_NEO4J_START_TIMEOUT:-180}"
STOP_TIMEOUT="${KGEVAL_NEO4J_STOP_TIMEOUT:-60}"
WATCHDOG="${KGEVAL_NEO4J_WATCHDOG:-1}"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
JAVA="$JAVA_HOME/bin/java"

POM="$SCRIPT_DIR/pom.xml"
CONF_TMPL="$SCRIPT_DIR/neo4j.conf.tmpl"
MAIN_CLASS=org.neo4j.server.CommunityEntryPoint
ADMIN_CLASS=org.neo4j.cli.AdminTool

die() { echo "neo4j.sh: $*" >&2; exit 1; }
log() { echo "neo4j.sh: $*" >&2; }

# Absolute paths (neo4j.conf needs absolute directories); nothing is created until needed.
STATE_DIR="$(realpath -m "$STATE_DIR")"
NEO4J_HOME="$STATE_DIR/neo4j"
CONF_DIR="$NEO4J_HOME/conf"
RUN_DIR="$NEO4J_HOME/run"
LOG_DIR="$NEO4J_HOME/logs"
PID_FILE="$RUN_DIR/neo4j.pid"
CONSOLE_LOG="$LOG_DIR/console.log"   # JVM stdout/stderr: startup errors, OOM
USER_LOG="$LOG_DIR/neo4j.log"         # Neo4j's user log (log4j, rotated at 20 MB)
PASSWORD_FILE="$NEO4J_HOME/password"
WATCHDOG_PID_FILE="$RUN_DIR/watchdog.pid"
STOP_FILE="$RUN_DIR/stopping"        # stop asked for: the watchdog restarts nothing
READY_FILE="$RUN_DIR/answered"       # the instance answered once: only then does the watchdog restart it
RESTARTS_FILE="$RUN_DIR/restarts"    # restarts by the watchdog since start
STAMP_FILE="$NEO4J_HOME/.install-stamp"

# ---------------------------------------------------------------------------- checks

check_java() {
  [[ -x "$JAVA" ]] || die "java not found at $JAVA (set JAVA_HOME to a Java 17 or 21 JDK)"
  local spec
  spec="$("$JAVA" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}')"
  spec="${spec%%.*}"
  [[ "$spec" =~ ^[0-9]+$ ]] || die "cannot determine the Java version of $JAVA"
  ((spec >= 17)) || die "Java $spec at $JAVA is too old: Neo4j 5.26 needs Java 17 or 21 (set JAVA_HOME)"
  if ((spec != 17 && spec != 21)); then
    log "warning: Java $spec is not supported by Neo4j 5.26 (17 and 21 are); trying anyway"
  fi
}

check_mvn() {
  command -v mvn >/dev/null 2>&1 || die "mvn (Apache Maven) not found on PATH: install it (e.g. apt-get install maven)"
}

# ---------------------------------------------------------------------------- process helpers

# pid of our server if it is running, else empty. Guards against pid reuse by checking
# that the process really is a Neo4j entry point for this home directory.
running_pid() {
  [[ -f "$PID_FILE" ]] || return 0
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  if [[ -r "/proc/$pid/cmdline" ]]; then
    local cmd
    cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline")"
    [[ "$cmd" == *"$MAIN_CLASS"* && "$cmd" == *"--home-dir=$NEO4J_HOME "* ]] || return 0
  fi
  echo "$pid"
}

# pid of the watchdog of this home if it is running, else empty (guarded against pid reuse
# like running_pid).
watchdog_pid() {
  [[ -f "$WATCHDOG_PID_FILE" ]] || return 0
  local pid
  pid="$(tr -dc '0-9' <"$WATCHDOG_PID_FILE")"
  [[ -n "$pid" ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  if [[ -r "/proc/$pid/cmdline" ]]; then
    local cmd
    cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline")"
    [[ "$cmd" == *" _watchdog $NEO4J_HOME "* ]] || return 0
  fi
  echo "$pid"
}

port_in_use() { # port -> 0 if something accepts connections on 127.0.0.1:port
  timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# Bolt handshake: magic 6060B017, propose 5.8..5.0 and 4.4..4.0; a Bolt server answers
# with the 4 bytes of the version it picked. Prints the version ("5.x") on success.
bolt_probe() {
  local port="$1" reply
  reply="$(timeout 5 bash -c '
    exec 3<>/dev/tcp/127.0.0.1/'"$port"' || exit 1
    printf "\x60\x60\xb0\x17\x00\x08\x08\x05\x00\x04\x04\x04\x00\x00\x00\x00\x00\x00\x00\x00" >&3
    head -c 4 <&3 | od -An -tu1' 2>/dev/null)" || return 1
  read -r _ _ minor major <<<"$reply" || return 1
  [[ "${major:-0}" == 4 || "${major:-0}" == 5 ]] || return 1
  echo "$major.$minor"
}

conf_value() { # key -> value from the generated neo4j.conf
  [[ -f "$CONF_DIR/neo4j.conf" ]] || return 0
  sed -n "s/^$1=//p" "$CONF_DIR/neo4j.conf" | tail -n 1
}

# Ports of the running instance come from the conf it was started with.
effective_ports() {
  local b h
  b="$(conf_value server.bolt.listen_address)"
  h="$(conf_value server.http.listen_address)"
  EFF_BOLT_PORT="${b##*:}"
  EFF_HTTP_PORT="${h##*:}"
  EFF_BOLT_PORT="${EFF_BOLT_PORT:-$BOLT_PORT}"
  EFF_HTTP_PORT="${EFF_HTTP_PORT:-$HTTP_PORT}"
}

read_password() {
  [[ -s "$PASSWORD_FILE" ]] || return 1
  head -n 1 "$PASSWORD_FILE"
}

# Runs one Cypher statement through the HTTP transactional endpoint (no client library
# needed). Credentials go through curl's stdin config, not argv. Prints the JSON reply.
http_query() { # port password statement
  local port="$1" pw="$2" stmt="$3" body
  body="$(printf '%s' "$stmt" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr '\n' ' ')"
  pw="${pw//\\/\\\\}"
  pw="${pw//\"/\\\"}"
  printf 'user = "neo4j:%s"\n' "$pw" | curl -sS -m 60 -K - \
    -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -d "{\"statements\":[{\"statement\":\"$body\"}]}" \
    "http://127.0.0.1:$port/db/neo4j/tx/commit"
}

log_size() { stat -c %s "$1" 2>/dev/null || echo 0; }

# Prints the last 30 lines that this start wrote to each log.
tail_log() {
  local f off
  for f in "$CONSOLE_LOG" "$USER_LOG"; do
    [[ -f "$f" ]] || continue
    off=0
    [[ "$f" == "$CONSOLE_LOG" ]] && off="${CONSOLE_OFFSET:-0}"
    [[ "$f" == "$USER_LOG" ]] && off="${USER_LOG_OFFSET:-0}"
    ((off <= $(log_size "$f"))) || off=0
    echo "---- last 30 lines of $f ----" >&2
    tail -c +"$((off + 1))" "$f" | tail -n 30 >&2 || true
  done
}

fail_start() {
  echo "neo4j failed to start; see $USER_LOG and $CONSOLE_LOG${1:+ ($1)}" >&2
  tail_log
  exit 1
}

# Serialise install/start/stop of one Neo4j home (e.g. parallel make targets).
take_lock() {
  mkdir -p "$RUN_DIR"
  exec 9>"$RUN_DIR/neo4j.lock"
  flock -w 900 9 || die "timed out waiting for the lock $RUN_DIR/neo4j.lock"
}

# ---------------------------------------------------------------------------- install

pom_checksum() {
  sha256sum <"$POM" | awk '{print $1}'
}

is_installed() {
  [[ -f "$STAMP_FILE" && "$(cat "$STAMP_FILE")" == "$(pom_checksum)" ]] &&
    compgen -G "$NEO4J_HOME/lib/neo4j-*.jar" >/dev/null &&
    compgen -G "$NEO4J_HOME/plugins/*.jar" >/dev/null
}

do_install() {
  mkdir -p "$NEO4J_HOME"
  if is_installed; then
    return 0
  fi
  [[ -z "$(running_pid)" ]] || die "the jars in $NEO4J_HOME are outdated but Neo4j is running: run '$0 stop' first"
  check_mvn
  local staging="$NEO4J_HOME/.install-tmp"
  rm -rf "$staging"
  mkdir -p "$staging" "$M2_REPO"
  log "resolving Neo4j + GDS jars with Maven into $NEO4J_HOME (first run downloads ~150 MB into $M2_REPO) ..."
  local t0=$SECONDS
  # (Debian's Maven 3.8 prints stray ANSI resets even in batch mode: strip them)
  if ! mvn -B -q -Dstyle.color=never -f "$POM" -Dmaven.repo.local="$M2_REPO" \
      -Dneo4j.home="$staging" -Dkgeval.build.dir="$staging/build" package 2>&1 |
      sed -e $'s/\x1b\\[[0-9;]*m//g' >&2; then
    rm -rf "$staging"
    die "Maven failed to resolve the Neo4j/GDS jars (see output above)"
  fi
  compgen -G "$staging/lib/neo4j-*.jar" >/dev/null || die "Maven produced no Neo4j jars in $staging/lib"
  compgen -G "$staging/plugins/*.jar" >/dev/null || die "Maven produced no GDS jars in $staging/plugins"
  rm -rf "${NEO4J_HOME:?}/lib" "${NEO4J_HOME:?}/plugins"
  mv "$staging/lib" "$NEO4J_HOME/lib"
  mv "$staging/plugins" "$NEO4J_HOME/plugins"
  rm -rf "$staging"
  pom_checksum >"$STAMP_FILE"
  log "installed $(find "$NEO4J_HOME/lib" -name '*.jar' | wc -l) jars in lib/, $(find "$NEO4J_HOME/plugins" -name '*.jar' | wc -l) in plugins/ ($((SECONDS - t0))s)"
}

# half_heap prints half of a heap size such as 2g, 1536m or 4G, in MiB ("1024m").
half_heap() {
  local n="${1%[gGmMkK]}" unit="${1: -1}"
  [[ "$n" =~ ^[0-9]+$ ]] || die "KGEVAL_NEO4J_HEAP must be a number with g, m or k ($1)"
  case "$unit" in
    g | G) echo "$((n * 1024 / 2))m" ;;
    m | M) echo "$((n / 2))m" ;;
    k | K) echo "$((n / 2048))m" ;;
    *) die "KGEVAL_NEO4J_HEAP must end in g, m or k ($1)" ;;
  esac
}

write_conf() {
  mkdir -p "$CONF_DIR" "$NEO4J_HOME"/{data,logs,run,import,licenses}
  [[ "$BOLT_PORT" =~ ^[0-9]+$ && "$HTTP_PORT" =~ ^[0-9]+$ ]] || die "ports must be numbers (bolt=$BOLT_PORT http=$HTTP_PORT)"
  [[ "$BOLT_PORT" != "$HTTP_PORT" ]] || die "bolt and http ports must differ ($BOLT_PORT)"
  local tx_total
  tx_total="${TX_MEMORY_TOTAL:-$(half_heap "$HEAP")}" || exit 1
  sed -e "s|@NEO4J_HOME@|$NEO4J_HOME|g" -e "s|@BOLT_PORT@|$BOLT_PORT|g" \
      -e "s|@HTTP_PORT@|$HTTP_PORT|g" -e "s|@PAGECACHE@|$PAGECACHE|g" \
      -e "s|@TX_MEMORY@|$TX_MEMORY|g" -e "s|@TX_MEMORY_TOTAL@|$tx_total|g" \
      "$CONF_TMPL" >"$CONF_DIR/neo4j.conf.new"
  mv "$CONF_DIR/neo4j.conf.new" "$CONF_DIR/neo4j.conf"
}

# Sets the initial password of user neo4j before the store is first created: the
# admin tool's `dbms set-initial-password` writes data/dbms/auth.ini, which the server
# imports when it creates the system database (wait_ready removes it once logged in).
ensure_password() {
  local system_db="$NEO4J_HOME/data/databases/system"
  if [[ -d "$system_db" ]]; then
    [[ -s "$PASSWORD_FILE" ]] ||
      die "the store in $NEO4J_HOME/data exists but $PASSWORD_FILE is missing; to start over: $0 stop && rm -rf '$NEO4J_HOME/data'"
    if [[ -n "${KGEVAL_NEO4J_PASSWORD:-}" && "$KGEVAL_NEO4J_PASSWORD" != "$(read_password)" ]]; then
      log "warning: KGEVAL_NEO4J_PASSWORD differs from $PASSWORD_FILE; it only applies to a new store, the stored password stays in force"
    fi
    return 0
  fi
  local pw
  if [[ -s "$PASSWORD_FILE" ]]; then
    pw="$(read_password)"
  elif [[ -n "${KGEVAL_NEO4J_PASSWORD:-}" ]]; then
    pw="$KGEVAL_NEO4J_PASSWORD"
  else
    pw="$(head -c 48 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=\n' | cut -c1-24)"
  fi
  ((${#pw} >= 8)) || die "the Neo4j password must have at least 8 characters"
  (umask 077 && printf '%s\n' "$pw" >"$PASSWORD_FILE")
  chmod 600 "$PASSWORD_FILE"
  # AdminTool finds home and config through these environment variables
  env NEO4J_HOME="$NEO4J_HOME" NEO4J_CONF="$CONF_DIR" \
    "$JAVA" -Xmx256m -cp "$NEO4J_HOME/lib/*" "$ADMIN_CLASS" dbms set-initial-password "$pw" >/dev/null ||
    die "setting the initial password failed"
  [[ -s "$NEO4J_HOME/data/dbms/auth.ini" ]] || die "set-initial-password did not write $NEO4J_HOME/data/dbms/auth.ini"
  chmod 600 "$NEO4J_HOME/data/dbms/auth.ini"
  log "initial password for user neo4j stored in $PASSWORD_FILE"
}

# ---------------------------------------------------------------------------- start / stop

java_flags() {
  # What the shipped 5.x neo4j.conf puts in server.jvm.additional (ignored when the entry
  # point is launched directly), minus -XX:+AlwaysPreTouch (slow start, commits the whole heap).
  JAVA_FLAGS=(
    "-Xms$HEAP" "-Xmx$HEAP"
    -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow
    -XX:+UnlockExperimentalVMOptions -XX:+TrustFinalNonStaticFields -XX:+DisableExplicitGC
    -XX:+ExitOnOutOfMemoryError
    -Djdk.nio.maxCachedBufferSize=1024 -Dio.netty.tryReflectionSetAccessible=true
    -Djdk.tls.ephemeralDHKeySize=2048 -Djdk.tls.rejectClientInitiatedRenegotiation=true
    -XX:FlightRecorderOptions=stackdepth=256 -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints
    --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
    --enable-native-access=ALL-UNNAMED
    -Dlog4j2.disable.jmx=true -Dlog4j.layout.jsonTemplate.maxStringLength=32768
    -Dfile.encoding=UTF-8
  )
  if [[ -n "${KGEVAL_NEO4J_JAVA_OPTS:-}" ]]; then
    local extra
    read -r -a extra <<<"$KGEVAL_NEO4J_JAVA_OPTS"
    JAVA_FLAGS+=("${extra[@]}")
  fi
}

# Ready = the process lives, Bolt answers a handshake and a real query succeeds.
wait_ready() { # pid
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT)) pw reply
  pw="$(read_password)" || fail_start "no password file $PASSWORD_FILE"
  effective_ports
  while :; do
    kill -0 "$pid" 2>/dev/null || fail_start "process $pid exited"
    if bolt_probe "$EFF_BOLT_PORT" >/dev/null; then
      reply="$(http_query "$EFF_HTTP_PORT" "$pw" 'RETURN 1 AS ok' 2>/dev/null || true)"
      if [[ "$reply" == *'"errors":[]'* ]]; then
        # The initial password is in force (we just logged in with it): remove the
        # hand-over file, otherwise the server re-reads it at every start.
        rm -f "$NEO4J_HOME/data/dbms/auth.ini"
        return 0
      elif [[ "$reply" == *Unauthorized* || "$reply" == *AuthenticationRateLimit* ]]; then
        fail_start "the password in $PASSWORD_FILE is rejected: $reply"
      fi
    fi
    ((SECONDS < deadline)) ||
      fail_start "not ready after ${START_TIMEOUT}s; pid $pid is left running: '$0 start' waits again, '$0 stop' stops it"
    sleep 1
  done
}

# launch_jvm starts the server in the background, its output appended to console.log, and
# records its pid (JVM_PID, $PID_FILE). No --console-mode: the user log then goes only to
# logs/neo4j.log, which log4j rotates (console mode would copy every line, GDS progress included,
# into the unrotated console.log). 9>&- : the start/stop lock stays with start.
launch_jvm() {
  (
    cd "$NEO4J_HOME"
    exec 9>&-
    exec "$JAVA" "${JAVA_FLAGS[@]}" \
      -cp "$NEO4J_HOME/plugins/*:$CONF_DIR/*:$NEO4J_HOME/lib/*" \
      "$MAIN_CLASS" --home-dir="$NEO4J_HOME" --config-dir="$CONF_DIR" \
      </dev/null >>"$CONSOLE_LOG" 2>&1
  ) &
  JVM_PID=$!
  echo "$JVM_PID" >"$PID_FILE"
}

wlog() { echo "==== $(date -u +%Y-%m-%dT%H:%M:%SZ) neo4j.sh watchdog: $*" >>"$CONSOLE_LOG"; }

# The watchdog (start runs it unless KGEVAL_NEO4J_WATCHDOG=0) runs the JVM as its child. When the
# JVM exits and no stop was asked for ($STOP_FILE), it starts it again, after 1 s, then 2, 4 ... up
# to 60 s between restarts (back to 1 s once a JVM ran 5 minutes), and logs each restart in
# console.log. It restarts only an instance that answered once ($READY_FILE, written by start): a
# JVM that fails its first start is start's to report, not to retry. The JVM exits on an
# OutOfMemoryError (-XX:+ExitOnOutOfMemoryError, as Neo4j ships): after one, any thread may have
# died mid-work, and a fresh JVM with store recovery is safer than one that limps on.
do_watchdog() {
  [[ "${1:-}" == "$NEO4J_HOME" ]] || die "_watchdog: home $1 is not $NEO4J_HOME (the environment changed)"
  java_flags
  echo "$$" >"$WATCHDOG_PID_FILE"
  trap '' HUP
  trap 'touch "$STOP_FILE"; [[ -n "${JVM_PID:-}" ]] && kill -TERM "$JVM_PID" 2>/dev/null' TERM INT
  local delay=1 started status ran n i why
  while :; do
    started=$SECONDS
    launch_jvm
    status=0
    wait "$JVM_PID" || status=$?
    # a trapped signal ends wait early: wait for the JVM itself
    while kill -0 "$JVM_PID" 2>/dev/null; do wait "$JVM_PID" || status=$?; done
    ran=$((SECONDS - started))
    [[ ! -f "$STOP_FILE" ]] || break
    if [[ ! -f "$READY_FILE" ]]; then
      wlog "the JVM (pid $JVM_PID) exited with status $status before it answered: not restarted"
      break
    fi
    ((ran < 300)) || delay=1
    n=$(($(cat "$RESTARTS_FILE" 2>/dev/null || echo 0) + 1))
    echo "$n" >"$RESTARTS_FILE"
    case "$status" in
      3) why=" (OutOfMemoryError: -XX:+ExitOnOutOfMemoryError)" ;;
      137) why=" (SIGKILL)" ;;
      *) why="" ;;
    esac
    wlog "the JVM (pid $JVM_PID) exited unexpectedly with status $status$why after ${ran}s; restart $n in ${delay}s"
    for ((i = 0; i < delay; i++)); do
      [[ ! -f "$STOP_FILE" ]] || break
      sleep 1
    done
    [[ ! -f "$STOP_FILE" ]] || break
    delay=$((delay * 2))
    ((delay <= 60)) || delay=60
  done
  rm -f "$PID_FILE" "$WATCHDOG_PID_FILE"
}

# wait_launched waits (up to 30 s) for the watchdog started as pid $1 to launch the JVM and prints
# the JVM's pid.
wait_launched() {
  local wpid="$1" deadline=$((SECONDS + 30)) pid
  while :; do
    pid="$(running_pid)"
    [[ -z "$pid" ]] || { echo "$pid"; return 0; }
    kill -0 "$wpid" 2>/dev/null || fail_start "the watchdog (pid $wpid) exited before it launched the JVM"
    ((SECONDS < deadline)) || fail_start "the watchdog (pid $wpid) launched no JVM within 30 s"
    sleep 0.2
  done
}

do_start() {
  check_java
  take_lock
  local pid wpid
  pid="$(running_pid)"
  wpid="$(watchdog_pid)"
  if [[ -z "$pid" && -n "$wpid" ]]; then
    echo "neo4j is being restarted by its watchdog (pid $wpid); waiting ..."
    pid="$(wait_launched "$wpid")"
  fi
  if [[ -n "$pid" ]]; then
    effective_ports
    if bolt_probe "$EFF_BOLT_PORT" >/dev/null; then
      echo "neo4j already running (pid $pid), bolt://127.0.0.1:$EFF_BOLT_PORT"
      return 0
    fi
    echo "neo4j is starting (pid $pid); waiting ..."
    wait_ready "$pid"
    touch "$READY_FILE"
    echo "neo4j ready (pid $pid), bolt://127.0.0.1:$EFF_BOLT_PORT, http://127.0.0.1:$EFF_HTTP_PORT/browser/"
    return 0
  fi
  rm -f "$PID_FILE" "$WATCHDOG_PID_FILE" "$STOP_FILE" "$READY_FILE" "$RESTARTS_FILE"

  local port what
  for port in "$BOLT_PORT" "$HTTP_PORT"; do
    if port_in_use "$port"; then
      what="$(ss -ltnpH "sport = :$port" 2>/dev/null | grep -o 'users:.*' | head -n 1 || true)"
      [[ "$port" == "$BOLT_PORT" ]] && bolt_probe "$port" >/dev/null && what="${what:+$what, }it speaks Bolt (another Neo4j?)"
      die "port $port on 127.0.0.1 is already in use by another process${what:+ ($what)}, not by the Neo4j in $NEO4J_HOME; stop it or choose other ports with KGEVAL_NEO4J_BOLT_PORT / KGEVAL_NEO4J_HTTP_PORT"
    fi
  done

  do_install
  write_conf
  ensure_password
  java_flags

  mkdir -p "$LOG_DIR" "$RUN_DIR"
  # console.log is not rotated by Neo4j: keep one previous copy once it passes 50 MB
  if [[ -f "$CONSOLE_LOG" ]] && (($(stat -c %s "$CONSOLE_LOG") > 50 * 1024 * 1024)); then
    mv -f "$CONSOLE_LOG" "$CONSOLE_LOG.1"
  fi
  CONSOLE_OFFSET="$(log_size "$CONSOLE_LOG")"
  USER_LOG_OFFSET="$(log_size "$USER_LOG")"
  {
    echo "==== $(date -u +%Y-%m-%dT%H:%M:%SZ) neo4j.sh start: bolt $BOLT_PORT, http $HTTP_PORT, heap $HEAP, pagecache $PAGECACHE, watchdog $WATCHDOG"
  } >>"$CONSOLE_LOG"
  # setsid: own session, so a Ctrl-C in the calling terminal/make does not reach the server.
  if [[ "$WATCHDOG" == 1 ]]; then
    (
      exec 9>&-
      exec nohup setsid bash "$SCRIPT_PATH" _watchdog "$NEO4J_HOME" </dev/null >>"$CONSOLE_LOG" 2>&1
    ) &
    wpid=$!
    echo "$wpid" >"$WATCHDOG_PID_FILE"
    pid="$(wait_launched "$wpid")"
    echo "neo4j starting (pid $pid, watchdog pid $wpid), log $USER_LOG ..."
  else
    (
      cd "$NEO4J_HOME"
      exec 9>&-
      exec nohup setsid "$JAVA" "${JAVA_FLAGS[@]}" \
        -cp "$NEO4J_HOME/plugins/*:$CONF_DIR/*:$NEO4J_HOME/lib/*" \
        "$MAIN_CLASS" --home-dir="$NEO4J_HOME" --config-dir="$CONF_DIR" \
        </dev/null >>"$CONSOLE_LOG" 2>&1
    ) &
    pid=$!
    echo "$pid" >"$PID_FILE"
    echo "neo4j starting (pid $pid, no watchdog), log $USER_LOG ..."
  fi
  wait_ready "$pid"
  touch "$READY_FILE"
  echo "neo4j ready (pid $pid), bolt://127.0.0.1:$BOLT_PORT, http://127.0.0.1:$HTTP_PORT/browser/"
}

# stop_pid sends SIGTERM to pid and waits up to STOP_TIMEOUT s, then sends SIGKILL.
stop_pid() {
  local pid="$1" what="$2"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
      log "$what did not stop within ${STOP_TIMEOUT}s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
  done
}

do_stop() {
  take_lock
  local pid wpid
  pid="$(running_pid)"
  wpid="$(watchdog_pid)"
  if [[ -z "$pid" && -z "$wpid" ]]; then
    rm -f "$PID_FILE" "$WATCHDOG_PID_FILE" "$STOP_FILE" "$READY_FILE"
    echo "neo4j not running"
    return 0
  fi
  mkdir -p "$RUN_DIR"
  touch "$STOP_FILE" # the watchdog restarts nothing from here on
  if [[ -n "$pid" ]]; then
    echo "stopping neo4j (pid $pid${wpid:+, watchdog pid $wpid}) ..."
    stop_pid "$pid" "neo4j"
  else
    echo "stopping neo4j's watchdog (pid $wpid; the JVM is not running) ..."
  fi
  if [[ -n "$wpid" ]]; then
    stop_pid "$wpid" "the watchdog"
    # a watchdog killed while it launched a JVM may leave one
    pid="$(running_pid)"
    [[ -z "$pid" ]] || stop_pid "$pid" "neo4j"
  fi
  rm -f "$PID_FILE" "$WATCHDOG_PID_FILE" "$STOP_FILE" "$READY_FILE"
  echo "neo4j stopped"
}

do_status() {
  local pid wpid watchdog="off (KGEVAL_NEO4J_WATCHDOG=0)"
  pid="$(running_pid)"
  wpid="$(watchdog_pid)"
  [[ -z "$wpid" ]] || watchdog="pid $wpid, $(cat "$RESTARTS_FILE" 2>/dev/null || echo 0) restarts since start"
  effective_ports
  if [[ -n "$pid" ]]; then
    local bolt answer="not answering yet"
    bolt="$(bolt_probe "$EFF_BOLT_PORT" || true)"
    [[ -z "$bolt" ]] || answer="answering, Bolt $bolt"
    echo "neo4j: running"
    echo "pid:   $pid"
    echo "watchdog: $watchdog"
    echo "bolt:  bolt://127.0.0.1:$EFF_BOLT_PORT ($answer)"
    echo "http:  http://127.0.0.1:$EFF_HTTP_PORT/browser/"
    echo "home:  $NEO4J_HOME"
    echo "log:   $USER_LOG (JVM output and restarts: $CONSOLE_LOG)"
    return 0
  fi
  if [[ -n "$wpid" ]]; then
    echo "neo4j: restarting (its watchdog waits to start the JVM again)"
    echo "pid:   -"
    echo "watchdog: $watchdog"
    echo "bolt:  bolt://127.0.0.1:$EFF_BOLT_PORT"
    echo "home:  $NEO4J_HOME"
    echo "log:   $USER_LOG (JVM output and restarts: $CONSOLE_LOG)"
    return 0
  fi
  echo "neo4j: stopped"
  echo "pid:   -"
  echo "bolt:  bolt://127.0.0.1:$EFF_BOLT_PORT"
  echo "home:  $NEO4J_HOME"
  echo "log:   $USER_LOG (JVM output: $CONSOLE_LOG)"
  return 3
}

do_password() {
  read_password || die "no password yet ($PASSWORD_FILE is created by '$0 start')"
}

print_rows() { # HTTP API reply -> one line per row (raw JSON without python3)
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys
try:
    d = json.loads(sys.argv[1])
except ValueError:
    sys.exit(0)
for r in d.get("results", []):
    print("    " + json.dumps(r["columns"]))
    for x in r.get("data", []):
        print("    " + json.dumps(x["row"]))' "$1" || true
  else
    echo "    $1"
  fi
}

# End-to-end check of Neo4j + GDS over the HTTP API: projection with the Cypher aggregation
# form, Dijkstra, Louvain, drop. Leaves nothing behind.
do_smoke() {
  [[ -n "$(running_pid)" ]] || die "neo4j is not running ('$0 start' first)"
  local pw
  pw="$(read_password)" || die "no password file $PASSWORD_FILE"
  effective_ports
  local failed=0 q reply
  local queries=(
    "RETURN gds.version() AS gds_version"
    "CALL gds.graph.drop('kgeval_smoke', false) YIELD graphName RETURN graphName"
    "MATCH (n:KgevalSmoke) DETACH DELETE n"
    "UNWIND [['a','b',1.0,2.0],['b','c',2.0,1.0],['a','c',5.0,0.5],['c','d',1.0,3.0],['d','e',1.0,3.0],['e','f',1.0,3.0],['d','f',1.0,3.0]] AS e MERGE (s:KgevalSmoke {name: e[0]}) MERGE (t:KgevalSmoke {name: e[1]}) CREATE (s)-[:R {cost: e[2], weight: e[3]}]->(t) RETURN count(*) AS rels"
    "MATCH (s:KgevalSmoke)-[r:R]->(t:KgevalSmoke) WITH gds.graph.project('kgeval_smoke', s, t, {relationshipProperties: r {.cost, .weight}}, {undirectedRelationshipTypes: ['*']}) AS g RETURN g.graphName AS graph, g.nodeCount AS nodes, g.relationshipCount AS rels"
    "MATCH (src:KgevalSmoke {name: 'a'}) CALL gds.allShortestPaths.dijkstra.stream('kgeval_smoke', {sourceNode: src, relationshipWeightProperty: 'cost'}) YIELD targetNode, totalCost, nodeIds RETURN gds.util.asNode(targetNode).name AS target, totalCost, [n IN gds.util.asNodes(nodeIds) | n.name] AS path ORDER BY target"
    "CALL gds.louvain.stream('kgeval_smoke', {relationshipWeightProperty: 'weight', concurrency: 1}) YIELD nodeId, communityId RETURN gds.util.asNode(nodeId).name AS name, communityId ORDER BY name"
    "CALL gds.graph.drop('kgeval_smoke') YIELD graphName RETURN graphName"
    "MATCH (n:KgevalSmoke) DETACH DELETE n"
  )
  for q in "${queries[@]}"; do
    echo ">>> $q"
    reply="$(http_query "$EFF_HTTP_PORT" "$pw" "$q" 2>&1 || true)"
    print_rows "$reply"
    if [[ "$reply" != *'"errors":[]'* ]]; then
      echo "ERROR: $reply"
      failed=1
    fi
  done
  if ((failed)); then
    echo "smoke: FAILED" >&2
    return 1
  fi
  echo "smoke: OK (queries over http://127.0.0.1:$EFF_HTTP_PORT; Bolt $(bolt_probe "$EFF_BOLT_PORT" || echo '?') on bolt://127.0.0.1:$EFF_BOLT_PORT)"
}

usage() {
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
}

case "${1:-}" in
  install) check_java; take_lock; do_install; write_conf; echo "neo4j installed in $NEO4J_HOME" ;;
  start) do_start ;;
  stop) do_stop ;;
  restart) do_stop; do_start ;;
  status) do_status ;;
  password) do_password ;;
  smoke) do_smoke ;;
  _watchdog) do_watchdog "${2:-}" ;;
  -h | --help | help) usage ;;
  *) usage >&2; exit 2 ;;
esac
