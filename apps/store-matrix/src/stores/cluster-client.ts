import { createCluster, type RedisClusterOptions, type RedisClusterType } from 'redis'
import { closeWithin } from './cluster-close.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, withDeadline } from './timeouts.js'

/**
 * Longest a replacement client may take to read the slot map and reach every master (milliseconds on
 * loopback): the one it replaces is failing meanwhile. The first client of a store gets the connect
 * deadlines of every other store (a loaded machine has taken over a second).
 */
const REFRESH_TIMEOUT_MS = 1000
const OPEN_TIMEOUT_MS = CONNECT_TIMEOUT_MS + OPERATION_TIMEOUT_MS
/** Shortest time between two slot-map rebuilds. */
const REFRESH_INTERVAL_MS = 250

/** A node-redis cluster client, connected within `timeoutMs` or destroyed, every error heard. */
function openClient(options: RedisClusterOptions, onError: (error: unknown) => void, timeoutMs: number) {
  const cluster = createCluster(options) as unknown as RedisClusterType
  // Node clients report connection errors here; without a listener they would end the process.
  cluster.on('error', onError)
  cluster.on('node-error', onError)
  // A node that accepts connections but never answers (a frozen or cut-off master) would hold
  // connect() forever: node-redis waits for every master's handshake.
  return withDeadline(
    cluster.connect().then(() => cluster),
    timeoutMs,
    () => cluster.destroy(),
  )
}

/**
 * A cluster client that can be replaced under its users: `refresh()` opens a new client from the root
 * nodes (a fresh slot map), swaps it in, and closes the old one once its commands have answered. Only
 * node-redis' public API is used; its own `rediscover` is internal.
 */
export function refreshingCluster(options: RedisClusterOptions, onError: (error: unknown) => void) {
  let refreshing: Promise<void> | undefined
  let lastRefresh = 0
  let closed = false
  /** Clients swapped out, until their commands' deadline has passed (or the holder closes). */
  const retired = new Set<RedisClusterType>()
  const retire = (client: RedisClusterType) => {
    retired.add(client)
    // Commands still waiting on the old client have their own deadline; give them that long.
    setTimeout(() => {
      if (retired.delete(client)) destroyQuietly(client)
    }, OPERATION_TIMEOUT_MS).unref()
  }
  const state = { current: undefined as unknown as RedisClusterType, refreshes: 0 }
  const refresh = () => {
    // One at a time, and not more often than every REFRESH_INTERVAL_MS: a dead master reports an
    // error on every reconnect attempt.
    if (refreshing || closed || Date.now() - lastRefresh < REFRESH_INTERVAL_MS) return
    lastRefresh = Date.now()
    refreshing = openClient(options, onError, REFRESH_TIMEOUT_MS)
      .then((next) => {
        if (closed) {
          destroyQuietly(next)
          return
        }
        retire(state.current)
        state.current = next
        state.refreshes++
      })
      .catch(onError)
      .finally(() => {
        refreshing = undefined
      })
  }
  return {
    state,
    refresh,
    async connect() {
      state.current = await openClient(options, onError, OPEN_TIMEOUT_MS)
    },
    /** Closes the current client and every retired one, within the deadlines, whatever the cluster's state. */
    async close(graceful = true) {
      closed = true
      await refreshing
      // Undefined when the first connect failed: that client destroyed itself (openClient).
      const clients = [state.current, ...retired].filter((client) => client !== undefined)
      retired.clear()
      await Promise.all(
        clients.map((client) =>
          closeWithin(
            () => client.close(),
            () => destroyQuietly(client),
            graceful,
          ),
        ),
      )
    },
  }
}

/** node-redis throws when destroying a client that is already closed: nothing is left to tear down then. */
function destroyQuietly(client: RedisClusterType): void {
  try {
    client.destroy()
  } catch {}
}

export type ClusterHolder = ReturnType<typeof refreshingCluster>
