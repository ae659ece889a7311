import { RedisStore } from 'connect-redis'
import { createClient, type RedisClientType } from 'redis'
import { REDIS } from '../services.js'
import type { StoreBackend } from './backend.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, reconnectDelayMs, withDeadline } from './timeouts.js'

/** The commands connect-redis 9 sends per request (connect-redis `get`, `set`, `touch`, `destroy`, `all`). */
const SESSION_COMMANDS = new Set<PropertyKey>(['get', 'set', 'expire', 'del', 'mGet'])

/**
 * node-redis reconnects by itself after a closed connection, but not after one that stops answering:
 * its command `timeout` only covers the time a command waits to be written (@redis/client
 * commands-queue.js). The session commands get a deadline; on a miss the socket is dropped and opened
 * again, since every later command on it would wait the same way.
 *
 * Only a ready client is recycled. While node-redis is reconnecting by itself (after a reset or a
 * refused connection) its retry loop is already replacing the socket, and `destroy()` + `connect()`
 * would start a second loop beside it (@redis/client socket.js: the first loop resumes once `isOpen` is
 * true again). Both then open a socket feeding the one reply decoder, which hands replies to the wrong
 * commands: a session reads another's data, or none, and acknowledged saves are lost.
 */
function withCommandDeadlines(client: RedisClientType): RedisClientType {
  let recycling = false
  const recycle = () => {
    if (recycling || !client.isReady) return
    recycling = true
    client.destroy()
    client
      .connect()
      // Connection errors are reported on 'error' and retried by the reconnect strategy.
      .catch(() => {})
      .finally(() => {
        recycling = false
      })
  }
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver)
      if (!SESSION_COMMANDS.has(property) || typeof value !== 'function') return value
      return (...args: unknown[]) =>
        withDeadline(Promise.resolve(value.apply(target, args)), OPERATION_TIMEOUT_MS, recycle)
    },
  })
}

/** connect-redis 9 over node-redis 5: one string key `<prefix><session ID>` per session, with a TTL. */
export const redisStore: StoreBackend = {
  name: 'redis',
  label: 'connect-redis 9 + Redis',
  service: REDIS,
  async killConnections(clientPorts) {
    const admin = createClient({ url: `redis://127.0.0.1:${REDIS.port}` })
    await admin.connect()
    try {
      const list = await admin.sendCommand<string>(['CLIENT', 'LIST', 'TYPE', 'normal'])
      const ids = list
        .split('\n')
        .filter((line) => clientPorts.some((port) => line.includes(` addr=127.0.0.1:${port} `)))
        .map((line) => /(?:^|\s)id=(\d+)/.exec(line)?.[1])
        .filter((id): id is string => id !== undefined)
      for (const id of ids) await admin.sendCommand(['CLIENT', 'KILL', 'ID', id])
      return ids.length
    } finally {
      await admin.close()
    }
  },
  async open(scope, { port = REDIS.port, onConnectionError } = {}) {
    const client: RedisClientType = createClient({
      url: `redis://127.0.0.1:${port}`,
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelayMs },
    })
    // Without a listener, a dropped connection's 'error' event ends the process (Node.js events docs,
    // "Error events"); node-redis reconnects by itself once the error is handled.
    client.on('error', (error: unknown) => onConnectionError?.(error))
    await client.connect()
    const prefix = `authlab:${scope}:`
    const keys = () => client.keys(`${prefix}*`)
    return {
      store: new RedisStore({ client: withCommandDeadlines(client), prefix }),
      storedIds: async () => (await keys()).map((key) => key.slice(prefix.length)),
      close: async () => {
        const left = await keys()
        if (left.length > 0) await client.del(left)
        await client.close()
      },
    }
  },
}
