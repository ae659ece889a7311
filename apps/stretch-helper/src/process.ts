import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

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
