import { fileURLToPath } from 'node:url'
import { type MeanCallPlan, spawnJsonChild } from '@authlab/benchmarks/harness'
import type { Framework } from '@authlab/servers'

// Always the built entry (this workspace's dist), also when this module runs from src/ under the test runner.
const ENTRY = fileURLToPath(new URL('../../dist/http/server-process.js', import.meta.url))

export interface ServerProcess {
  readonly url: string
  /** The server's process id, to read its CPU time (./process-cpu.ts). */
  readonly pid: number
  stop(): Promise<void>
}

/** Starts a server process (on `cpu` when given and taskset exists) and waits for its URL. */
async function startServerProcess(spec: ServerSpec, cpu: number | undefined): Promise<ServerProcess> {
  const { child, firstLine } = spawnJsonChild(ENTRY, [JSON.stringify(spec)], cpu)
  const { url } = (await firstLine) as { url: string }
  return {
    url,
    // With taskset the child is taskset itself, which execs node: the same process id.
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((done) => {
        child.removeAllListeners('exit')
        child.once('exit', () => done())
        child.stdin?.end()
      }),
  }
}

/**
 * Mean ms of one verify by the spec's hasher, timed in a fresh process on `cpu`: the same core and the same
 * kind of process as the server that will run it.
 */
export async function timeVerifyInProcess(
  spec: ServerSpec,
  cpu: number | undefined,
  plan: MeanCallPlan,
): Promise<number> {
  const { firstLine } = spawnJsonChild(
    ENTRY,
    [JSON.stringify(spec), '--time-verify', JSON.stringify(plan)],
    cpu,
  )
  return ((await firstLine) as { singleMs: number }).singleMs
}

/** What one server process runs: candidates named by id, rebuilt by the process's own discovery. */
export interface ServerSpec {
  readonly framework: Framework
  /** An ids candidate id: a package name or a bench reference such as `ref:counter`. */
  readonly generator: string
  /**
   * Several ids candidates in one server, chosen per request by the x-authlab-generator header (their
   * index here); `generator` is then unused. One entry may appear twice: an A/A control.
   */
  readonly generators?: readonly string[]
  /** A hash candidate id and the cost setting (a costSettings() label) it runs at; default: its defaults. */
  readonly hasher: string
  readonly setting?: string
}

/**
 * The hasher id of a login server with no password hash at all (INSECURE, bench-only, never a
 * candidate): its logins cost only the server's own work, HTTP, JSON, session regenerate and store.
 */
export const NO_HASH = 'bench:no-hash'

/** The request header naming which of a server's `generators` makes the session ID (its index). */
export const GENERATOR_HEADER = 'x-authlab-generator'

/** The account every login server holds, with BENCH_PASSWORD. */
export const BENCH_USER = 'bench'

/**
 * Starts one server per spec at once, runs `body` over them, and stops every server whatever happens
 * (if one fails to start, the others are stopped before the error is rethrown).
 */
export async function withServers<R>(
  specs: readonly ServerSpec[],
  cpu: number | undefined,
  body: (servers: readonly ServerProcess[]) => Promise<R>,
): Promise<R> {
  const settled = await Promise.allSettled(specs.map((spec) => startServerProcess(spec, cpu)))
  const servers = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  try {
    const failed = settled.find((result) => result.status === 'rejected')
    if (failed) throw (failed as PromiseRejectedResult).reason
    return await body(servers)
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
}

/** Where the servers run: CPU 0 with taskset, the load generator on CPU 1; undefined = unpinned. */
export interface Placement {
  readonly serverCpu: number | undefined
  readonly serverCores: number
}
