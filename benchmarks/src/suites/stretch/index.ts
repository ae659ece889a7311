import { candidateRounds } from '../../harness/rounds.js'
import { CONTROL_SUFFIX, controlOf, message } from '../../harness/rows.js'
import { timePairs, timeRound } from '../../harness/sample.js'
import {
  defineSuite,
  type SuiteContext,
  type SuiteDeclaration,
  type SuiteResult,
} from '../../harness/suite.js'
import type { Candidates } from '../../model/candidates.js'
import { summarizeRatio } from '../../stats/verdict.js'
import { type Chain, type Job, localJobs, remoteJobs, type StretchBudget, warmUp } from './jobs.js'
import { method } from './method.js'
import { openRemoteHelper, type RemoteHelper, type StartRemote } from './remote.js'
import { cpuRow, type Round, vsOf, wallRows } from './rows.js'
import { portable } from './runtimes.js'

/**
 * What a job is compared with: the control with the job it repeats, row [2] with the local chain whose
 * keys it reproduces, any other with the native job of its group (a native job is its own).
 */
function baselineOf(job: Job, live: readonly Job[], control: Job | undefined, base: Job | undefined) {
  if (job === control) return base
  if (job.wall) return job.sameKeysAs
  return live.find((j) => j.group === job.group && j.native)
}

/** Row [2]'s helper, or the note saying why it did not start. */
async function helperFor(chains: readonly Chain[], start: StartRemote, rttMs: number, notes: string[]) {
  if (chains.length === 0) {
    notes.push('No stretch package with a createStretcher export was discovered.')
    return undefined
  }
  try {
    return await openRemoteHelper(start, rttMs)
  } catch (error) {
    notes.push(`Row [2] not measured: the scrypt helper did not start (${message(error)}).`)
    return undefined
  }
}

/** Every live job's rounds, each call paired with its baseline's beside it on the job's clock. */
async function measureJobs(ctx: SuiteContext<StretchBudget>, live: readonly Job[], base: Job | undefined) {
  const control = live.find((j) => j.id.endsWith(CONTROL_SUFFIX))
  const partnerOf = (job: Job) => baselineOf(job, live, control, base)
  const measured = await candidateRounds(ctx, {
    candidates: live,
    budget: ctx.budget,
    name: (job) => job,
    measure: async (job): Promise<Round> => {
      const clock = job.wall ? 'wall' : 'cpu'
      const partner = partnerOf(job)
      if (!partner || partner === job) return timeRound(job.run, ctx.budget.roundMs, clock)
      const paired = await timePairs(job.run, partner.run, ctx.budget.roundMs, clock)
      return { ...paired.candidate, vs: paired.vsBaseline }
    },
    // Pairing is inside a round (each call beside its baseline's), so a job races alone.
    comparisons: (job, results) => {
      const partner = partnerOf(job)
      return partner && partner !== job
        ? [{ ratio: summarizeRatio({ against: '', label: '' }, vsOf(results.get(job) ?? [])) }]
        : []
    },
  })
  return { measured, control, partnerOf }
}

async function runStretch(
  candidates: Candidates,
  ctx: SuiteContext<StretchBudget>,
  start: StartRemote,
): Promise<SuiteResult> {
  const notes: string[] = []
  const chains: readonly Chain[] = candidates.stretch
  const jobs = localJobs(candidates, chains, notes)
  const remote: RemoteHelper | undefined = await helperFor(chains, start, ctx.simulatedRttMs ?? 0, notes)
  // From here on the helper process exists: it is stopped whatever happens, a failed suite included.
  try {
    if (remote) notes.push(...remote.notes)
    if (remote) jobs.push(...remoteJobs(chains, jobs, remote, notes))
    // The A/A control: the first native job again, as a separate job.
    const base = jobs.find((j) => j.native)
    if (base) jobs.push({ ...controlOf(base), native: false })
    ctx.progress.plan(jobs.length * (ctx.budget.rounds + 1))
    const live = await warmUp(jobs, ctx, notes)
    const before = remote?.setup.scrypt.stats()
    const { measured, control, partnerOf } = await measureJobs(ctx, live, base)
    const timings = (job: Job | undefined) => (job ? (measured.get(job) ?? []) : [])
    const rows = live.filter((job) => !job.wall).map((job) => cpuRow(job, partnerOf(job), control, timings))
    const stats = remote?.setup.scrypt.stats()
    const retried = stats ? stats.retries - (before?.retries ?? 0) : 0
    for (const job of live.filter((j) => j.wall)) rows.push(...wallRows(job, timings, retried))
    if (stats)
      notes.push(
        `Remote client: ${stats.calls} calls, ${stats.retries} retries, ${stats.overloaded} answers 503, ${stats.connectionErrors} connection errors.`,
      )
    return { rows, notes }
  } finally {
    await remote?.close()
  }
}

/** The stretch suite with row [2]'s helper started by `startRemote` (tests wrap it to watch it). */
export function createStretchSuite(
  options: { readonly startRemote?: StartRemote } = {},
): SuiteDeclaration<StretchBudget> {
  // The helper (a server and its client) loads when row [2] runs, not when the bench lists its suites.
  const start: StartRemote =
    options.startRemote ?? (async (o) => (await import('@authlab/stretch-helper')).startRemoteScrypt(o))
  return defineSuite<StretchBudget>({
    name: 'stretch',
    order: 50,
    description:
      "Mozilla's 2013 onepw key-stretching table on this machine: [1] 20,000 PBKDF2-SHA256 iterations; [2] the whole chain with scrypt on a remote helper process (on the client's core, idle while it waits; loopback or a simulated RTT); [3] the chain with local native scrypt; [4] the chain with WASM and pure-JS scrypt. Interleaved rounds; [1], [3], [4] in CPU time as per-round ratios to the native implementation, [2] in wall time as a per-round ratio to [3].",
    baseline: "[1], [3], [4]: native; [2]: [3]'s wall time",
    // Short calls are batched by 20 ms and paired with their baseline's; a round must hold enough pairs
    // that one scheduling hiccup does not move its ratio. The chains' calls take longer than a round, so
    // this lengthens only the short rows' rounds.
    budget: {
      quick: { rounds: 5, roundMs: 150, race: { maxRounds: 16, budgetMs: 8_000 } },
      full: { rounds: 10, roundMs: 250, race: { maxRounds: 40, budgetMs: 60_000 } },
    },
    placement: 'one-core',
    portable,
    method,
    run: (candidates, ctx) => runStretch(candidates, ctx, start),
  })
}

export const suite = createStretchSuite()
