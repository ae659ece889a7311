import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { resolveRuntime } from '@authlab/runtimes'

/**
 * The apps of @authlab/frameworks as a server process in Node, Bun or Deno: its `runtime-main` entry,
 * which prints `AUTHLAB_READY <json>` once it answers (that package's READY_MARK; a test checks the two
 * agree) and exits when its standard input closes.
 */
const MAIN = join(
  dirname(createRequire(import.meta.url).resolve('@authlab/frameworks/package.json')),
  'dist/esm/runtime-main.js',
)
export const READY_MARK = 'AUTHLAB_READY'

/** The runtimes a framework server runs on here: the workspace's Node, and Bun and Deno from tools/runtimes. */
export type ServerRuntime = 'node' | 'bun' | 'deno'

/** A server that does not answer within this long after its start is killed and the start fails. */
const START_TIMEOUT_MS = 60_000

/** After its standard input closes, a server gets this long to exit before it is killed. */
const STOP_TIMEOUT_MS = 5_000

export interface RuntimeServer {
  readonly url: string
  /** The server's process id (taskset execs the runtime: the same process), to read its CPU time. */
  readonly pid: number
  /** The runtime by its own report, with its version: `bun 1.4.5`. */
  readonly runtime: string
  /** With `betterAuth.timeVerify` in the input: the mean ms of one verify, timed in the server before it served. */
  readonly verifyMs?: number
  stop(): Promise<void>
}

/** The runtime's command and arguments, or why it cannot start here (never a silent drop). */
export function runtimeCommand(
  id: ServerRuntime,
): { readonly command: string; readonly args: readonly string[] } | { readonly reason: string } {
  const resolved = resolveRuntime(id)
  if (!resolved.ok) return { reason: resolved.reason }
  if (resolved.runtime.kind !== 'process') return { reason: `${id} is not a process runtime` }
  return { command: resolved.runtime.command, args: resolved.runtime.args }
}

/**
 * Starts runtime-main with `input` in `runtime` (pinned to `cpu` with taskset when given) and waits for
 * its ready line. A server that exits or stays silent for START_TIMEOUT_MS rejects, with the last lines
 * of its error (stack frames left out), and is killed. better-auth turns its rate limit on only when
 * NODE_ENV is `production` (3 sign-ins per 10 s per address: its getDefaultSpecialRules): the child runs
 * without NODE_ENV, so a load generator on one address measures the sign-ins, not the limiter.
 */
export function startRuntimeServer(
  runtime: { readonly command: string; readonly args: readonly string[] },
  input: object,
  cpu: number | undefined,
): Promise<RuntimeServer> {
  const argv = [...runtime.args, MAIN, JSON.stringify(input)]
  const [command, args] =
    cpu === undefined ? [runtime.command, argv] : ['taskset', ['-c', String(cpu), runtime.command, ...argv]]
  const { NODE_ENV: _, ...env } = process.env
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000)
  })
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const stop = async () => {
    child.stdin.end()
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((done) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL')
        done()
      }, STOP_TIMEOUT_MS)
    })
    await Promise.race([exited, late])
    clearTimeout(timer)
  }
  return new Promise<RuntimeServer>((resolve, reject) => {
    let buffered = ''
    const fail = (why: string) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      // The error's own lines, without its stack frames: what a note needs to say why.
      const said = stderr
        .split('\n')
        .filter((line) => line.trim() !== '' && !/^\s+at /.test(line))
        .slice(-3)
      reject(new Error(`${why}${said.length > 0 ? `: ${said.join(' | ')}` : ''}`))
    }
    const timer = setTimeout(
      () => fail(`no answer within ${START_TIMEOUT_MS / 1000} s (killed)`),
      START_TIMEOUT_MS,
    )
    const onError = (error: Error) => fail(`${runtime.command} did not start (${error.message})`)
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited with ${code ?? signal} before serving`)
    child.on('error', onError)
    child.once('exit', onExit)
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const line = buffered.split('\n').find((l) => l.startsWith(READY_MARK))
      if (line === undefined) return
      clearTimeout(timer)
      child.off('exit', onExit)
      child.stdout.removeAllListeners('data')
      child.stdout.resume()
      const ready = JSON.parse(line.slice(READY_MARK.length)) as Omit<RuntimeServer, 'pid' | 'stop'>
      resolve({ ...ready, pid: child.pid as number, stop })
    })
  })
}

/** Starts a server, runs `body` on it and stops it whatever happens. */
export async function withRuntimeServer<R>(
  runtime: { readonly command: string; readonly args: readonly string[] },
  input: object,
  cpu: number | undefined,
  body: (server: RuntimeServer) => Promise<R>,
): Promise<R> {
  const server = await startRuntimeServer(runtime, input, cpu)
  try {
    return await body(server)
  } finally {
    await server.stop()
  }
}
