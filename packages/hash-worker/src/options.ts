import { availableParallelism } from 'node:os'
import { InvalidOptionError } from '@authlab/core'
import type { PoolLimits } from './pool.js'

export interface WorkerHasherOptions {
  /**
   * The strategy package (or an absolute path / file URL to one) whose `createHasher(options)` runs in
   * the workers, e.g. `@authlab/hash-bcryptjs`. Default `@authlab/hash-wasm` (argon2id, OWASP parameters).
   */
  strategy?: string
  /** Passed to the strategy's `createHasher` in every worker (and on this thread, for `info`/`needsRehash`). */
  options?: Record<string, unknown>
  /**
   * Any other key is a strategy option too, so cost keys work as for every hasher (the bench app's
   * contract): `createHasher({ cost: 12 })` equals `createHasher({ options: { cost: 12 } })`.
   */
  [strategyOption: string]: unknown
  /** Worker threads in the pool (default: `os.availableParallelism()`, at most {@link maxThreads}). */
  threads?: number
  /** Tasks waiting for a thread before further calls fail with an OverloadError (default: 64 × threads). */
  maxQueue?: number
  /**
   * A task running longer (from when a thread takes it, a new thread's start-up included) is stopped with
   * its thread and fails with a TimeoutError (default: 10,000 ms; `Infinity` for none).
   */
  taskTimeoutMs?: number
  /** A thread holding more heap + external memory than this after a task is replaced (default: 256 MiB). */
  maxWorkerMemoryMb?: number
  /**
   * Where bare strategy names are resolved from (default: this package's own location, so any
   * strategy installed beside it in the app's node_modules is found). Absolute paths and file URLs
   * need no resolving.
   */
  resolveFrom?: string
}

export interface ParsedOptions {
  readonly strategy: string
  readonly strategyOptions: Record<string, unknown>
  readonly resolveFrom: string | undefined
  readonly limits: PoolLimits
}

/**
 * Password hashing is CPU-bound: threads beyond the cores only time-slice the same cores while each
 * holds its own copy of the strategy's memory (up to a GiB for a hostile argon2 or scrypt hash). Twice
 * the cores leaves room for a strategy that waits (e.g. on WebAssembly compilation) and no more.
 */
export const maxThreads = (): number => 2 * availableParallelism()

/**
 * Queued work waits for every task ahead of it: at 64 tasks per thread and 50 ms a hash, the last in
 * line waits 3.2 s, already longer than a login should take. Shedding load beyond that keeps memory
 * bounded under a flood and tells the caller at once.
 */
const QUEUE_PER_THREAD = 64
const DEFAULT_TASK_TIMEOUT_MS = 10_000
/** Above OWASP's largest recommended setting (scrypt N=2^17, r=8: 128 MiB) with room for the thread itself. */
const DEFAULT_MAX_WORKER_MEMORY_MB = 256
/** setTimeout's largest delay; a longer timeout fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function integerIn(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`)
  }
  return value
}

function stringOption(name: string, value: unknown): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw new InvalidOptionError(`${name} must be a string, got ${typeof value}`)
  }
  return value
}

/** Checks hash-worker's own options; every other key is the strategy's, which checks them itself. */
export function parseOptions(input: unknown): ParsedOptions {
  if (input === undefined) input = {}
  if (!isRecord(input)) throw new InvalidOptionError(`options must be an object, got ${String(input)}`)
  const { strategy, options, threads, maxQueue, taskTimeoutMs, maxWorkerMemoryMb, resolveFrom, ...direct } =
    input
  if (options !== undefined && !isRecord(options)) {
    throw new InvalidOptionError(`options must be an object of strategy options, got ${String(options)}`)
  }
  const cap = maxThreads()
  const threadCount =
    threads === undefined ? Math.min(availableParallelism(), cap) : integerIn('threads', threads, 1, cap)
  const memory = maxWorkerMemoryMb === undefined ? DEFAULT_MAX_WORKER_MEMORY_MB : maxWorkerMemoryMb
  if (typeof memory !== 'number' || !(memory > 0)) {
    throw new InvalidOptionError(
      `maxWorkerMemoryMb must be a positive number or Infinity, got ${String(memory)}`,
    )
  }
  return {
    strategy: stringOption('strategy', strategy) ?? '@authlab/hash-wasm',
    strategyOptions: { ...options, ...direct },
    resolveFrom: stringOption('resolveFrom', resolveFrom),
    limits: {
      threads: threadCount,
      maxQueue:
        maxQueue === undefined
          ? QUEUE_PER_THREAD * threadCount
          : integerIn('maxQueue', maxQueue, 0, Number.MAX_SAFE_INTEGER),
      taskTimeoutMs:
        taskTimeoutMs === undefined || taskTimeoutMs === Number.POSITIVE_INFINITY
          ? (taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS)
          : integerIn('taskTimeoutMs', taskTimeoutMs, 1, MAX_TIMER_MS),
      maxWorkerMemoryMb: memory,
    },
  }
}
