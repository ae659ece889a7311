import type { PasswordHasher } from '@authlab/core'
import { NATIVE_HASHERS } from '../discover/baselines.js'
import { BENCH_PASSWORD, COST_SETTINGS, describeParams, instantiate } from '../discover/settings.js'
import { type Measurement, measureAsync } from '../measure/measure.js'
import { noiseFlags, ratioTo } from '../measure/ratio.js'
import type { Budget, HashCandidate, Suite, SuiteRow } from '../types.js'

interface Entry {
  readonly group: string
  readonly candidate: HashCandidate
  readonly hasher: PasswordHasher
}

interface Timing {
  readonly hash: Measurement
  readonly verify: Measurement
}

async function time(hasher: PasswordHasher, budget: Budget): Promise<Timing> {
  const encoded = await hasher.hash(BENCH_PASSWORD)
  if (!(await hasher.verify(encoded, BENCH_PASSWORD))) throw new Error('verify rejected its own hash')
  const options = {
    timeMs: budget.hashTimeMs,
    minSamples: budget.hashMinSamples,
    warmupMs: 0,
    warmupSamples: 1,
  }
  return {
    hash: await measureAsync(() => hasher.hash(BENCH_PASSWORD), options),
    verify: await measureAsync(() => hasher.verify(encoded, BENCH_PASSWORD), options),
  }
}

/** Defaults first, then each cost-equalised setting with every implementation of its algorithm. */
function entriesOf(hashers: readonly HashCandidate[], budget: Budget, notes: string[]): Entry[] {
  const entries: Entry[] = []
  for (const candidate of hashers) {
    try {
      entries.push({ group: 'defaults', candidate, hasher: candidate.create() })
    } catch (error) {
      notes.push(`${candidate.id}: its defaults cannot be built (${(error as Error).message})`)
    }
  }
  for (const setting of COST_SETTINGS.filter((s) => budget.allSettings || s.quick)) {
    for (const candidate of hashers) {
      const hasher = instantiate(candidate, setting)
      if (hasher) entries.push({ group: setting.label, candidate, hasher })
    }
  }
  return entries
}

export const hashSuite: Suite = {
  name: 'hash',
  description:
    'Time per hash and per verify of every hasher, at its defaults and at cost-equalised settings, as a ratio to the native implementation of the same algorithm.',
  async run(candidates, ctx) {
    const notes: string[] = []
    const entries = entriesOf(candidates.hashers, ctx.budget, notes)
    // One measurement per distinct (package, parameters): a setting equal to a package's defaults reuses it.
    const keyOf = (e: Entry) => `${e.candidate.id} ${describeParams(e.hasher)}`
    const distinct = new Map(entries.map((e) => [keyOf(e), e]))
    ctx.progress.plan(distinct.size)
    const timings = new Map<string, Timing>()
    for (const [key, entry] of distinct) {
      ctx.progress.step(`${entry.candidate.label} (${describeParams(entry.hasher)})`)
      try {
        timings.set(key, await time(entry.hasher, ctx.budget))
      } catch (error) {
        notes.push(
          `${entry.candidate.id} (${describeParams(entry.hasher)}) failed: ${(error as Error).message}`,
        )
      }
    }
    const rows: SuiteRow[] = []
    for (const op of ['hash', 'verify'] as const) {
      for (const entry of entries) {
        const timing = timings.get(keyOf(entry))
        if (!timing) continue
        const m = timing[op]
        const family = entry.hasher.info.algorithm
        const native = entries.find(
          (e) => e.group === entry.group && e.candidate.id === NATIVE_HASHERS[family],
        )
        const nativeTiming = native && timings.get(keyOf(native))
        const flags = noiseFlags(m.rme, ctx.maxRme)
        if (native === entry) flags.push('baseline')
        if (entry.group !== 'defaults' && isDefaultsEntry(entries, entry, keyOf)) {
          flags.push('same measurement as defaults')
        }
        rows.push({
          group: `${entry.group} · ${op}`,
          candidate: entry.candidate.id,
          // The instance's own name: a multi-algorithm package labels each configuration differently.
          label: entry.hasher.info.displayName,
          value: m.mean,
          unit: `ms/${op}`,
          higherIsBetter: false,
          rme: m.rme,
          samples: m.samples,
          ratios: nativeTiming
            ? [
                ratioTo(
                  native.hasher.info.displayName,
                  { value: m.mean, rme: m.rme },
                  { value: nativeTiming[op].mean, rme: nativeTiming[op].rme },
                  false,
                ),
              ]
            : [],
          details: {
            'p50 ms': m.p50,
            'p99 ms': m.p99,
            params: describeParams(entry.hasher),
            'runs on': entry.hasher.info.runsOn,
          },
          flags,
        })
      }
    }
    notes.push(
      'Value = mean ms with its 95 % margin of error; ratio = native time ÷ candidate time (> 1: faster than native).',
    )
    return { rows, notes }
  },
}

function isDefaultsEntry(entries: readonly Entry[], entry: Entry, keyOf: (e: Entry) => string): boolean {
  return entries.some(
    (e) => e.group === 'defaults' && e.candidate === entry.candidate && keyOf(e) === keyOf(entry),
  )
}
