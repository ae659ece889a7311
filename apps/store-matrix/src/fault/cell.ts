import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { Agent } from 'node:http'
import { dirname, join } from 'node:path'
import type { Framework } from '@authlab/servers'
import { sleep } from '../concurrency.js'
import type { StoreBackend } from '../stores/backend.js'
import { type LoadCounts, SessionLoad } from './load.js'
import { faultDirectory } from './location.cjs'
import { FaultProxy } from './proxy.js'
import type { ServeConfig } from './serve.js'

/**
 * - `kill`: with the load paused, the backend closes the server's own idle connections (Redis
 *   `CLIENT KILL`, PostgreSQL `pg_terminate_backend`, MariaDB `KILL`);
 * - `reset`: the proxy resets every connection (TCP RST);
 * - `stall`, `refuse`, `drop`, `blackhole`: the proxy modes (see FaultMode), held for `holdMs`.
 */
export type FaultKind = 'kill' | 'reset' | 'stall' | 'refuse' | 'drop' | 'blackhole'
export const FAULT_KINDS: readonly FaultKind[] = ['kill', 'reset', 'stall', 'refuse', 'drop', 'blackhole']

/** `framework-default`: the framework decides when to write; `save-before-reply`: the route waits for the store. */
export type SavePattern = 'framework-default' | 'save-before-reply'
export const SAVE_PATTERNS: readonly SavePattern[] = ['framework-default', 'save-before-reply']

export interface FaultCellOptions {
  readonly backend: StoreBackend
  readonly framework: Framework
  readonly pattern: SavePattern
  /** Module specifier of a hash package with `createHasher({ cost })`, loaded by the server process. */
  readonly hasherModule: string
  readonly faults?: readonly FaultKind[]
  /** How long stall, refuse and black-hole last. */
  readonly holdMs?: number
  /** Concurrent clients of the steady load. */
  readonly clients?: number
  /** A client gives up on a request after this long (a black-holed write may never answer). */
  readonly requestTimeoutMs?: number
  /** After restoring a fault, how long to wait for the first success before calling it unrecovered. */
  readonly recoveryLimitMs?: number
}

export interface FaultCellReport extends LoadCounts {
  readonly store: string
  readonly framework: Framework
  readonly pattern: SavePattern
  /** 1 when the server process exited before it was asked to. */
  readonly crashes: number
  /** How the server process ended, and the error it printed, when it crashed. */
  readonly crash?: string
  /** Per fault: ms from the fault's end to the first 2xx of a request sent after it; null when none came within the limit. */
  readonly recoveryMs: Readonly<Partial<Record<FaultKind, number | null>>>
  /**
   * Where the lost sessions were found: under load after a fault began (the latest such fault), or
   * at the read-back after the load (`read-back`). Only lost sessions are counted.
   */
  readonly lostAfter: Readonly<Partial<Record<FaultKind | 'start' | 'read-back', number>>>
  /** How the first few lost sessions read back. */
  readonly lossSamples: readonly string[]
}

const SECRET = 'store-matrix-fault-secret-of-32+chars'

/** The built server script (the child runs plain JavaScript even when this file runs from src/ under Vitest). */
function serveScript(): string {
  let directory = faultDirectory
  while (!existsSync(join(directory, 'package.json'))) directory = dirname(directory)
  return join(directory, 'dist/esm/fault/serve.js')
}

export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Resolves with the exit description once the process has exited, for whatever reason. */
  readonly exited: Promise<string>
  hasExited(): boolean
  stderr(): string
}

/** Starts a server in a child process (fault/serve.ts) and resolves once it listens. */
export async function startServer(config: ServeConfig): Promise<ServerProcess> {
  const child = spawn(process.execPath, [serveScript(), JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let exitedFlag = false
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000)
  })
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedFlag = true
      resolve(signal === null ? `exit code ${code}` : `signal ${signal}`)
    }),
  )
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
      const line = stdout.split('\n', 1)[0]
      if (stdout.includes('\n') && line) resolve((JSON.parse(line) as { url: string }).url)
    })
    exited.then((how) => reject(new Error(`server process ended before listening (${how}): ${stderr}`)))
  })
  return { url, child, exited, hasExited: () => exitedFlag, stderr: () => stderr }
}

/** Asks the server to close and waits, killing it if closing takes longer than `graceMs`. */
export async function stopServer(server: ServerProcess, graceMs = 5000): Promise<void> {
  if (server.hasExited()) return
  server.child.kill('SIGTERM')
  const timer = setTimeout(() => server.child.kill('SIGKILL'), graceMs)
  await server.exited
  clearTimeout(timer)
}

/**
 * One fault cell: a server process on a store reached through a fault proxy, steady session load,
 * the faults one after another (each held, restored, and waited out until the first success), then
 * every acknowledged session read back. Failures are counts, not exceptions.
 */
export async function runFaultCell(options: FaultCellOptions): Promise<FaultCellReport> {
  const {
    backend,
    framework,
    pattern,
    faults = FAULT_KINDS,
    holdMs = 500,
    clients = 6,
    requestTimeoutMs = 4000,
    recoveryLimitMs = 10_000,
  } = options
  if (backend.service === undefined)
    throw new Error(`${backend.name} has no network service to inject faults into`)
  const proxy = await FaultProxy.start(backend.service.port)
  const server = await startServer({
    store: backend.name,
    framework,
    saveBeforeReply: pattern === 'save-before-reply',
    port: proxy.port,
    scope: `fault_${randomBytes(4).toString('hex')}`,
    hasherModule: options.hasherModule,
    secret: SECRET,
  }).catch(async (error: unknown) => {
    await proxy.close()
    throw error
  })
  const agent = new Agent({ keepAlive: true, maxSockets: clients })
  const load = new SessionLoad(server.url, agent, {
    clients,
    updatesPerSession: 3,
    timeoutMs: requestTimeoutMs,
  })
  const recoveryMs: Partial<Record<FaultKind, number | null>> = {}
  const began: { fault: FaultKind; at: number }[] = []
  try {
    load.start()
    await sleep(300)
    for (const fault of faults) {
      if (server.hasExited()) break
      began.push({ fault, at: Date.now() })
      const restoredAt = await inject(fault, proxy, backend, holdMs, load)
      recoveryMs[fault] = await waitForRecovery(load, restoredAt, recoveryLimitMs, server)
      await sleep(200)
    }
    await load.stop()
    const counts = await load.verify()
    const crashed = server.hasExited()
    return {
      store: backend.name,
      framework,
      pattern,
      ...counts,
      crashes: crashed ? 1 : 0,
      ...(crashed ? { crash: `${await server.exited}: ${crashLine(server.stderr())}` } : {}),
      recoveryMs,
      lostAfter: attributeLosses(load.lostAt, counts.lost, began),
      lossSamples: load.lossSamples,
    }
  } finally {
    await load.stop()
    agent.destroy()
    await stopServer(server)
    await proxy.close()
  }
}

/** Each loss found under load goes to the latest fault begun before it; the rest were found at the read-back. */
function attributeLosses(
  lostAt: readonly number[],
  lost: number,
  began: readonly { fault: FaultKind; at: number }[],
): FaultCellReport['lostAfter'] {
  const counts: Partial<Record<FaultKind | 'start' | 'read-back', number>> = {}
  const add = (key: FaultKind | 'start' | 'read-back', n: number) => {
    if (n > 0) counts[key] = (counts[key] ?? 0) + n
  }
  for (const at of lostAt) add(began.findLast((b) => b.at <= at)?.fault ?? 'start', 1)
  add('read-back', lost - lostAt.length)
  return counts
}

/** Applies one fault and returns the moment it ended. */
async function inject(
  fault: FaultKind,
  proxy: FaultProxy,
  backend: StoreBackend,
  holdMs: number,
  load: SessionLoad,
): Promise<number> {
  switch (fault) {
    case 'kill': {
      if (backend.killConnections === undefined)
        throw new Error(`${backend.name} cannot kill its connections`)
      // A backend reaps connections that sit idle (an idle timeout, an operator's kill): pause the load so
      // the server's pooled connections are idle, with no request waiting to hear about the error.
      await load.pause()
      await sleep(50)
      await backend.killConnections(proxy.upstreamPorts())
      await sleep(50)
      load.resume()
      return Date.now()
    }
    case 'reset':
      proxy.reset()
      return Date.now()
    case 'stall':
      proxy.stall()
      break
    case 'refuse':
      proxy.refuse()
      break
    case 'drop':
      proxy.drop()
      break
    case 'blackhole':
      proxy.blackhole()
      break
  }
  await sleep(holdMs)
  await proxy.restore()
  return Date.now()
}

async function waitForRecovery(
  load: SessionLoad,
  since: number,
  limitMs: number,
  server: ServerProcess,
): Promise<number | null> {
  while (Date.now() - since < limitMs && !server.hasExited()) {
    const recovered = load.recoveredAfter(since)
    if (recovered !== undefined) return recovered
    await sleep(20)
  }
  return load.recoveredAfter(since) ?? null
}

/** The error line of a crash's stderr (Node prints the thrown error's name and message on it). */
export function crashLine(stderr: string): string {
  const lines = stderr.trim().split('\n')
  const errors = lines.filter((line) => /^\S*Error\b|^error:|^Emitted 'error' event/.test(line.trim()))
  return (errors.length > 0 ? errors.slice(0, 2) : lines.slice(-1)).map((line) => line.trim()).join(' / ')
}

export type FaultColumnOptions = Omit<FaultCellOptions, 'backend' | 'framework' | 'pattern'> & {
  readonly frameworks?: readonly Framework[]
}

/**
 * The fault column of one server-backed store: every framework × save pattern, all cells at once, each
 * with its own server process and proxy.
 */
export function runFaultColumn(
  backend: StoreBackend,
  options: FaultColumnOptions,
): Promise<FaultCellReport[]> {
  const { frameworks = ['express', 'fastify'], ...cellOptions } = options
  return Promise.all(
    frameworks.flatMap((framework) =>
      SAVE_PATTERNS.map((pattern) => runFaultCell({ ...cellOptions, backend, framework, pattern })),
    ),
  )
}
