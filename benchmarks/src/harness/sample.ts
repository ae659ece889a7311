import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { median } from '../stats/stats.js'

let sink: unknown

/**
 * Stores a result where the JIT cannot prove it unused, so the work that produced it is not dropped
 * (the idea of mitata's `do_not_optimize`).
 */
export function consume(value: unknown): void {
  sink = value
}

/** The last consumed value; tests read it to check the work really reached the sink. */
export function lastConsumed(): unknown {
  return sink
}

/** CPU milliseconds of this process (user + system, every thread): other processes' work is not in it. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export interface Timing {
  /** CPU time this process spent, its threadpool and worker threads included. */
  readonly cpuMs: number
  readonly wallMs: number
}

// A full collection on demand without starting node with --expose-gc: the flag is set, and a fresh
// context picks up the `gc` function it exposes.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/**
 * How long a settled heap waits after the full collection before the clock starts: `gc()` returns with
 * V8's concurrent sweeping and large buffers' freeing still on helper threads, whose CPU time the next
 * timed call would be charged with. One event-loop turn is too short for that; much longer waits let the
 * machine drift between the two sides of a pair.
 */
const SETTLE_MS = 5

/** Memory in use that a full collection could free: the JS heap and the buffers outside it. */
function collectable(): number {
  const { heapUsed, external } = process.memoryUsage()
  return heapUsed + external
}

/**
 * Growth since the last collection below which the next call is not preceded by one: a native hasher
 * leaves a few KB, a pure-JS scrypt tens of MB, and a full collection takes tens of milliseconds.
 */
const COLLECT_ABOVE_BYTES = 4 * 1024 * 1024
let afterLastCollection = 0

/**
 * Collects the garbage the previous candidate left, when it left any to speak of, and lets the
 * collector's helper threads and pending callbacks finish, so that work is not timed as the next call's.
 */
export async function settle(): Promise<void> {
  if (collectable() - afterLastCollection > COLLECT_ABOVE_BYTES) {
    collect()
    afterLastCollection = collectable()
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
}

/**
 * One round's figure for an operation: after `settle()`, the operation is repeated until `minMs` of CPU
 * time is spent (at least once), and the median call kept, so one call that paid for a page-fault storm
 * or a collection is not the round's figure. `budget: 'wall'` counts wall time, for work done mostly by
 * another process (a remote helper), where this process's CPU time would take dozens of calls to add up.
 */
export async function timeRound(
  fn: () => Promise<unknown>,
  minMs: number,
  budget: 'cpu' | 'wall' = 'cpu',
): Promise<Timing> {
  await settle()
  const clock = budget === 'cpu' ? cpuMs : () => performance.now()
  const cpu: number[] = []
  const wall: number[] = []
  const start = clock()
  do {
    const [c0, w0] = [cpuMs(), performance.now()]
    consume(await fn())
    cpu.push(cpuMs() - c0)
    wall.push(performance.now() - w0)
  } while (clock() - start < minMs)
  return { cpuMs: median(cpu), wallMs: median(wall) }
}

/** How `meanCallMs` samples: calls discarded first, then calls until both minimums are met. */
export interface MeanCallPlan {
  readonly warmups: number
  readonly minMs: number
  readonly minCalls: number
}

/**
 * The mean wall time of one call, calls back to back after `warmups` discarded ones. The mean, not the
 * median: a capacity (calls per second a core can serve) is the reciprocal of the mean, and an
 * operation whose calls alternate between two durations has a median at either of them.
 */
export async function meanCallMs(
  fn: () => Promise<unknown>,
  plan: MeanCallPlan,
  now: () => number = () => performance.now(),
): Promise<number> {
  for (let i = 0; i < plan.warmups; i++) consume(await fn())
  await settle()
  let calls = 0
  const start = now()
  do {
    consume(await fn())
    calls++
  } while (calls < plan.minCalls || now() - start < plan.minMs)
  return (now() - start) / calls
}

/** One round of a candidate timed in adjacent pairs with its baseline. */
export interface PairedTiming {
  readonly candidate: Timing
  /** Baseline time ÷ candidate time on the pairing's clock, the median over pairs (> 1: the candidate is cheaper). */
  readonly vsBaseline: number
}

/**
 * The shortest timed batch: a call of a few milliseconds is at the scale of a thread's wake-up or a
 * collector task beside it, so its paired ratio moves by several per cent even on a settled heap.
 */
const MIN_BATCH_MS = 20

/** Per-call CPU and wall milliseconds of `calls` back-to-back calls, on a settled heap. */
async function timeBatch(fn: () => Promise<unknown>, calls: number): Promise<{ cpu: number; wall: number }> {
  await settle()
  const [c0, w0] = [cpuMs(), performance.now()]
  for (let i = 0; i < calls; i++) consume(await fn())
  return { cpu: (cpuMs() - c0) / calls, wall: (performance.now() - w0) / calls }
}

/** Calls per batch for an operation of `callMs`: enough for MIN_BATCH_MS, at least one. */
const batchSize = (callMs: number) => Math.max(1, Math.ceil(MIN_BATCH_MS / Math.max(callMs, 0.01)))

/**
 * Like `timeRound`, but every batch of the candidate is paired with a batch of its baseline right beside
 * it (the order flipped each pair), until the candidate has spent `minMs` on the pairing's clock. A
 * virtual CPU's speed moves by 2–3× within seconds (another tenant on the host), which CPU time cannot
 * see; batches milliseconds apart see nearly the same speed, so a pair's ratio keeps what the candidate
 * costs and drops what the machine did. Each batch starts on a settled heap, so one side's garbage is not
 * collected on the other's time. Calls shorter than MIN_BATCH_MS are batched, sized from the first
 * pair's single calls. `clock: 'wall'` pairs and budgets by wall time, for work done mostly elsewhere.
 */
export async function timePairs(
  candidate: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  minMs: number,
  clock: 'cpu' | 'wall' = 'cpu',
): Promise<PairedTiming> {
  let [ownCalls, baseCalls] = [1, 1]
  const cpu: number[] = []
  const wall: number[] = []
  const ratios: number[] = []
  let spent = 0
  do {
    const baselineFirst = ratios.length % 2 === 0
    const before = baselineFirst ? await timeBatch(baseline, baseCalls) : undefined
    const own = await timeBatch(candidate, ownCalls)
    const base = before ?? (await timeBatch(baseline, baseCalls))
    cpu.push(own.cpu)
    wall.push(own.wall)
    ratios.push(base[clock] / own[clock])
    spent += own[clock] * ownCalls
    if (ratios.length === 1) [ownCalls, baseCalls] = [batchSize(own[clock]), batchSize(base[clock])]
  } while (spent < minMs)
  return { candidate: { cpuMs: median(cpu), wallMs: median(wall) }, vsBaseline: median(ratios) }
}
