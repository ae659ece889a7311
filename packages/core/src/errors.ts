/**
 * Typed errors shared by every authlab package. Callers branch on `code` (stable strings, like
 * Node's ERR_* codes) rather than on `instanceof`, which breaks when an app loads both the ESM and
 * the CommonJS build of a package.
 */
export type AuthlabErrorCode =
  | 'ERR_AUTHLAB_INVALID_HASH'
  | 'ERR_AUTHLAB_PARAMETER_LIMIT'
  | 'ERR_AUTHLAB_PASSWORD_POLICY'
  | 'ERR_AUTHLAB_INVALID_OPTION'
  | 'ERR_AUTHLAB_OVERLOAD'
  | 'ERR_AUTHLAB_TIMEOUT'
  | 'ERR_AUTHLAB_CLOSED'
  | 'ERR_AUTHLAB_WORKER'
  | 'ERR_AUTHLAB_REMOTE_UNAVAILABLE'
  | 'ERR_AUTHLAB_REMOTE_REJECTED'
  | 'ERR_AUTHLAB_REMOTE_TIMEOUT'
  | 'ERR_AUTHLAB_REMOTE_BAD_RESPONSE'
  | 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME'

/**
 * The `cause` option of `new Error(message, options)`. Declared here rather than taken from the
 * ES2022 lib's `ErrorOptions`, so these declarations compile for consumers targeting ES2020.
 */
export interface AuthlabErrorOptions {
  readonly cause?: unknown
}

export class AuthlabError extends Error {
  readonly code: AuthlabErrorCode

  constructor(code: AuthlabErrorCode, message: string, options?: AuthlabErrorOptions) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/** An encoded hash that cannot be parsed: truncated, wrong prefix, bad base64, unknown version. */
export class InvalidHashError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_INVALID_HASH', message, options)
  }
}

/** A cost parameter outside the configured caps (e.g. a stored hash claiming scrypt N=2^30). */
export class ParameterLimitError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_PARAMETER_LIMIT', message, options)
  }
}

/** A password the strategy refuses by policy (e.g. longer than bcrypt's 72 bytes). */
export class PasswordPolicyError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_PASSWORD_POLICY', message, options)
  }
}

/** For an unknown option key: the key, the nearest valid one (if any is close) and every valid one. */
export interface UnknownOptionDetail {
  readonly option: string
  readonly suggestion?: string
  readonly validOptions: readonly string[]
}

/** A constructor option that is unknown, out of range or of the wrong type. */
export class InvalidOptionError extends AuthlabError {
  readonly detail: UnknownOptionDetail | undefined

  constructor(message: string, options?: AuthlabErrorOptions, detail?: UnknownOptionDetail) {
    super('ERR_AUTHLAB_INVALID_OPTION', message, options)
    this.detail = detail
  }
}

/** Work refused because a bounded queue or concurrency limit is full: shed load, retry later (HTTP 503). */
export class OverloadError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_OVERLOAD', message, options)
  }
}

/** Work that ran past its time limit and was stopped. */
export class TimeoutError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_TIMEOUT', message, options)
  }
}

/** Work refused or abandoned because its owner (e.g. a worker pool) was closed. */
export class ClosedError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_CLOSED', message, options)
  }
}

/** Work on another thread failed untyped: the thread died, or the code it ran threw a non-authlab value. */
export class WorkerError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_WORKER', message, options)
  }
}

/** A remote service could not be reached or stayed overloaded (refused, reset, 503) after the allowed retries. */
export class RemoteUnavailableError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_REMOTE_UNAVAILABLE', message, options)
  }
}

/** A remote service refused the request itself (bad signature, parameters not allowed): retrying cannot help. */
export class RemoteRejectedError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_REMOTE_REJECTED', message, options)
  }
}

/** A remote call did not complete within its deadline. */
export class RemoteTimeoutError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_REMOTE_TIMEOUT', message, options)
  }
}

/** A remote service answered with something that is not a valid result (wrong length, not JSON, not hex). */
export class RemoteBadResponseError extends AuthlabError {
  constructor(message: string, options?: AuthlabErrorOptions) {
    super('ERR_AUTHLAB_REMOTE_BAD_RESPONSE', message, options)
  }
}

export function isAuthlabError(error: unknown): error is AuthlabError {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof Error && typeof code === 'string' && code.startsWith('ERR_AUTHLAB_')
}

/**
 * The running JavaScript runtime lacks an API a strategy is built on (Node's `crypto.argon2` before
 * Node 24.7, say): raised when the strategy is created, never at import, so a package loads everywhere
 * and says plainly what it needs. `required` names it, e.g. "Node >= 24.7".
 */
export class UnsupportedRuntimeError extends AuthlabError {
  readonly required: string | undefined

  constructor(message: string, options?: AuthlabErrorOptions, required?: string) {
    super('ERR_AUTHLAB_UNSUPPORTED_RUNTIME', message, options)
    this.required = required
  }
}
