#!/usr/bin/env bash
# A local Redis Cluster for the store matrix: 3 masters + 3 replicas of the system's redis-server 7 in
# cluster mode on 127.0.0.1:7101-7106 (cluster bus on port + 10000, Redis Cluster specification,
# "Cluster bus"), no persistence, each node in its own directory.
#   redis-cluster.sh start    start and form it (a cluster already up and healthy is left as it is)
#   redis-cluster.sh stop     stop every node and remove the directories
#   redis-cluster.sh status   exit 0 when every node answers with cluster_state:ok
# Environment: AUTHLAB_CLUSTER_DIR (default /tmp/authlab-redis-cluster).
set -euo pipefail

PORTS=(7101 7102 7103 7104 7105 7106)
DIR=${AUTHLAB_CLUSTER_DIR:-/tmp/authlab-redis-cluster}
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
  redis-server --port "$port" --bind 127.0.0.1 --daemonize yes --dir "$home" \
    --logfile "$home/redis.log" --pidfile "$home/redis.pid" \
    --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout "$NODE_TIMEOUT_MS" \
    --save "" --appendonly no 9>&- # the daemon must not inherit (and hold) the lock below
}

wait_for() { # seconds, predicate...
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
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
  if nodes_answer && all_ok; then
    echo "redis-cluster: up on 127.0.0.1:${PORTS[0]}-${PORTS[-1]} (cluster_state:ok)"
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
  echo "redis-cluster: up on 127.0.0.1:${PORTS[0]}-${PORTS[-1]} (cluster_state:ok)"
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
