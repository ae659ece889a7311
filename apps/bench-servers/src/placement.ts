import { pinProcess, type SuiteContext, type SuiteResult } from '@authlab/benchmarks/harness'
import type { Placement } from './http/servers.js'

/**
 * Runs `body` with the servers' placement: each server process on the first allowed CPU and this
 * process, the load generator, on the last, with taskset and two cores or more (else shared, and said so).
 */
export async function withHttpPlacement(
  ctx: Pick<SuiteContext, 'cores'>,
  body: (placement: Placement, notes: string[]) => Promise<SuiteResult>,
): Promise<SuiteResult> {
  const pinned = pinProcess()
  const placement: Placement = pinned
    ? { serverCpu: pinned.first, serverCores: 1 }
    : { serverCpu: undefined, serverCores: ctx.cores }
  const notes = [
    pinned
      ? `Servers pinned to CPU ${pinned.first}, the load generator (this process) to CPU ${pinned.last} (taskset).`
      : 'taskset unavailable (or one core allowed): servers and the load generator share the cores; figures are lower and noisier.',
  ]
  try {
    return await body(placement, notes)
  } finally {
    pinned?.release()
  }
}

/** What a server needs besides its generator: ids servers never verify, so any hasher does. */
export const anyHasher = (hashers: readonly { readonly id: string }[]) => hashers[0]?.id ?? ''
