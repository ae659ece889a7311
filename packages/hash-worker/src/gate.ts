import {
  createGate,
  InvalidOptionError,
  OverloadError,
  type Password,
  type PasswordHasher,
} from '@authlab/core'

export interface ConcurrencyLimit {
  /** Hashes and verifies allowed to run at once. */
  concurrent: number
  /** Calls allowed to wait for a slot before further calls fail with an OverloadError (default: 64 × concurrent). */
  maxQueue?: number
}

const QUEUE_PER_SLOT = 64

function positiveInteger(name: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionError(`${name} must be an integer of at least ${min}, got ${String(value)}`)
  }
  return value
}

/**
 * Lets at most `concurrent` calls of any hasher run at once, queues up to `maxQueue` more in arrival
 * order and refuses the rest at once with an OverloadError. A native hasher's work cannot be
 * cancelled once it reaches libuv's threadpool (4 threads unless UV_THREADPOOL_SIZE says otherwise,
 * shared with fs and dns.lookup): without a limit, four in-cap hostile verifies occupy every thread and
 * every file read waits behind them. With `concurrent` below the pool size, some threads stay free.
 */
export function limitConcurrency(hasher: PasswordHasher, limit: ConcurrencyLimit): PasswordHasher {
  if (typeof limit !== 'object' || limit === null) throw new InvalidOptionError('limit must be an object')
  const { concurrent: slots, maxQueue: queueLimit, ...unknown } = limit
  const unknownKeys = Object.keys(unknown)
  if (unknownKeys.length > 0)
    throw new InvalidOptionError(`unknown concurrency limit option ${unknownKeys[0]}`)
  const concurrent = positiveInteger('concurrent', slots, 1)
  const maxQueue =
    queueLimit === undefined ? QUEUE_PER_SLOT * concurrent : positiveInteger('maxQueue', queueLimit, 0)

  const gate = createGate(concurrent, maxQueue)
  const gated = async <T>(work: () => Promise<T>): Promise<T> => {
    const entered = gate.tryEnter()
    if (entered === null)
      throw new OverloadError(`${concurrent} hashes are running and ${maxQueue} are queued`)
    const release = await entered
    try {
      return await work()
    } finally {
      release()
    }
  }

  return Object.freeze({
    info: hasher.info,
    hash: (password: Password) => gated(() => hasher.hash(password)),
    verify: (encoded: string, password: Password) => gated(() => hasher.verify(encoded, password)),
    needsRehash: (encoded: string) => hasher.needsRehash(encoded),
  })
}
