import { InvalidOptionError } from '@authlab/core'

export interface RetryBudgetOptions {
  /** Tokens in a full bucket (default 10). */
  maxTokens?: number
  /** Tokens a success gives back (default 0.1: ten successes repay one failure). */
  tokenRatio?: number
}

/**
 * gRPC's retry throttling (gRFC A6): every failed attempt takes a token, every success returns
 * `tokenRatio`, and retries stop while the bucket is at or below half. When the helper is down or
 * overloaded, clients then send about one request per call instead of multiplying the load.
 */
export function createRetryBudget({ maxTokens = 10, tokenRatio = 0.1 }: RetryBudgetOptions = {}) {
  if (!(maxTokens > 0) || !(tokenRatio > 0)) {
    throw new InvalidOptionError('retryBudget.maxTokens and retryBudget.tokenRatio must be positive')
  }
  let tokens = maxTokens
  return {
    onFailure(): void {
      tokens = Math.max(0, tokens - 1)
    },
    onSuccess(): void {
      tokens = Math.min(maxTokens, tokens + tokenRatio)
    },
    allowsRetry(): boolean {
      return tokens > maxTokens / 2
    },
  }
}

export interface BackoffOptions {
  /** First backoff ceiling in ms (default 100). */
  initialMs?: number
  /** Largest backoff ceiling in ms (default 2000). */
  maxMs?: number
}

/**
 * "Full jitter" exponential backoff (gRFC A6; AWS Architecture Blog, "Exponential Backoff And
 * Jitter"): a uniform random wait below a ceiling that doubles per retry, so clients that failed
 * together do not come back together.
 */
export function backoffDelay(retry: number, { initialMs = 100, maxMs = 2000 }: BackoffOptions = {}): number {
  return Math.random() * Math.min(maxMs, initialMs * 2 ** retry)
}

/** Retry-After in delta-seconds (RFC 9110 §10.2.3) as ms; the HTTP-date form is not sent by the helper. */
export function retryAfterMs(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header
  return value !== undefined && /^\d{1,5}$/.test(value) ? Number(value) * 1000 : 0
}
