// One verify of one stored hash, measured in a fresh Node process: wall time, how it ended, the
// process's peak RSS and its RSS once the verify has settled. Peak RSS is a per-process high-water mark,
// so every case needs a process of its own; callers run them one
// after another, never two at once, since the box's cores are shared. Used by the worst-verify bench,
// hash-worker's hostile-verify bench and the worst-in-budget test, so they all measure the same way.
import { execFile, execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import os from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

/**
 * @typedef {object} VerifySpec
 * @property {string} module what `import()` takes: a package name or a file URL
 * @property {Record<string, unknown>} [options] for its `createHasher`; without, its default `hasher` export
 * @property {string} stored the stored hash to verify
 * @property {string} [password] default: a password the stored hash was not made from
 * @property {number} [settleMs] wait before reading the RSS left behind (default 500)
 *
 * @typedef {object} VerifyCost
 * @property {string} outcome `true`/`false`, or the error's code (`untyped` without one)
 * @property {string} [message] the error's message, when it failed
 * @property {number} ms
 * @property {number} rssBeforeMb
 * @property {number} peakRssBeforeMb the high-water mark the warm-up left: the verify's own peak shows only above it
 * @property {number} peakRssMb
 * @property {number} rssAfterMb
 */

const WRONG_PASSWORD = 'not the password: a completed verify answers false'
const mib = (/** @type {number} */ bytes) => Math.round(bytes / 2 ** 20)

/**
 * This process's peak RSS in MiB. Linux's getrusage `ru_maxrss` (`process.resourceUsage().maxRSS`)
 * survives execve: a child inherits the high-water mark of the parent it was forked from, so a child of
 * a 150 MiB bench process reports at least 150 MiB. `VmHWM` in /proc/self/status belongs to this
 * process's own memory map; maxRSS is the fallback where there is no /proc.
 */
function peakRssMb() {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    if (kib !== undefined) return Math.round(Number(kib) / 1024)
  } catch {}
  return Math.round(process.resourceUsage().maxRSS / 1024)
}

// JSON has no Infinity (hash-worker's `maxWorkerMemoryMb: Infinity` turns recycling off).
const encode = (/** @type {unknown} */ spec) =>
  JSON.stringify(spec, (_, value) => (value === Number.POSITIVE_INFINITY ? { $number: 'Infinity' } : value))
const decode = (/** @type {string} */ text) =>
  JSON.parse(text, (_, value) => (value?.$number === 'Infinity' ? Number.POSITIVE_INFINITY : value))

/**
 * Runs `spec` in a new Node process and resolves with what it cost.
 * @param {VerifySpec} spec
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<VerifyCost>}
 */
export function verifyInFreshProcess(spec, { timeoutMs = 180_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [fileURLToPath(import.meta.url), encode(spec)],
      { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${spec.module}: the measuring process failed: ${stderr || error.message}`))
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? ''))
      },
    )
  })
}

/** @param {VerifySpec} spec */
async function measure(spec) {
  const exports = await import(spec.module)
  const hasher = spec.options === undefined ? exports.hasher : exports.createHasher(spec.options)
  // Code compiled, WebAssembly instantiated and worker threads started before the clock runs.
  await hasher.hash('warm-up')
  const rssBefore = process.memoryUsage().rss
  const peakBefore = peakRssMb()
  const started = performance.now()
  /** @type {{ outcome: string, message?: string }} */
  const settled = await hasher.verify(spec.stored, spec.password ?? WRONG_PASSWORD).then(
    (/** @type {boolean} */ answer) => ({ outcome: String(answer) }),
    (/** @type {{ code?: string, message?: string }} */ error) => ({
      outcome: error?.code ?? 'untyped',
      message: String(error?.message).slice(0, 300),
    }),
  )
  const ms = Math.round(performance.now() - started)
  // A retired worker thread is terminated asynchronously; give it a moment before reading the RSS left.
  await sleep(spec.settleMs ?? 500)
  /** @type {VerifyCost} */
  const cost = {
    ...settled,
    ms,
    rssBeforeMb: mib(rssBefore),
    peakRssBeforeMb: peakBefore,
    peakRssMb: peakRssMb(),
    rssAfterMb: mib(process.memoryUsage().rss),
  }
  await hasher.close?.()
  process.stdout.write(`${JSON.stringify(cost)}\n`)
  process.exit(0)
}

/** The 1-, 5- and 15-minute load averages, rounded: every figure from a shared box needs them beside it. */
export const loadAverage = () => os.loadavg().map((n) => Math.round(n * 100) / 100)

/**
 * What a results file records about where it was measured; call at the start, add
 * `loadAverageAtEnd: loadAverage()` at the end.
 */
export function machine(env = process.env) {
  const git = (/** @type {string[]} */ args) => execFileSync('git', args, { encoding: 'utf8' }).trim()
  return {
    date: new Date().toISOString(),
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '',
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.availableParallelism(),
    memoryMb: mib(os.totalmem()),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    threadpool: env.UV_THREADPOOL_SIZE ?? 'unset (libuv default 4)',
    loadAverageAtStart: loadAverage(),
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2]) {
  await measure(decode(process.argv[2]))
}
