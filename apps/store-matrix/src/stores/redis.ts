import { RedisStore } from 'connect-redis'
import { createClient, type RedisClientType } from 'redis'
import { REDIS } from '../services.js'
import type { StoreBackend } from './backend.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, reconnectDelayMs, withDeadline } from './timeouts.js'

/** The commands connect-redis 11 sends per request (connect-redis `get`, `set`, `touch`, `destroy`, `all`). */
const SESSION_COMMANDS = ['get', 'set', 'expire', 'del', 'mGet'] as const

/** A command refused at once because the last connection attempt failed and the next is not due yet. */
export class RedisUnreachableError extends Error {
  constructor(readonly retryInMs: number) {
    super(`Redis unreachable: the next connection attempt is in ${retryInMs} ms`)
    this.name = 'RedisUnreachableError'
  }
}

/**
 * One node-redis client at a time, each with one connection attempt, replaced by a fresh one when it
 * fails. node-redis reconnects by itself after a closed connection, but not after one that stops
 * answering: its command `timeout` only covers the time a command waits to be written (@redis/client
 * commands-queue.js), and nothing bounds its handshake, so a connection opened into a black hole waits
 * for ever. Reopening the same client instead (`destroy()` + `connect()`) races its own retry loop: the
 * old loop resumes once the client is open again (@redis/client socket.js), two sockets then feed one
 * reply decoder, and replies reach the wrong commands (a session reads another's data, or none).
 * Here a client never retries by itself (`reconnectStrategy: false`); a closed one, or one that missed
 * a deadline, is destroyed, and the next command connects a new one, at most once per backoff step.
 */
class RedisConnection {
  #client: RedisClientType | undefined
  #connecting: Promise<RedisClientType> | undefined
  #failures = 0
  #nextAttemptAt = 0
  #closed = false

  constructor(private readonly create: () => RedisClientType) {}

  /** The ready client, or a new one connected within the deadlines; rejects while the backend is out. */
  ready(): Promise<RedisClientType> {
    if (this.#closed) return Promise.reject(new Error('the Redis store is closed'))
    const client = this.#client
    if (client?.isReady) return Promise.resolve(client)
    if (this.#connecting === undefined) {
      const wait = this.#nextAttemptAt - Date.now()
      if (wait > 0) return Promise.reject(new RedisUnreachableError(wait))
      this.#connecting = this.#connect().finally(() => {
        this.#connecting = undefined
      })
    }
    return this.#connecting
  }

  /** Runs one command on the ready client; a missed deadline retires that client. */
  async run<T>(command: (client: RedisClientType) => Promise<T>): Promise<T> {
    const client = await this.ready()
    return withDeadline(command(client), OPERATION_TIMEOUT_MS, () => this.#retire(client))
  }

  async close(): Promise<void> {
    const client = this.#client
    this.#closed = true
    this.#client = undefined
    if (client?.isOpen) await client.close().catch(() => this.#retire(client))
  }

  async #connect(): Promise<RedisClientType> {
    if (this.#client) this.#retire(this.#client)
    const client = this.create()
    this.#client = client
    try {
      // connectTimeout bounds the TCP connect, this deadline the handshake after it.
      await withDeadline(client.connect(), CONNECT_TIMEOUT_MS + OPERATION_TIMEOUT_MS, () =>
        this.#retire(client),
      )
      this.#failures = 0
      return client
    } catch (error) {
      this.#retire(client)
      this.#nextAttemptAt = Date.now() + reconnectDelayMs(this.#failures++)
      throw error
    }
  }

  #retire(client: RedisClientType): void {
    if (this.#client === client) this.#client = undefined
    // destroy() rejects the client's commands at once and throws if it is already closed.
    if (client.isOpen) client.destroy()
  }
}

/** What connect-redis 11 calls on its client, each command on the connection's current client. */
function sessionClient(connection: RedisConnection): RedisClientType {
  const client: Record<string, unknown> = Object.fromEntries(
    SESSION_COMMANDS.map((name) => [
      name,
      (...args: unknown[]) =>
        connection.run((c) => (c[name] as unknown as (...a: unknown[]) => Promise<unknown>).apply(c, args)),
    ]),
  )
  // `ids`, `length` and `clear` scan the namespace: as long as the namespace is, so no deadline.
  client.scanIterator = async function* (options: Parameters<RedisClientType['scanIterator']>[0]) {
    yield* (await connection.ready()).scanIterator(options)
  }
  return client as unknown as RedisClientType
}

/** connect-redis 11 over node-redis 6: one string key `<prefix><session ID>` per session, with a TTL. */
export const redisStore: StoreBackend = {
  name: 'redis',
  label: 'connect-redis 11 + Redis',
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
    const connection = new RedisConnection(() => {
      const client: RedisClientType = createClient({
        url: `redis://127.0.0.1:${port}`,
        socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: false },
      })
      // Without a listener, a dropped connection's 'error' event ends the process (Node.js events docs,
      // "Error events").
      client.on('error', (error: unknown) => onConnectionError?.(error))
      return client
    })
    await connection.ready()
    const prefix = `authlab:${scope}:`
    const keys = () => connection.run((c) => c.keys(`${prefix}*`))
    return {
      store: new RedisStore({ client: sessionClient(connection), prefix }),
      storedIds: async () => (await keys()).map((key) => key.slice(prefix.length)),
      close: async () => {
        const left = await keys()
        if (left.length > 0) await connection.run((c) => c.del(left))
        await connection.close()
      },
    }
  },
}
