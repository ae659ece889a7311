import {
  InvalidOptionError,
  type KeyDerivation,
  type Password,
  type PasswordHasherInfo,
  passwordToBytes,
  RemoteBadResponseError,
  RemoteRejectedError,
  RemoteTimeoutError,
  RemoteUnavailableError,
} from '@authlab/core'
import {
  type BackoffOptions,
  backoffDelay,
  createRetryBudget,
  type RetryBudgetOptions,
  retryAfterMs,
} from './retry.js'
import { secretBytes, signedHeaders } from './signing.js'
import { ConnectionFailure, type HelperAnswer, RetryableFailure, type Transport } from './transport.js'

export interface RemoteScryptOptions {
  /** The helper's URL; requests are POSTed to its path (e.g. `http://127.0.0.1:8400/`). */
  url: string | URL
  /** The secret shared with the helper (≥ 32 bytes), used to sign every request. */
  secret: string | Uint8Array
  /** log2 of scrypt's N (default 16: onepw's N = 65536). The helper allows only the sets it lists. */
  ln?: number
  /** scrypt's r (default 8, onepw's). */
  r?: number
  /** scrypt's p (default 1, onepw's). */
  p?: number
  /** Deadline of one derive() in ms, retries and backoff included (default 10,000). */
  timeoutMs?: number
  /** Attempts per derive(), the first included (default 4). */
  maxAttempts?: number
  backoff?: BackoffOptions
  retryBudget?: RetryBudgetOptions
  /** Keep-alive connections to the helper (default 8). */
  connections?: number
}

/** Counters since creation: what the bench and an operator's metrics read. */
export interface RemoteScryptStats {
  readonly calls: number
  readonly attempts: number
  readonly retries: number
  /** 503 answers: the helper's queue was full. */
  readonly overloaded: number
  /** Refused, reset or closed connections. */
  readonly connectionErrors: number
}

export interface RemoteScrypt extends KeyDerivation {
  stats(): RemoteScryptStats
  /** Closes the keep-alive connections; later calls fail with ERR_AUTHLAB_REMOTE_UNAVAILABLE. */
  close(): Promise<void>
}

const MAX_DERIVE_BYTES = 1024
const RETRYABLE_STATUS = new Set([502, 503, 504])
function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`)
  }
  return value
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** The protocol carries the salt as text (onepw's is "identity.mozilla.com/picl/v1/scrypt"). */
function saltText(salt: Password): string {
  if (typeof salt === 'string') return salt
  try {
    return strictUtf8.decode(salt)
  } catch (error) {
    throw new InvalidOptionError('the remote helper takes the salt as text: salt bytes must be UTF-8', {
      cause: error,
    })
  }
}

function parseOutput(text: string, length: number): Uint8Array {
  let output: unknown
  try {
    output = (JSON.parse(text) as { output?: unknown } | null)?.output
  } catch {
    throw new RemoteBadResponseError('the helper answered 200 with a body that is not JSON')
  }
  // A key of the wrong length is a wrong key: never hand it to the next step of the chain.
  if (typeof output !== 'string' || output.length !== 2 * length || !/^[0-9a-f]*$/i.test(output)) {
    throw new RemoteBadResponseError(`the helper's output is not ${length} bytes of hex`)
  }
  return new Uint8Array(Buffer.from(output, 'hex'))
}

/**
 * C0 and C1 control characters and DEL: in a reason they would reach a log or terminal as escape
 * sequences (a hostile or broken helper writes what it likes).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g

/** The helper's reason text, at most 200 characters, control characters as spaces. */
function reasonOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; reason?: unknown }
    const reason = parsed.reason ?? parsed.message
    return typeof reason === 'string' ? reason.slice(0, 200).replace(CONTROL_CHARACTERS, ' ') : ''
  } catch {
    return ''
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * createRemoteScrypt over the transport `makeTransport` returns (undici on Node, fetch in Workers):
 * options, signing, status handling, retries and deadline are the same for both.
 */
export function defineRemoteScrypt(
  options: RemoteScryptOptions,
  makeTransport: (origin: string, connections: number) => Transport,
): RemoteScrypt {
  const url = new URL(options.url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidOptionError(`url must be http: or https:, got ${url.protocol}`)
  }
  const secret = secretBytes(options.secret)
  const ln = checkInteger('ln', options.ln ?? 16, 1, 30)
  const r = checkInteger('r', options.r ?? 8, 1, 1024)
  const p = checkInteger('p', options.p ?? 1, 1, 1024)
  const timeoutMs = checkInteger('timeoutMs', options.timeoutMs ?? 10_000, 1, 3_600_000)
  const maxAttempts = checkInteger('maxAttempts', options.maxAttempts ?? 4, 1, 100)
  const connections = checkInteger('connections', options.connections ?? 8, 1, 1024)
  const budget = createRetryBudget(options.retryBudget)
  const path = url.pathname + url.search
  const transport = makeTransport(url.origin, connections)
  let closed = false
  const counts = { calls: 0, attempts: 0, retries: 0, overloaded: 0, connectionErrors: 0 }

  async function attempt(body: string, length: number, signal: AbortSignal): Promise<Uint8Array> {
    counts.attempts++
    let answer: HelperAnswer
    try {
      answer = await transport.post(
        path,
        { 'content-type': 'application/json', ...signedHeaders(secret, 'POST', path, body) },
        body,
        signal,
      )
    } catch (error) {
      if (error instanceof ConnectionFailure) counts.connectionErrors++
      throw error
    }
    const { status, text } = answer
    if (status === 200) return parseOutput(text, length)
    const reason = reasonOf(text)
    if (RETRYABLE_STATUS.has(status)) {
      if (status === 503) counts.overloaded++
      const pushback = retryAfterMs(answer.retryAfter)
      throw new RetryableFailure(`the helper answered ${status}${reason && `: ${reason}`}`, pushback)
    }
    if (status >= 400 && status < 500) {
      throw new RemoteRejectedError(`the helper rejected the request (${status})${reason && `: ${reason}`}`)
    }
    throw new RemoteUnavailableError(`the helper answered ${status}${reason && `: ${reason}`}`)
  }

  async function withRetries(
    body: string,
    length: number,
    signal: AbortSignal,
    deadline: number,
  ): Promise<Uint8Array> {
    for (let tries = 1; ; tries++) {
      try {
        const key = await attempt(body, length, signal)
        budget.onSuccess()
        return key
      } catch (error) {
        if (!(error instanceof RetryableFailure)) throw error
        budget.onFailure()
        const wait = Math.max(error.pushbackMs, backoffDelay(tries - 1, options.backoff))
        const outOfTime = Date.now() + wait >= deadline
        if (tries >= maxAttempts || !budget.allowsRetry() || outOfTime) {
          throw new RemoteUnavailableError(`${error.message}; gave up after ${tries} attempt(s)`, {
            cause: error,
          })
        }
        counts.retries++
        await abortableSleep(wait, signal)
      }
    }
  }

  const info: PasswordHasherInfo = Object.freeze({
    name: '@authlab/stretch-remote',
    displayName: 'scrypt (remote helper)',
    wraps: `fxa-scrypt-helper protocol over ${transport.name} at ${url.origin}`,
    algorithm: 'scrypt',
    runsOn: 'remote',
    params: Object.freeze({ ln, r, p }),
  })

  return Object.freeze({
    info,
    async derive(password: Password, salt: Password, length: number): Promise<Uint8Array> {
      checkInteger('length', length, 1, MAX_DERIVE_BYTES)
      const body = JSON.stringify({
        input: Buffer.from(passwordToBytes(password)).toString('hex'),
        salt: saltText(salt),
        N: 2 ** ln,
        r,
        p,
        buflen: length,
      })
      if (closed) throw new RemoteUnavailableError('this remote scrypt client is closed')
      counts.calls++
      const controller = new AbortController()
      const timer = setTimeout(
        () => controller.abort(new RemoteTimeoutError(`no answer from the helper within ${timeoutMs} ms`)),
        timeoutMs,
      )
      try {
        return await withRetries(body, length, controller.signal, Date.now() + timeoutMs)
      } finally {
        clearTimeout(timer)
      }
    },
    stats: () => ({ ...counts }),
    close: () => {
      closed = true
      return transport.close()
    },
  })
}
