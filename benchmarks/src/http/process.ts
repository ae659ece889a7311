import { execFileSync, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { ServerSpec } from './spec.js'

const ENTRY = fileURLToPath(new URL('./server-process.js', import.meta.url))

/** True when util-linux `taskset` is on PATH; without it the processes share the cores (and the notes say so). */
export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Pins a process (default: this one) to one CPU; returns false when taskset is unavailable. */
export function pin(cpu: number, pid = process.pid): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Undoes `pin`: lets the process run on every CPU again. */
export function unpin(cores: number, pid = process.pid): void {
  try {
    execFileSync('taskset', ['-a', '-cp', `0-${cores - 1}`, String(pid)], { stdio: 'ignore' })
  } catch {
    // Nothing was pinned.
  }
}

export interface ServerProcess {
  readonly url: string
  /** The server's process id (taskset execs node, so it is the node process itself). */
  readonly pid: number
  stop(): Promise<void>
}

/** Starts a server process (on `cpu` when given and taskset exists) and waits for its URL. */
export function startServerProcess(spec: ServerSpec, cpu: number | undefined): Promise<ServerProcess> {
  const args = [ENTRY, JSON.stringify(spec)]
  const [command, commandArgs] =
    cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', String(cpu), process.execPath, ...args]]
  const child = spawn(command, commandArgs, { stdio: ['pipe', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    child.once('exit', (code) =>
      reject(new Error(`server process for ${JSON.stringify(spec)} exited with ${code}`)),
    )
    lines.once('line', (line) => {
      const { url } = JSON.parse(line) as { url: string }
      resolve({
        url,
        pid: child.pid as number,
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit')
            child.once('exit', () => done())
            child.stdin?.end()
          }),
      })
    })
  })
}

/** Starts every server at once; if one fails, stops the others before rethrowing, so none is left behind. */
export async function startServerProcesses(
  specs: readonly ServerSpec[],
  cpu: number | undefined,
): Promise<ServerProcess[]> {
  const settled = await Promise.allSettled(specs.map((spec) => startServerProcess(spec, cpu)))
  const failed = settled.find((result) => result.status === 'rejected')
  const started = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  if (failed) {
    await Promise.all(started.map((server) => server.stop()))
    throw (failed as PromiseRejectedResult).reason
  }
  return started
}
