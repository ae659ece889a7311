import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { ConnectionLimits } from './app.js'
import type { ScryptParams } from './params.js'

export interface HelperProcessOptions {
  /** Pin the helper to this CPU with taskset (when taskset exists), away from the client's core. */
  cpu?: number
  /** Bench only: a simulated network round trip added to every answer, in ms. */
  rttMs?: number
  /** Port to listen on (default 0: any free port; pass a port to restart a helper where it was). */
  port?: number
  /** Shared secret (default: 32 random bytes, hex). */
  secret?: string
  concurrency?: number
  queueLimit?: number
  /** libuv threadpool size of the helper process (node:crypto's scrypt runs there). */
  threadpool?: number
  /** Accepted clock difference for signed timestamps (default 30 s; at least 1 s). */
  replayWindowMs?: number
  /** Nonces remembered inside the window (default 100,000). */
  nonceCacheSize?: number
  /** Connection bounds (see `HelperOptions.connections`). */
  connections?: ConnectionLimits
  /** Parameter sets allowed beside onepw's (`AUTHLAB_HELPER_EXTRA_PARAMS`), e.g. OWASP's N=2^17 r=8 p=1. */
  extraParams?: readonly ScryptParams[]
}

export interface HelperProcess {
  readonly url: string
  readonly secret: string
  readonly pid: number
  /** True when taskset pinned the helper to the requested CPU. */
  readonly pinned: boolean
  /** Peak resident memory of the helper so far (VmHWM from /proc), in bytes; undefined off Linux. */
  peakRssBytes(): number | undefined
  /** Sends a signal (SIGSTOP, SIGCONT, SIGKILL…) to the helper. */
  signal(name: NodeJS.Signals): void
  /** Resolves with the exit code once the process is gone. */
  readonly exited: Promise<number | null>
  /** SIGTERM, wait for the drain, resolve with the exit code. */
  stop(): Promise<number | null>
}

// vitest runs this module from src/; the helper process always runs the compiled build.
const here = dirname(fileURLToPath(import.meta.url))
const MAIN = join(here, here.endsWith('src') ? '../dist' : '.', 'main.js')

let tasksetPresent: boolean | undefined
function hasTaskset(): boolean {
  tasksetPresent ??= spawnSync('taskset', ['--version']).status === 0
  return tasksetPresent
}

function waitForUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = ''
    child.stderr?.on('data', (chunk) => {
      stderr += chunk
    })
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string }
        if (entry.msg === 'listening' && entry.url) resolve(entry.url)
      } catch {}
    })
    child.once('exit', (code) => reject(new Error(`stretch-helper exited (${code}): ${stderr.trim()}`)))
  })
}

/**
 * Starts the helper as its own process, as it runs in production, and resolves once it listens.
 * Its stdout is read (and drained) for the whole life of the process so logging never blocks it.
 */
export async function startHelperProcess(options: HelperProcessOptions = {}): Promise<HelperProcess> {
  const secret = options.secret ?? randomBytes(32).toString('hex')
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AUTHLAB_HELPER_SECRET: secret,
    PORT: String(options.port ?? 0),
    HOST: '127.0.0.1',
    // Info: the "listening" line is read from it, and request lines show what a deployment logs.
    LOG_LEVEL: 'info',
    AUTHLAB_HELPER_SIMULATED_RTT_MS: String(options.rttMs ?? 0),
  }
  if (options.concurrency !== undefined) env.AUTHLAB_HELPER_CONCURRENCY = String(options.concurrency)
  if (options.queueLimit !== undefined) env.AUTHLAB_HELPER_QUEUE = String(options.queueLimit)
  if (options.threadpool !== undefined) env.UV_THREADPOOL_SIZE = String(options.threadpool)
  if (options.replayWindowMs !== undefined)
    env.AUTHLAB_HELPER_REPLAY_WINDOW_MS = String(options.replayWindowMs)
  if (options.nonceCacheSize !== undefined) env.AUTHLAB_HELPER_NONCE_CACHE = String(options.nonceCacheSize)
  if (options.extraParams !== undefined) env.AUTHLAB_HELPER_EXTRA_PARAMS = JSON.stringify(options.extraParams)
  const limits = options.connections ?? {}
  const limitEnv = {
    headersTimeoutMs: 'AUTHLAB_HELPER_HEADERS_TIMEOUT_MS',
    requestTimeoutMs: 'AUTHLAB_HELPER_REQUEST_TIMEOUT_MS',
    keepAliveTimeoutMs: 'AUTHLAB_HELPER_KEEP_ALIVE_TIMEOUT_MS',
    maxConnections: 'AUTHLAB_HELPER_MAX_CONNECTIONS',
  } as const
  for (const [key, name] of Object.entries(limitEnv)) {
    const value = limits[key as keyof ConnectionLimits]
    if (value !== undefined) env[name] = String(value)
  }
  const pinned = options.cpu !== undefined && hasTaskset()
  // taskset execs node in place, so the child's pid is the helper's own.
  const child = pinned
    ? spawn('taskset', ['-c', String(options.cpu), process.execPath, MAIN], { env })
    : spawn(process.execPath, [MAIN], { env })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await waitForUrl(child)
  const pid = child.pid as number
  return {
    url,
    secret,
    pid,
    pinned,
    exited,
    peakRssBytes() {
      try {
        const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
        return kib ? Number(kib) * 1024 : undefined
      } catch {
        return undefined
      }
    },
    signal: (name) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(name)
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}
