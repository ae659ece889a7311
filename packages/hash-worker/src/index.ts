import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  AuthlabError,
  type AuthlabErrorCode,
  ClosedError,
  InvalidHashError,
  InvalidOptionError,
  OverloadError,
  ParameterLimitError,
  type Password,
  type PasswordHasher,
  PasswordPolicyError,
  RemoteBadResponseError,
  RemoteRejectedError,
  RemoteTimeoutError,
  RemoteUnavailableError,
  TimeoutError,
  UnsupportedRuntimeError,
  WorkerError,
} from '@authlab/core'
import { buildDirectory } from './location.cjs'
import { parseOptions, type WorkerHasherOptions } from './options.js'
import { WorkerPool } from './pool.js'
import type { WorkerTask } from './protocol.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export { type ConcurrencyLimit, limitConcurrency } from './gate.js'
export { maxThreads, type WorkerHasherOptions } from './options.js'

/** A PasswordHasher whose work runs on worker threads; `close()` ends them. */
export interface WorkerHasher extends PasswordHasher {
  close(): Promise<void>
}

/** Every authlab code back to its class, so a worker's typed failure is the same class on this thread. */
const ERRORS: Record<AuthlabErrorCode, new (message: string) => AuthlabError> = {
  ERR_AUTHLAB_INVALID_HASH: InvalidHashError,
  ERR_AUTHLAB_PARAMETER_LIMIT: ParameterLimitError,
  ERR_AUTHLAB_PASSWORD_POLICY: PasswordPolicyError,
  ERR_AUTHLAB_INVALID_OPTION: InvalidOptionError,
  ERR_AUTHLAB_OVERLOAD: OverloadError,
  ERR_AUTHLAB_TIMEOUT: TimeoutError,
  ERR_AUTHLAB_CLOSED: ClosedError,
  ERR_AUTHLAB_WORKER: WorkerError,
  ERR_AUTHLAB_REMOTE_UNAVAILABLE: RemoteUnavailableError,
  ERR_AUTHLAB_REMOTE_REJECTED: RemoteRejectedError,
  ERR_AUTHLAB_REMOTE_TIMEOUT: RemoteTimeoutError,
  ERR_AUTHLAB_REMOTE_BAD_RESPONSE: RemoteBadResponseError,
  ERR_AUTHLAB_UNSUPPORTED_RUNTIME: UnsupportedRuntimeError,
}

/** Rebuilds a worker's failure on this thread: the same class for an authlab code, a WorkerError for the rest. */
function rebuild(code: string | undefined, message: string): AuthlabError {
  const known = code === undefined ? undefined : ERRORS[code as AuthlabErrorCode]
  if (known !== undefined) return new known(message)
  // A code this version does not know (a newer core) keeps its code; anything else is untyped work failure.
  return code?.startsWith('ERR_AUTHLAB_')
    ? new AuthlabError(code as AuthlabErrorCode, message)
    : new WorkerError(`the strategy failed on a worker thread: ${message}`)
}

/**
 * Runs a main-thread strategy (hash-bcryptjs, hash-wasm, hash-scrypt-js, ...) on a pool of worker
 * threads, so a hash no longer stalls every other request on the event loop. The hashes are the
 * strategy's own: the workers call its `createHasher(options)`, so the two verify each other's output.
 */
export function createHasher(input?: WorkerHasherOptions): WorkerHasher {
  const { strategy, strategyOptions: options, resolveFrom, limits } = parseOptions(input)
  const module = resolveStrategy(strategy, resolveFrom ?? buildDirectory)
  // The same module and options on this thread give `info`, the cheap synchronous `needsRehash`, and
  // the strategy's own refusal of bad options now rather than on the first task.
  const exports = createRequire(join(buildDirectory, 'index.js'))(module) as {
    createHasher?(options: unknown): PasswordHasher
  }
  if (typeof exports.createHasher !== 'function') {
    throw new InvalidOptionError(`${strategy} does not export createHasher(options)`)
  }
  const local = exports.createHasher(options)

  // Threads start on first use, so importing the package (and its default `hasher`) spawns none.
  const pool = new WorkerPool(join(buildDirectory, 'worker.js'), limits)
  const run = async (method: WorkerTask['method'], args: WorkerTask['args']) => {
    const result = await pool.run({ module, options, method, args })
    if (result.ok) return result.value
    throw rebuild(result.code, result.message)
  }

  const hasher: WorkerHasher = {
    info: Object.freeze({
      name: '@authlab/hash-worker',
      displayName: `${local.info.displayName} on workers`,
      wraps: `${local.info.name} on ${limits.threads} worker threads`,
      algorithm: local.info.algorithm,
      runsOn: 'worker',
      params: local.info.params,
    }),
    hash: (password: Password) => run('hash', [password]) as Promise<string>,
    verify: (encoded: string, password: Password) => run('verify', [encoded, password]) as Promise<boolean>,
    needsRehash: (encoded: string) => local.needsRehash(encoded),
    close: () => pool.close(),
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
