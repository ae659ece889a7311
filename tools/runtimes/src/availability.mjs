import { resolveRuntime } from './index.mjs'

/** The runtimes that come from Debian rather than from the npm registry: a new machine has none. */
export const BROWSER_RUNTIMES = ['chromium', 'firefox']

/** How a reader gets them: the Debian packages, or the CI entry point that installs them. */
export const GET_BROWSERS = '`apt-get install -y chromium firefox-esr`, or run `CI=true bash .ci/run`'

/**
 * Why the tests that need runtime `id` do not run here, or undefined when they do. Only a browser that
 * is missing may be skipped, and only outside CI: with `CI` set every runtime is required and its tests
 * fail with the reason, as the database tests of apps/store-matrix do. Runtimes from the npm registry
 * (node24, node22, bun, deno, workerd) are always required, because `npm ci` installs them.
 * @param {string} id
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
export function skipReason(id, env = process.env) {
  if (env.CI || !BROWSER_RUNTIMES.includes(id)) return undefined
  const resolved = resolveRuntime(id)
  return resolved.ok ? undefined : `${id} is not installed (${resolved.reason})`
}

/**
 * The one line a run without browsers prints, or undefined when every browser test runs.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
export function browserSkipNotice(env = process.env) {
  const missing = BROWSER_RUNTIMES.filter((id) => skipReason(id, env) !== undefined)
  if (missing.length === 0) return undefined
  return `browser tests skipped: ${missing.join(' and ')} not installed and CI not set; to run them: ${GET_BROWSERS}`
}

/**
 * The runtime, or an error that says how to install it (and that CI requires it). For tests: a test
 * that was not skipped by `skipReason` must have its runtime.
 * @param {string} id
 */
export function requireRuntime(id) {
  const resolved = resolveRuntime(id)
  if (resolved.ok) return resolved.runtime
  const how = BROWSER_RUNTIMES.includes(id)
    ? ' (required with CI set; `bash .ci/run` installs the browsers)'
    : ''
  throw new Error(`${id} cannot start: ${resolved.reason}${how}`)
}
