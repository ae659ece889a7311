import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { RUNTIMES } from '@authlab/workspace'
import { runInBrowser } from './browser.mjs'
import { installRuntimes, VENDOR } from './install.mjs'
import { runInWorkerd } from './workerd.mjs'

export { launchBrowser } from './browser.mjs'
export { installRuntimes } from './install.mjs'
export { COMPATIBILITY_DATE } from './workerd.mjs'

const HOST = fileURLToPath(new URL('./host.mjs', import.meta.url))

/**
 * @typedef {{ id: string, label: string, kind: 'process', command: string, args: string[] }
 *   | { id: string, label: string, kind: 'browser', browser: 'chrome' | 'firefox', executable: string }
 *   | { id: string, label: string, kind: 'workerd', command: string, version: string }} Runtime
 * @typedef {{ ok: true, runtime: Runtime } | { ok: false, id: string, reason: string }} Resolved
 */

/** The eight runtimes, in table order (the registry's list, which strategy manifests claim from). Node
 * is the one running this process. */
export const RUNTIME_IDS = RUNTIMES

/**
 * Finds a runtime's executable. A missing one is a reason, never a silent drop: the caller reports
 * `skipped: <reason>`, or fails where the runtime is required.
 * @param {string} id
 * @returns {Resolved}
 */
export function resolveRuntime(id) {
  const vendor = (/** @type {string} */ path) => join(VENDOR, 'node_modules', path)
  /** @type {Record<string, () => Resolved>} */
  const table = {
    node: () => process_('node', 'Node (this process)', process.execPath, ['--expose-gc']),
    node24: () => process_('node24', 'Node 24', vendor('node24/bin/node'), ['--expose-gc']),
    node22: () => process_('node22', 'Node 22', vendor('node22/bin/node'), ['--expose-gc']),
    bun: () => process_('bun', 'Bun', vendor('@oven/bun-linux-x64/bin/bun'), []),
    deno: () =>
      process_('deno', 'Deno', vendor('@deno/linux-x64-glibc/deno'), [
        'run',
        '--allow-all',
        '--v8-flags=--expose-gc',
      ]),
    chromium: () => browser('chromium', 'Chromium (headless)', 'chrome', '/usr/bin/chromium'),
    firefox: () => browser('firefox', 'Firefox ESR (headless)', 'firefox', '/usr/bin/firefox-esr'),
    workerd: () => workerd(vendor('@cloudflare/workerd-linux-64/bin/workerd')),
  }
  const make = table[id]
  if (!make) return { ok: false, id, reason: `unknown runtime "${id}" (known: ${RUNTIME_IDS.join(', ')})` }
  if (['node24', 'node22', 'bun', 'deno', 'workerd'].includes(id)) {
    try {
      installRuntimes()
    } catch (error) {
      return {
        ok: false,
        id,
        reason: `npm ci in tools/runtimes/vendor failed: ${/** @type {Error} */ (error).message.split('\n')[0]}`,
      }
    }
  }
  return make()
}

/** @returns {Resolved} */
function process_(
  /** @type {string} */ id,
  /** @type {string} */ label,
  /** @type {string} */ command,
  /** @type {string[]} */ args,
) {
  if (!existsSync(command)) return { ok: false, id, reason: `${command} is missing` }
  return { ok: true, runtime: { id, label, kind: 'process', command, args } }
}

/**
 * workerd, named by the build date it prints (`workerd --version` → "workerd 2026-11-23"): the
 * runtime cannot name itself from inside a Worker.
 * @returns {Resolved}
 */
function workerd(/** @type {string} */ command) {
  if (!existsSync(command)) return { ok: false, id: 'workerd', reason: `${command} is missing` }
  let version
  try {
    version = execFileSync(command, ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^workerd /, '')
  } catch (error) {
    return {
      ok: false,
      id: 'workerd',
      reason: `${command} --version failed: ${String(error).split('\n')[0]}`,
    }
  }
  return { ok: true, runtime: { id: 'workerd', label: 'workerd', kind: 'workerd', command, version } }
}

/** @returns {Resolved} */
function browser(
  /** @type {string} */ id,
  /** @type {string} */ label,
  /** @type {'chrome' | 'firefox'} */ kind,
  /** @type {string} */ executable,
) {
  if (!existsSync(executable)) {
    return {
      ok: false,
      id,
      reason: `${executable} is missing (apt-get install -y ${id === 'firefox' ? 'firefox-esr' : 'chromium'})`,
    }
  }
  return { ok: true, runtime: { id, label, kind: 'browser', browser: kind, executable } }
}

/**
 * Runs `entry` (a module whose default export is `async (input) => result`) inside `runtime` and
 * returns its JSON result. Processes get the input on argv; browsers load a bundle from a loopback
 * page (crypto.subtle needs a secure context, which http://127.0.0.1 is); workerd serves a bundle as a
 * module worker and gets the input in one request (src/workerd.mjs).
 * @param {Runtime} runtime
 * @param {string} entry absolute path
 * @param {unknown} input
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<any>}
 */
export function runInRuntime(runtime, entry, input, { timeoutMs = 120_000 } = {}) {
  if (runtime.kind === 'browser') return runInBrowser(runtime, entry, input, { timeoutMs })
  if (runtime.kind === 'workerd')
    return runInWorkerd(runtime, entry, input, { timeoutMs, version: runtime.version })
  return new Promise((resolve, reject) => {
    const child = spawn(
      runtime.command,
      [...runtime.args, HOST, pathToFileURL(entry).href, JSON.stringify(input)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const line = stdout.split('\n').find((l) => l.startsWith('__AUTHLAB_RESULT__'))
      if (code === 0 && line) return resolve(JSON.parse(line.slice('__AUTHLAB_RESULT__'.length)))
      reject(
        new Error(
          `${runtime.id} exited ${signal ?? code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`,
        ),
      )
    })
  })
}
