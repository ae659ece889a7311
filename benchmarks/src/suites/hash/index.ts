import { BENCH_PASSWORD, describeParams } from '../../discover/settings.js'
import { candidateRounds } from '../../harness/rounds.js'
import { controlOf, medianRow, ratioTo } from '../../harness/rows.js'
import { type Timing, timePairs, timeRound } from '../../harness/sample.js'
import { defineSuite, type SuiteContext, type SuiteRow } from '../../harness/suite.js'
import type { Candidates } from '../../model/candidates.js'
import type { Flag } from '../../model/types.js'
import { median } from '../../stats/stats.js'
import { summarizeRatio } from '../../stats/verdict.js'
import { type Entry, entryKey, type HashBudget, planEntries } from './entries.js'
import { method } from './method.js'
import { portable } from './runtimes.js'
import { view } from './view.js'
import { warmEntries } from './warm.js'

interface Round {
  readonly hash: Timing
  /** Absent where the budget times only the hash (a cost setting in quick mode). */
  readonly verify?: Timing
  /** Native CPU ÷ this entry's, paired call by call; absent for a native, which is its own baseline. */
  readonly vs?: { readonly hash: number; readonly verify?: number }
}

type Plan = ReturnType<typeof planEntries>
const OPERATIONS = ['hash', 'verify'] as const

/** One round of one entry: each operation timed, beside its native's calls unless it is the native. */
function measureEntry(plan: Plan, encoded: ReadonlyMap<string, string>, roundMs: number) {
  const calls = (e: Entry) => {
    const stored = encoded.get(entryKey(e)) as string
    return {
      hash: () => e.hasher.hash(BENCH_PASSWORD),
      verify: () => e.hasher.verify(stored, BENCH_PASSWORD),
    }
  }
  return async (entry: Entry): Promise<Round> => {
    const own = calls(entry)
    const native = plan.nativeOf(entry)
    const verifies = plan.verified(entry)
    if (!native || native === entry) {
      return {
        hash: await timeRound(own.hash, roundMs),
        ...(verifies ? { verify: await timeRound(own.verify, roundMs) } : {}),
      }
    }
    const base = calls(native)
    const hash = await timePairs(own.hash, base.hash, roundMs)
    const verify = verifies ? await timePairs(own.verify, base.verify, roundMs) : undefined
    return {
      hash: hash.candidate,
      ...(verify ? { verify: verify.candidate } : {}),
      vs: { hash: hash.vsBaseline, ...(verify ? { verify: verify.vsBaseline } : {}) },
    }
  }
}

function rowOf(
  plan: Plan,
  entry: Entry,
  op: (typeof OPERATIONS)[number],
  rounds: readonly (Round | undefined)[],
): SuiteRow {
  const native = plan.nativeOf(entry)
  const name = entry.hasher.info.displayName
  // A native is its own baseline: 1 in every round it was measured.
  const vsNative = rounds.flatMap((r) => (r?.[op] ? [r.vs?.[op] ?? 1] : []))
  const flags: Flag[] = [
    ...(native === entry ? [{ kind: 'baseline' } as const] : []),
    ...(entry.control ? [{ kind: 'control' } as const] : []),
    ...(entry.group !== 'defaults' && plan.sameAsDefaults(entry)
      ? [{ kind: 'same-as-defaults' } as const]
      : []),
  ]
  return medianRow({
    group: `${entry.group} · ${op}`,
    key: { setting: entry.setting, operation: op },
    candidate: entry.control ? controlOf(entry.candidate).id : entry.candidate.id,
    // The instance's own name: a multi-algorithm package labels each configuration differently.
    label: entry.control ? `${name} [A/A control]` : name,
    perRound: rounds.map((r) => r?.[op]?.cpuMs),
    unit: `CPU ms/${op}`,
    higherIsBetter: false,
    ratios: native
      ? [ratioTo({ id: native.candidate.id, label: native.hasher.info.displayName }, vsNative)]
      : [],
    details: {
      'wall ms (median)': median(rounds.flatMap((r) => (r?.[op] ? [r[op].wallMs] : []))),
      params: describeParams(entry.hasher),
      'runs on': entry.hasher.info.runsOn,
    },
    flags,
  })
}

async function run(candidates: Candidates, ctx: SuiteContext<HashBudget>) {
  const notes: string[] = []
  const plan = planEntries(candidates.hashers, ctx.budget, notes)
  const warm = await warmEntries(ctx, plan.distinct)
  notes.push(...warm.notes)
  ctx.progress.plan(warm.live.length * ctx.budget.rounds)
  const measured = await candidateRounds(ctx, {
    candidates: warm.live,
    budget: ctx.budget,
    name: (e) => ({
      id: e.candidate.id,
      label: `${e.hasher.info.displayName} (${describeParams(e.hasher)})`,
    }),
    measure: measureEntry(plan, warm.encoded, ctx.budget.roundMs),
    // Pairing is inside a round (each call beside a native call), so an entry races alone.
    comparisons: (e, results) => {
      if (plan.nativeOf(e) === e || !plan.nativeOf(e)) return []
      const rounds = results.get(e) ?? []
      return OPERATIONS.filter((op) => op === 'hash' || plan.verified(e)).map((op) => ({
        ratio: summarizeRatio(
          { against: '', label: '' },
          rounds.flatMap((r) => (r?.vs?.[op] !== undefined ? [r.vs[op]] : [])),
        ),
      }))
    },
  })
  const byKey = new Map(warm.live.map((e) => [entryKey(e), measured.get(e) ?? []]))
  const rows = OPERATIONS.flatMap((op) =>
    plan.entries
      .filter((e) => byKey.has(entryKey(e)) && (op === 'hash' || plan.verified(e)))
      .map((e) => rowOf(plan, e, op, byKey.get(entryKey(e)) ?? [])),
  )
  return { rows, notes }
}

export const suite = defineSuite<HashBudget>({
  name: 'hash',
  order: 20,
  description:
    'CPU time per hash and per verify of every hasher, at its defaults and at cost-equalised settings, over interleaved rounds, as per-round ratios to the native implementation of the same algorithm, with an A/A control.',
  baseline: 'the native implementation of the same algorithm',
  budget: {
    quick: {
      rounds: 5,
      roundMs: 45,
      // A configuration whose warm call takes longer is left out of the quick run, and its notes say so:
      // calls of seconds (pure-JS scrypt at N=2^17) would take much of the suite's time for ratios the
      // cost-equalised scrypt setting (N=2^14 r=16) already gives.
      callCapMs: 400,
      allSettings: false,
      settingVerifies: false,
      race: { maxRounds: 16, budgetMs: 8_000 },
    },
    full: {
      rounds: 15,
      roundMs: 250,
      callCapMs: Number.POSITIVE_INFINITY,
      allSettings: true,
      settingVerifies: true,
      race: { maxRounds: 40, budgetMs: 180_000 },
    },
  },
  placement: 'one-core',
  portable,
  view,
  method,
  run,
})
