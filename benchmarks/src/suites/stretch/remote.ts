import type { RemoteScryptSetup } from '@authlab/stretch-helper'
import { placement } from '../../harness/placement.js'
import { median } from '../../stats/stats.js'

/** Starts a helper process (on `cpu` when given) and a client connected to it. */
export type StartRemote = (options: { cpu?: number; rttMs: number }) => Promise<RemoteScryptSetup>

/** Loopback round trips timed to say what the network costs under row [2]. */
const PROBES = 20

/** How row [2] names its network in every output: the label carries it, so no reporter can drop it. */
export function networkLabel(rttMs: number): string {
  return rttMs > 0 ? `simulated RTT ${rttMs} ms` : 'loopback'
}

export interface RemoteHelper {
  readonly setup: RemoteScryptSetup
  readonly network: string
  /** Where each side ran and what the network costs, for the suite's notes. */
  readonly notes: readonly string[]
  close(): Promise<void>
}

/** Median ms of a GET /health round trip: what loopback adds to a call, without any scrypt work. */
export async function loopbackRoundTripMs(url: string): Promise<number> {
  const health = new URL('/health', url)
  const times: number[] = []
  for (let i = 0; i < PROBES; i++) {
    const started = performance.now()
    const response = await fetch(health)
    await response.arrayBuffer()
    times.push(performance.now() - started)
  }
  return median(times)
}

/**
 * Row [2]'s helper: its own process, pinned with taskset to the core this process (the client) measures
 * on. A chain is sequential, so the client waits idle while the helper derives; on the same core,
 * [2] ÷ [3] compares the same scrypt on the same CPU and keeps only what the remote call adds (on the
 * other core it would read the two virtual CPUs' relative speed). The notes say whether the pin happened.
 *
 * The simulated round trip is the helper's own `rttMs`: half the delay before queueing and half after
 * the work, outside its scrypt slots, as a network delays a request without occupying the server.
 */
export async function openRemoteHelper(start: StartRemote, rttMs: number): Promise<RemoteHelper> {
  // The client (this process) runs on the suite's measure core, the last allowed CPU.
  const helperCpu = placement()?.last
  const setup = await start({ ...(helperCpu !== undefined ? { cpu: helperCpu } : {}), rttMs })
  const close = () => setup.close()
  let probeMs: number
  try {
    probeMs = await loopbackRoundTripMs(setup.helper.url)
  } catch (error) {
    await close()
    throw error
  }
  const network = networkLabel(rttMs)
  const helperAt = setup.helper.pinned
    ? `pinned to CPU ${helperCpu} with taskset`
    : 'not pinned (taskset unavailable or one core)'
  const probe = `a GET /health round trip to the helper took ${probeMs.toFixed(2)} ms (median of ${PROBES})`
  const notes = [
    `Row [2]: the chain with its scrypt step done by @authlab/stretch-helper in its own process, ${helperAt}; this process is the client.`,
    rttMs > 0
      ? `Row [2] runs with a simulated RTT of ${rttMs} ms: the helper holds each answer ${rttMs / 2} ms before queueing and ${rttMs / 2} ms after the work, a fixed delay without a real network's jitter, loss or bandwidth limit. Beneath it, loopback (127.0.0.1) has almost no network cost: ${probe}.`
      : `Row [2] runs over loopback (127.0.0.1), which has almost no network cost: ${probe}. A real network adds its round trip to every stretch (--rtt simulates one).`,
  ]
  return { setup, network, notes, close }
}
