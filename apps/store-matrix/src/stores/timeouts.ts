/**
 * A backend that stops answering without closing the connection (a frozen process, or a half-open TCP
 * connection after the peer vanished, RFC 9293 §3.5.1) is noticed only by a client-side timeout: TCP
 * keepalive waits two hours by default (Linux `tcp_keepalive_time`) and notices nothing while the
 * peer's kernel still acknowledges. Every store operation here is a one-row read or write that takes
 * milliseconds on loopback (the latency table of the README), so 2 s leaves ample headroom.
 */
export const CONNECT_TIMEOUT_MS = 2000
export const OPERATION_TIMEOUT_MS = 2000

/** Why a store operation was abandoned: its connection gave no answer within the deadline. */
export class OperationTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the backend did not answer within ${timeoutMs} ms`)
    this.name = 'OperationTimeoutError'
  }
}

/** `work`, or an OperationTimeoutError after `timeoutMs` (calling `onTimeout` first, e.g. to drop the connection). */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout()
      reject(new OperationTimeoutError(timeoutMs))
    }, timeoutMs)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}

/** Retry quickly at first, then every second at most: a backend back after an outage is used within a second. */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(50 * 2 ** attempt, 1000)
}
