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

/**
 * The Redis Cluster the cluster store runs on: 3 masters and 3 replicas on 127.0.0.1:7101-7106, formed
 * by scripts/redis-cluster.sh (idempotent; `.ci/run` and the cluster tests call it).
 */
export const REDIS_CLUSTER: Service = {
  name: 'Redis Cluster',
  port: 7101,
  start: 'bash apps/store-matrix/scripts/redis-cluster.sh start',
}
/** Every node of REDIS_CLUSTER, masters and replicas: any of them can answer the slot map. */
export const REDIS_CLUSTER_PORTS: readonly number[] = [7101, 7102, 7103, 7104, 7105, 7106]
