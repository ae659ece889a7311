import { type ServerProcess, startServerProcesses } from './process.js'
import type { ServerSpec } from './spec.js'

/** Starts one server per spec, runs `body` over them, and stops every server whatever happens. */
export async function withServers<R>(
  specs: readonly ServerSpec[],
  cpu: number | undefined,
  body: (servers: readonly ServerProcess[]) => Promise<R>,
): Promise<R> {
  const servers = await startServerProcesses(specs, cpu)
  try {
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
