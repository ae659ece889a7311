import { connect } from 'node:net'
import type { Service } from './stores/backend.js'

/** The start commands of the local services (the ones .ci/run uses when a service is down). */
export const REDIS: Service = {
  name: 'Redis',
  port: 6379,
  start:
    'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
}
export const POSTGRES: Service = {
  name: 'PostgreSQL',
  port: 5432,
  start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
}
export const MARIADB: Service = {
  name: 'MariaDB',
  port: 3306,
  start: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd',
}

/** True when something accepts TCP connections on 127.0.0.1:port within `timeoutMs`. */
export function isReachable({ port }: Service, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: timeoutMs })
    const finish = (reachable: boolean) => {
      socket.destroy()
      resolve(reachable)
    }
    socket.once('connect', () => finish(true))
    socket.once('timeout', () => finish(false))
    socket.once('error', () => finish(false))
  })
}

/** What a run without the service says; under CI the same text fails the run. */
export function unreachableMessage(service: Service): string {
  return `${service.name} is not reachable on 127.0.0.1:${service.port}; start it with: ${service.start}`
}

/** The cluster's nodes when AUTHLAB_CLUSTER_PORTS is not set (scripts/redis-cluster.sh has the same default). */
export const DEFAULT_CLUSTER_PORTS: readonly number[] = [7101, 7102, 7103, 7104, 7105, 7106]

/**
 * The ports of the cluster's six nodes from AUTHLAB_CLUSTER_PORTS: `7201-7206` or `7201,7202,…,7206`,
 * read exactly as scripts/redis-cluster.sh reads it, so a second checkout can run its own cluster
 * beside the default one and every part of this app (store, tests, fault runs, their child server
 * processes, which inherit the environment) reaches the same one. Anything else throws: a typo must not
 * send a run to someone else's cluster. Six nodes: 3 masters + 3 replicas (`--cluster-replicas 1`); each
 * node also listens on port + 10000 for the cluster bus (Redis Cluster specification, "Cluster bus").
 */
export function clusterPorts(setting: string | undefined): readonly number[] {
  if (setting === undefined || setting.trim() === '') return DEFAULT_CLUSTER_PORTS
  const text = setting.trim()
  const range = /^(\d+)-(\d+)$/.exec(text)
  const ports = range
    ? Array.from(
        { length: Math.max(0, Number(range[2]) - Number(range[1]) + 1) },
        (_, i) => Number(range[1]) + i,
      )
    : text.split(',').map((part) => (/^\d+$/.test(part.trim()) ? Number(part.trim()) : Number.NaN))
  const valid =
    ports.length === 6 &&
    new Set(ports).size === 6 &&
    ports.every((port) => Number.isSafeInteger(port) && port >= 1024 && port + 10_000 <= 65_535)
  if (!valid)
    throw new Error(
      `AUTHLAB_CLUSTER_PORTS=${JSON.stringify(setting)}: expected six distinct ports from 1024 to 55535 (the bus listens on port + 10000), as "7201-7206" or "7201,7202,7203,7204,7205,7206"`,
    )
  return ports
}

/** Every node of REDIS_CLUSTER, masters and replicas: any of them can answer the slot map. */
export const REDIS_CLUSTER_PORTS: readonly number[] = clusterPorts(process.env.AUTHLAB_CLUSTER_PORTS)

/**
 * The Redis Cluster the cluster store runs on: 3 masters and 3 replicas on 127.0.0.1:7101-7106 (or
 * AUTHLAB_CLUSTER_PORTS), formed by scripts/redis-cluster.sh (idempotent; `.ci/run` and the cluster
 * tests call it; it reads the same AUTHLAB_CLUSTER_PORTS and AUTHLAB_CLUSTER_DIR).
 */
export const REDIS_CLUSTER: Service = {
  name: 'Redis Cluster',
  port: REDIS_CLUSTER_PORTS[0] as number,
  start: 'bash apps/store-matrix/scripts/redis-cluster.sh start',
}
