import type { RunsOn } from './hash.js'

/**
 * Whether this code runs in a Workers isolate (Cloudflare Workers, or workerd locally): there
 * `navigator.userAgent` is "Cloudflare-Workers" (developers.cloudflare.com/workers/runtime-apis/
 * web-standards/#navigatoruseragent). Their `nodejs_compat` also fills in `process.versions.node`, so
 * this is asked before anything that takes that for Node.
 */
export function isWorkersRuntime(): boolean {
  return (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers'
}

/**
 * Where a strategy's work runs in the runtime at hand, from where it runs on Node. A Workers isolate
 * has no threadpool: node:crypto's callback `pbkdf2`/`scrypt` and Web Crypto's `deriveBits` compute
 * on the isolate's own thread before their promise settles (measured in workerd: a 1 ms timer held back
 * for the whole derivation), so what Node runs on libuv's threadpool blocks the isolate there.
 */
export function runsOnHere(onNode: RunsOn): RunsOn {
  return onNode === 'threadpool' && isWorkersRuntime() ? 'main-thread' : onNode
}
