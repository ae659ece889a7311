import { startRemoteScrypt } from '@authlab/stretch-helper'
import { type Timing, timePairs, timeRound } from '../measure/sample.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, summarizeRatio } from '../measure/verdict.js'
import type { Budget, Candidates, Suite, SuiteContext, SuiteResult, SuiteRow } from '../types.js'
import { CONTROL_SUFFIX, candidateRounds, controlOf, defined, message, ratioTo } from './common.js'
import { type Chain, type Job, localJobs, remoteJobs, warmUp } from './stretch-jobs.js'
import { openRemoteHelper, type RemoteHelper, type StartRemote } from './stretch-remote.js'

const method = ({ stretch: budget }: Budget) =>
  [
    "Rows [1]–[4] follow the numbering of Mozilla's 2013 table: [1] PBKDF2 alone, [2] the chain with a remote scrypt helper, [3] with local native scrypt, [4] with scrypt compiled to WASM or JS.",
    `${budget.rounds} rounds at least (more, up to the race budget, for a job whose ratio is undecided) after one discarded run each, every job once per round in a fresh random order; every call of a non-native job is paired with a call of its baseline right beside it (the order flipped every pair); ratio = baseline time ÷ candidate time, the median over a round's pairs, then the median over rounds.`,
    "[2] is timed in wall time (this process's CPU time holds only the two PBKDF2 steps and HKDF), each call paired with a call of [3] beside it, also in wall time; it also carries any difference between the two cores' load (other work on a shared machine is not spread evenly over them), so it is not a network figure.",
  ].join(' ')

/** One round of a job: its median call and, when it has a baseline, the paired ratio to it. */
type Round = Timing & { readonly vs?: number }

async function runStretch(
  candidates: Candidates,
  ctx: SuiteContext,
  start: StartRemote,
): Promise<SuiteResult> {
  const notes: string[] = []
  const chains: readonly Chain[] = candidates.stretch
  const jobs = localJobs(candidates, chains, notes)
  let remote: RemoteHelper | undefined
  if (chains.length === 0) notes.push('No stretch package with a createStretcher export was discovered.')
  else {
    try {
      remote = await openRemoteHelper(start, ctx.simulatedRttMs ?? 0)
    } catch (error) {
      notes.push(`Row [2] not measured: the scrypt helper did not start (${message(error)}).`)
    }
  }
  // From here on the helper process exists: it is stopped whatever happens, a failed suite included.
  try {
    if (remote) {
      notes.push(...remote.notes)
      jobs.push(...remoteJobs(chains, jobs, remote, notes))
    }
    // The A/A control: the first native job again, as a separate job.
    const base = jobs.find((j) => j.native)
    if (base) jobs.push({ ...controlOf(base), native: false })
    const budget = ctx.budget.stretch
    ctx.progress.plan(jobs.length * (budget.rounds + 1))
    const live = await warmUp(jobs, ctx, notes)
    const control = live.find((j) => j.id.endsWith(CONTROL_SUFFIX))
    const before = remote?.setup.scrypt.stats()
    const measured = await candidateRounds(ctx, notes, {
      candidates: live,
      budget,
      name: (job) => job,
      measure: async (job): Promise<Round> => {
        const clock = job.wall ? 'wall' : 'cpu'
        const partner = baselineOf(job, live, control, base)
        if (!partner || partner === job) return timeRound(job.run, budget.roundMs, clock)
        const paired = await timePairs(job.run, partner.run, budget.roundMs, clock)
        return { ...paired.candidate, vs: paired.vsBaseline }
      },
      // Pairing is inside a round (each call beside its baseline's), so a job races alone.
      comparisons: (job, results) => {
        const partner = baselineOf(job, live, control, base)
        return partner && partner !== job ? [{ ratio: summarizeRatio('', vsOf(results.get(job) ?? [])) }] : []
      },
    })
    const timings = (job: Job | undefined) => (job ? (measured.get(job) ?? []) : [])
    const rows = live
      .filter((job) => !job.wall)
      .map((job) => cpuRow(job, baselineOf(job, live, control, base), control, timings))
    const retried = remote ? remote.setup.scrypt.stats().retries - (before?.retries ?? 0) : 0
    for (const job of live.filter((j) => j.wall)) rows.push(...wallRows(job, timings, retried))
    if (remote) {
      const s = remote.setup.scrypt.stats()
      notes.push(
        `Remote client: ${s.calls} calls, ${s.retries} retries, ${s.overloaded} answers 503, ${s.connectionErrors} connection errors.`,
      )
    }
    return { rows, notes }
  } finally {
    await remote?.close()
  }
}

const cpuOf = (timings: readonly (Timing | undefined)[]) => timings.map((t) => t?.cpuMs)
const wallOf = (timings: readonly (Timing | undefined)[]) => timings.map((t) => t?.wallMs)
/** Per-round paired ratios; a baseline is its own (1) in every round it was measured. */
const vsOf = (timings: readonly (Round | undefined)[]) => timings.flatMap((t) => (t ? [t.vs ?? 1] : []))

type Timings = (job: Job | undefined) => readonly (Round | undefined)[]

/**
 * What a job is compared with: the control with the job it repeats, row [2] with the local chain whose
 * keys it reproduces, any other with the native job of its group (a native job is its own).
 */
function baselineOf(job: Job, live: readonly Job[], control: Job | undefined, base: Job | undefined) {
  if (job === control) return base
  if (job.wall) return job.sameKeysAs
  return live.find((j) => j.group === job.group && j.native)
}

/** Ops per second of `of`, in the group of `job`: 1000 ÷ the median ms per call, and each round's rate. */
function opsRow(
  job: Job,
  of: Job,
  unit: string,
  ms: readonly (number | undefined)[],
  rest: Pick<SuiteRow, 'ratios' | 'details' | 'flags'>,
): SuiteRow {
  const clean = defined(ms)
  return {
    group: job.group,
    key: { setting: job.setting, operation: 'derive' },
    candidate: of.id,
    label: of.label,
    value: 1000 / median(clean),
    unit,
    higherIsBetter: true,
    rounds: clean.map((v) => 1000 / v),
    ...rest,
  }
}

/** Rows [1], [3], [4] and the A/A control: ops per CPU-second of this process, ratio to the native job. */
function cpuRow(job: Job, nativeJob: Job | undefined, control: Job | undefined, timings: Timings): SuiteRow {
  const cpu = cpuOf(timings(job))
  return opsRow(job, job, 'ops/CPU-s', cpu, {
    ratios: nativeJob ? [ratioTo(nativeJob, vsOf(timings(job)))] : [],
    details: {
      'CPU ms (median)': median(defined(cpu)),
      'wall ms (median)': median(defined(wallOf(timings(job)))),
    },
    flags: job.native ? ['baseline'] : job === control ? [CONTROL_FLAG] : [],
  })
}

/**
 * Row [2] and, as its baseline, [3]'s wall time from the same rounds: stretches per wall-second, what
 * the user waits for. The client's own CPU time is kept beside it: what a weak client is relieved of.
 */
function wallRows(job: Job, timings: Timings, retried: number): SuiteRow[] {
  const row = (of: Job, ratios: SuiteRow['ratios'], flags: string[]): SuiteRow => {
    const wall = wallOf(timings(of))
    const details = {
      'wall ms (median)': median(defined(wall)),
      'client CPU ms (median)': median(defined(cpuOf(timings(of)))),
    }
    return opsRow(job, of, 'ops/s (wall)', wall, { ratios, details, flags })
  }
  const local = job.sameKeysAs
  const retries =
    retried > 0 ? [`noisy: ${retried} retried helper calls (their backoff is in the wall time)`] : []
  if (!local) return [row(job, [], retries)]
  return [
    row(local, [], ['baseline', 'same rounds as its CPU-time row']),
    row(job, [ratioTo(local, vsOf(timings(job)))], retries),
  ]
}

export interface StretchSuiteOptions {
  /** Starts row [2]'s helper process and client (default: the real helper); tests wrap it to watch it. */
  readonly startRemote?: StartRemote
}

export function createStretchSuite(options: StretchSuiteOptions = {}): Suite {
  const start = options.startRemote ?? startRemoteScrypt
  return {
    name: 'stretch',
    placement: 'one-core',
    description:
      "Mozilla's 2013 onepw key-stretching table on this machine: [1] 20,000 PBKDF2-SHA256 iterations; [2] the whole chain with scrypt on a remote helper process (on the client's core, idle while it waits; loopback or a simulated RTT); [3] the chain with local native scrypt; [4] the chain with WASM and pure-JS scrypt. Interleaved rounds; [1], [3], [4] in CPU time as per-round ratios to the native implementation, [2] in wall time as a per-round ratio to [3].",
    method,
    run: (candidates, ctx) => runStretch(candidates, ctx, start),
  }
}

export const stretchSuite: Suite = createStretchSuite()
