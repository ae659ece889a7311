import { defined, ratioTo } from '../../harness/rows.js'
import type { Timing } from '../../harness/sample.js'
import type { SuiteRow } from '../../harness/suite.js'
import type { Flag } from '../../model/types.js'
import { median } from '../../stats/stats.js'
import type { Job } from './jobs.js'

/** One round of a job: its median call and, when it has a baseline, the paired ratio to it. */
export type Round = Timing & { readonly vs?: number }
export type Timings = (job: Job | undefined) => readonly (Round | undefined)[]

const cpuOf = (timings: readonly (Timing | undefined)[]) => timings.map((t) => t?.cpuMs)
const wallOf = (timings: readonly (Timing | undefined)[]) => timings.map((t) => t?.wallMs)
/** Per-round paired ratios; a baseline is its own (1) in every round it was measured. */
export const vsOf = (timings: readonly (Round | undefined)[]) =>
  timings.flatMap((t) => (t ? [t.vs ?? 1] : []))

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
export function cpuRow(
  job: Job,
  nativeJob: Job | undefined,
  control: Job | undefined,
  timings: Timings,
): SuiteRow {
  const cpu = cpuOf(timings(job))
  const flags: Flag[] = job.native ? [{ kind: 'baseline' }] : job === control ? [{ kind: 'control' }] : []
  return opsRow(job, job, 'ops/CPU-s', cpu, {
    ratios: nativeJob ? [ratioTo(nativeJob, vsOf(timings(job)), job.margin)] : [],
    details: {
      'CPU ms (median)': median(defined(cpu)),
      'wall ms (median)': median(defined(wallOf(timings(job)))),
    },
    flags,
  })
}

/**
 * Row [2] and, as its baseline, [3]'s wall time from the same rounds: stretches per wall-second, what
 * the user waits for. The client's own CPU time is kept beside it: what a weak client is relieved of.
 */
export function wallRows(job: Job, timings: Timings, retried: number): SuiteRow[] {
  const row = (of: Job, ratios: SuiteRow['ratios'], flags: Flag[]): SuiteRow => {
    const wall = wallOf(timings(of))
    const details = {
      'wall ms (median)': median(defined(wall)),
      'client CPU ms (median)': median(defined(cpuOf(timings(of)))),
    }
    return opsRow(job, of, 'ops/s (wall)', wall, { ratios, details, flags })
  }
  const local = job.sameKeysAs
  const retries: Flag[] = retried > 0 ? [{ kind: 'noisy', retries: retried }] : []
  if (!local) return [row(job, [], retries)]
  return [
    row(local, [], [{ kind: 'baseline' }, { kind: 'shared-rounds' }]),
    row(job, [ratioTo(local, vsOf(timings(job)))], retries),
  ]
}
