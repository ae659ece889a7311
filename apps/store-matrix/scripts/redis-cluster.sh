#!/usr/bin/env bash
# A local Redis Cluster for the store matrix: 3 masters + 3 replicas of the system's redis-server 7 in
# cluster mode on 127.0.0.1:7101-7106 (cluster bus on port + 10000, Redis Cluster specification,
# "Cluster bus"), no persistence, each node in its own directory.
#   redis-cluster.sh start    start and form it (a cluster already up and healthy is left as it is), and
#                             return only once every replica is in sync with its master
#   redis-cluster.sh stop     stop every node and remove the directories
#   redis-cluster.sh status   exit 0 when every node answers with cluster_state:ok
# Environment, so that a second checkout can run its own cluster beside the default one (src/services.ts
# reads the same AUTHLAB_CLUSTER_PORTS, so the store and the tests reach the cluster this script formed):
#   AUTHLAB_CLUSTER_PORTS  six ports, "7201-7206" or "7201,7202,7203,7204,7205,7206" (default 7101-7106)
#   AUTHLAB_CLUSTER_DIR    the nodes' directories (default /tmp/authlab-redis-cluster); the lock is $DIR.lock
set -euo pipefail

parse_ports() { # the setting → PORTS, or a loud exit: a typo must not reach someone else's cluster
  local setting=${1:-7101-7106} from to port
  if [[ $setting =~ ^([0-9]+)-([0-9]+)$ ]]; then
    from=${BASH_REMATCH[1]} to=${BASH_REMATCH[2]}
    PORTS=()
    if ((from <= to)); then for ((port = from; port <= to; port++)); do PORTS+=("$port"); done; fi
  elif [[ $setting =~ ^[0-9]+(,[0-9]+)*$ ]]; then
    IFS=, read -r -a PORTS <<<"$setting"
  else
    PORTS=()
  fi
  local distinct
  distinct=$(printf '%s\n' "${PORTS[@]}" | sort -u | grep -c . || true)
  if ((${#PORTS[@]} != 6 || distinct != 6)); then
    echo "redis-cluster: AUTHLAB_CLUSTER_PORTS=\"$setting\": expected six distinct ports, as 7201-7206 or 7201,...,7206" >&2
    exit 2
  fi
  for port in "${PORTS[@]}"; do
    if ((10#$port < 1024 || 10#$port + 10000 > 65535)); then
      echo "redis-cluster: port $port: expected 1024-55535 (the cluster bus listens on port + 10000)" >&2
      exit 2
    fi
  done
}
parse_ports "${AUTHLAB_CLUSTER_PORTS:-}"
DIR=${AUTHLAB_CLUSTER_DIR:-/tmp/authlab-redis-cluster}
# How long `start` waits for every replica to be in sync once the cluster reports cluster_state:ok (a
# full resynchronisation of an empty dataset takes well under a second; a loaded machine is slower).
SYNC_TIMEOUT_S=${AUTHLAB_CLUSTER_SYNC_TIMEOUT_S:-60}
# Short enough that a failover finishes in a few seconds, long enough that a loaded 2-core machine does
# not see false failures (a node is marked failing after cluster-node-timeout without a ping reply).
NODE_TIMEOUT_MS=2000

cli() { redis-cli -h 127.0.0.1 -p "$1" --no-auth-warning "${@:2}"; }
answers() { [[ $(cli "$1" PING 2>/dev/null) == PONG ]]; }
state_ok() { cli "$1" CLUSTER INFO 2>/dev/null | grep -q '^cluster_state:ok'; }
slots_assigned() { cli "$1" CLUSTER INFO 2>/dev/null | sed -n 's/^cluster_slots_assigned:\([0-9]*\).*/\1/p'; }

all_ok() {
  local port
  for port in "${PORTS[@]}"; do state_ok "$port" || return 1; done
}

start_node() {
  local port=$1 home="$DIR/$1"
  mkdir -p "$home"
  (
    # The daemon must not inherit (and hold for its whole life) any open file of its starter: the lock
    # below, or one a caller holds, e.g. `flock <file> <command that restarts a node>`.
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      ((fd > 2)) && eval "exec $fd>&-"
    done 2>/dev/null
    exec redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --dir "$home" \
      --logfile "$home/redis.log" --pidfile "$home/redis.pid" \
      --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout "$NODE_TIMEOUT_MS" \
      --save "" --appendonly no
  )
}

wait_for() { # seconds, predicate...
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

field() { # port, INFO section, field name → value
  cli "$1" INFO "$2" 2>/dev/null | tr -d '\r' | sed -n "s/^$3:\\(.*\\)/\\1/p"
}

# Why the replica on `port` is not in sync with its master, or nothing when it is. A cluster reports
# cluster_state:ok as soon as every slot has a master, while a replica may still be loading its
# master's data (Redis docs, "Redis replication": a full synchronisation sends an RDB file first); until
# its master lists it as online, WAIT 1 on that master answers 0. In sync: the replica's link is up and
# not syncing, its master lists it as online, and the offset the replica has processed, read after the
# master's, has reached the master's (equal when idle; under writes a live replica is past the earlier
# reading, a replica still catching up is not).
replica_lag() {
  local port=$1 master_port link syncing master_offset offset line
  master_port=$(field "$port" replication master_port)
  link=$(field "$port" replication master_link_status)
  syncing=$(field "$port" replication master_sync_in_progress)
  if [[ $link != up || $syncing != 0 || -z $master_port ]]; then
    echo "$port: link to master ${master_port:-?} ${link:-unknown}, sync in progress ${syncing:-?}"
    return
  fi
  line=$(cli "$master_port" INFO replication 2>/dev/null | tr -d '\r' | grep -E "^slave[0-9]+:ip=[^,]*,port=$port," || true)
  [[ $line == *state=online* ]] || { echo "$port: master $master_port lists it as ${line:-absent}"; return; }
  master_offset=$(field "$master_port" replication master_repl_offset)
  offset=$(field "$port" replication slave_repl_offset)
  ((${offset:-0} >= ${master_offset:-1})) || echo "$port: at offset ${offset:-?} of master $master_port's ${master_offset:-?}"
}

# Every replica in sync, and every master with at least one replica (3 masters, 3 replicas).
replicas_synced() {
  local port role lag
  LAG=()
  for port in "${PORTS[@]}"; do
    role=$(field "$port" replication role)
    if [[ $role == slave ]]; then
      lag=$(replica_lag "$port")
      [[ -z $lag ]] || LAG+=("$lag")
    elif [[ $role == master ]]; then
      (($(field "$port" replication connected_slaves) >= 1)) || LAG+=("$port: a master with no replica connected")
    else
      LAG+=("$port: role ${role:-unknown}")
    fi
  done
  ((${#LAG[@]} == 0))
}

nodes_answer() {
  local port
  for port in "${PORTS[@]}"; do answers "$port" || return 1; done
}

stop_all() {
  local port
  for port in "${PORTS[@]}"; do
    if answers "$port"; then cli "$port" SHUTDOWN NOSAVE >/dev/null 2>&1 || true; fi
  done
  for port in "${PORTS[@]}"; do
    # A node frozen by SIGSTOP does not answer SHUTDOWN: resume and kill it by its pid file.
    local pidfile="$DIR/$port/redis.pid"
    if [[ -f $pidfile ]]; then
      local pid
      pid=$(cat "$pidfile")
      if kill -0 "$pid" 2>/dev/null && grep -q redis-server "/proc/$pid/cmdline" 2>/dev/null; then
        kill -CONT "$pid" 2>/dev/null || true
        kill -KILL "$pid" 2>/dev/null || true
      fi
    fi
  done
  rm -rf "$DIR"
}

create() {
  local addresses=() port
  for port in "${PORTS[@]}"; do addresses+=("127.0.0.1:$port"); done
  redis-cli --cluster create "${addresses[@]}" --cluster-replicas 1 --cluster-yes >"$DIR/create.log" 2>&1 || {
    cat "$DIR/create.log" >&2
    return 1
  }
}

start() {
  if nodes_answer && all_ok && replicas_synced; then
    echo "redis-cluster: up on 127.0.0.1 ports ${PORTS[*]} (cluster_state:ok, every replica in sync)"
    return 0
  fi
  command -v redis-server >/dev/null || { echo "redis-cluster: redis-server is not installed" >&2; return 1; }
  # Nodes that are down restart from their nodes.conf and rejoin the cluster they belonged to.
  local port
  for port in "${PORTS[@]}"; do answers "$port" || start_node "$port"; done
  wait_for 20 nodes_answer || { echo "redis-cluster: nodes did not start (logs in $DIR/*/redis.log)" >&2; return 1; }
  if [[ $(slots_assigned "${PORTS[0]}") == 0 ]]; then create; fi
  if ! wait_for 30 all_ok; then
    # A slot without a master leaves the cluster refusing every write: rebuild it from scratch once.
    echo "redis-cluster: not healthy after 30 s, rebuilding it" >&2
    stop_all
    for port in "${PORTS[@]}"; do start_node "$port"; done
    wait_for 20 nodes_answer && create && wait_for 30 all_ok || {
      echo "redis-cluster: the cluster did not form (logs in $DIR)" >&2
      return 1
    }
  fi
  if ! wait_for "$SYNC_TIMEOUT_S" replicas_synced; then
    echo "redis-cluster: cluster_state:ok, but replicas not in sync after $SYNC_TIMEOUT_S s (logs in $DIR/*/redis.log):" >&2
    printf '  %s\n' "${LAG[@]}" >&2
    return 1
  fi
  echo "redis-cluster: up on 127.0.0.1 ports ${PORTS[*]} (cluster_state:ok, every replica in sync)"
}

# Test files run in parallel and each may start the cluster: one start or stop at a time.
mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock 9

case ${1:-} in
  start) start ;;
  stop) stop_all && echo "redis-cluster: stopped" ;;
  status) nodes_answer && all_ok ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
