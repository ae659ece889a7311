import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type AuthlabError,
  type AuthlabErrorCode,
  InvalidHashError,
  InvalidOptionError,
  ParameterLimitError,
  type Password,
  type PasswordHasher,
  PasswordPolicyError,
  RemoteBadResponseError,
  RemoteRejectedError,
  RemoteTimeoutError,
  RemoteUnavailableError,
} from '@authlab/core'
import { Piscina } from 'piscina'
import { buildDirectory } from './location.cjs'
import type { WorkerResult, WorkerTask } from './worker.js'

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
  /** Worker threads in the pool (default: `os.availableParallelism()`). */
  threads?: number
  /**
   * Where bare strategy names are resolved from (default: this package's own location, so any
   * strategy installed beside it in the app's node_modules is found). Absolute paths and file URLs
   * need no resolving.
   */
  resolveFrom?: string
}

/** A PasswordHasher whose work runs on worker threads; `close()` ends them. */
export interface WorkerHasher extends PasswordHasher {
  close(): Promise<void>
}

const ERRORS: Record<AuthlabErrorCode, new (message: string) => AuthlabError> = {
  ERR_AUTHLAB_INVALID_HASH: InvalidHashError,
  ERR_AUTHLAB_PARAMETER_LIMIT: ParameterLimitError,
  ERR_AUTHLAB_PASSWORD_POLICY: PasswordPolicyError,
  ERR_AUTHLAB_INVALID_OPTION: InvalidOptionError,
  ERR_AUTHLAB_REMOTE_UNAVAILABLE: RemoteUnavailableError,
  ERR_AUTHLAB_REMOTE_REJECTED: RemoteRejectedError,
  ERR_AUTHLAB_REMOTE_TIMEOUT: RemoteTimeoutError,
  ERR_AUTHLAB_REMOTE_BAD_RESPONSE: RemoteBadResponseError,
}

/**
 * Runs a main-thread strategy (hash-bcryptjs, hash-wasm, hash-scrypt-js, ...) on a piscina pool of
 * worker threads, so a hash no longer stalls every other request on the event loop. The hashes are the
 * strategy's own: the workers call its `createHasher(options)`, so the two verify each other's output.
 */
export function createHasher({
  strategy = '@authlab/hash-wasm',
  options: nested = {},
  threads = availableParallelism(),
  resolveFrom,
  ...direct
}: WorkerHasherOptions = {}): WorkerHasher {
  const options = { ...nested, ...direct }
  if (!Number.isSafeInteger(threads) || threads < 1) {
    throw new InvalidOptionError(`threads must be a positive integer, got ${String(threads)}`)
  }
  const module = resolveStrategy(strategy, resolveFrom ?? buildDirectory)
  // The same module and options on this thread give `info` and the cheap, synchronous `needsRehash`.
  const exports = createRequire(join(buildDirectory, 'index.js'))(module) as {
    createHasher?(options: unknown): PasswordHasher
  }
  const local = exports.createHasher?.(options)
  if (!local) throw new InvalidOptionError(`${strategy} does not export createHasher(options)`)
  const workerFile = join(buildDirectory, 'worker.js')

  // Started on first use, so importing the package (and its default `hasher`) spawns no threads.
  let pool: Piscina<WorkerTask, WorkerResult> | undefined
  const run = async (method: WorkerTask['method'], args: WorkerTask['args']) => {
    // piscina unrefs idle workers, so an unclosed pool never keeps the process alive.
    pool ??= new Piscina({ filename: workerFile, minThreads: threads, maxThreads: threads })
    const result = await pool.run({ module, options, method, args })
    if (result.ok) return result.value
    const TypedError = ERRORS[result.code as AuthlabErrorCode]
    throw TypedError ? new TypedError(result.message) : new Error(result.message)
  }

  const hasher: WorkerHasher = {
    info: Object.freeze({
      name: '@authlab/hash-worker',
      displayName: `${local.info.displayName} on workers`,
      wraps: `${local.info.name} on piscina@5 (${threads} worker threads)`,
      algorithm: local.info.algorithm,
      runsOn: 'worker',
      params: local.info.params,
    }),
    hash: (password: Password) => run('hash', [password]) as Promise<string>,
    verify: (encoded: string, password: Password) => run('verify', [encoded, password]) as Promise<boolean>,
    needsRehash: (encoded: string) => local.needsRehash(encoded),
    async close() {
      const closing = pool
      pool = undefined
      await closing?.destroy()
    },
  }
  return Object.freeze(hasher)
}

/** Resolves a package name, absolute path or file URL as `require.resolve` would from `base`. */
function resolveStrategy(specifier: string, base: string): string {
  try {
    const target = specifier.startsWith('file:') ? fileURLToPath(specifier) : specifier
    return createRequire(join(base, 'index.js')).resolve(target)
  } catch (error) {
    throw new InvalidOptionError(`cannot resolve ${specifier} from ${base}`, { cause: error })
  }
}

/** argon2id (hash-wasm, OWASP parameters) on one worker per core; call `hasher.close()` on shutdown. */
export const hasher: WorkerHasher = createHasher()
