import { findAlgorithm, type PasswordHasher } from '@authlab/core'
import { nativeHashers } from '../discover/baselines.js'
import { BENCH_PASSWORD, costSettings, describeParams, instantiate } from '../discover/settings.js'
import { settingKey } from '../keys.js'
import { configurationKey, recordCallMs } from '../measure/call-cost.js'
import { type Timing, timePairs, timeRound } from '../measure/sample.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, summarizeRatio } from '../measure/verdict.js'
import { cappedNote } from '../report/words.js'
import type { HashBudget, HashCandidate, Suite, SuiteRow } from '../types.js'
import {
  CONTROL_SUFFIX,
  candidateRounds,
  controlOf,
  medianRow,
  message,
  raceText,
  ratioTo,
} from './common.js'

interface Entry {
  readonly group: string
  /** The setting as data (src/keys.ts): `defaults` or the algorithm at its parameters. */
  readonly setting: string
  readonly candidate: HashCandidate
  readonly hasher: PasswordHasher
  /** The A/A control: the same configuration as `candidate`'s native entry, measured as a separate one. */
  readonly control?: boolean
}

interface Round {
  readonly hash: Timing
  /** Absent where the budget times only the hash (a cost setting in quick mode). */
  readonly verify?: Timing
  /** Native CPU ÷ this entry's, paired call by call; absent for a native, which is its own baseline. */
  readonly vs?: { readonly hash: number; readonly verify?: number }
}

/** Defaults first, then each cost-equalised setting with every implementation of its algorithm. */
function entriesOf(hashers: readonly HashCandidate[], budget: HashBudget, notes: string[]): Entry[] {
  const entries: Entry[] = []
  // A variant at a cost setting is measured once, in that setting's table, with its base candidate.
  for (const candidate of hashers.filter((c) => c.variantOf === undefined)) {
    try {
      entries.push({ group: 'defaults', setting: 'defaults', candidate, hasher: candidate.create() })
    } catch (error) {
      notes.push(`${candidate.id}: its defaults cannot be built (${message(error)})`)
    }
  }
  for (const setting of costSettings().filter((s) => budget.allSettings || s.quick)) {
    for (const candidate of hashers) {
      const hasher = instantiate(candidate, setting)
      const key = settingKey(setting.family, setting.options)
      if (hasher) entries.push({ group: setting.label, setting: key, candidate, hasher })
    }
  }
  return entries
}

/** One measurement per distinct (package, parameters): a setting equal to a package's defaults reuses it. */
const keyOf = (e: Entry) => `${e.candidate.id} ${describeParams(e.hasher)}${e.control ? CONTROL_SUFFIX : ''}`

/** A verify's work at these parameters in its algorithm's own units (core's profile), if known. */
function workUnits(hasher: PasswordHasher): number | undefined {
  const params = Object.fromEntries(
    Object.entries(hasher.info.params).filter((e): e is [string, number] => typeof e[1] === 'number'),
  )
  const units = findAlgorithm(hasher.info.algorithm)?.work(params, 32).units
  return units !== undefined && units > 0 ? units : undefined
}

/** Work units compare only within one algorithm (one package may implement several). */
const workKey = (entry: Entry) => `${entry.candidate.id} ${entry.hasher.info.algorithm}`

export const hashSuite: Suite = {
  name: 'hash',
  placement: 'one-core',
  description:
    'CPU time per hash and per verify of every hasher, at its defaults and at cost-equalised settings, over interleaved rounds, as per-round ratios to the native implementation of the same algorithm, with an A/A control.',
  async run(candidates, ctx) {
    const notes: string[] = []
    const budget = ctx.budget.hash
    const entries = entriesOf(candidates.hashers, budget, notes)
    const sameAsDefaults = (entry: Entry) =>
      entries.some((e) => e.group === 'defaults' && keyOf(e) === keyOf(entry))
    const nativeOf = (e: Entry) =>
      entries.find(
        (n) =>
          n.group === e.group && !n.control && n.candidate.id === nativeHashers()[e.hasher.info.algorithm],
      )
    // The A/A control: native bcrypt's defaults again, as its own entry. Not a memory-hard hasher: a call
    // touching MiBs varies from round to round with page faults and memory bandwidth shared with other
    // processes, a floor that would hide every other difference; bcrypt's state is 4 KiB.
    const natives = entries.filter((e) => e.group === 'defaults' && nativeOf(e) === e)
    const controlBase = natives.find((e) => e.hasher.info.algorithm === 'bcrypt') ?? natives[0]
    if (controlBase) entries.push({ ...controlBase, control: true })
    const distinct = [...new Map(entries.map((e) => [keyOf(e), e])).values()]
    // Verify repeats the hash's derivation (plus a constant-time compare), so quick mode times it at the
    // defaults only; a cost setting's verify is a --full figure.
    const verified = (e: Entry) => budget.settingVerifies || sameAsDefaults(e)
    const dropped = new Set<string>()
    // Warm-up and self-check outside the rounds: module init, thread-pool spin-up, JIT. The verify,
    // a warm call, also sizes the entry against the budget's cap.
    const encoded = new Map<string, string>()
    const cap = budget.callCapMs
    // Cheapest settings first: a call's time grows in proportion to its work (N·r·p for scrypt, RFC 7914
    // §2; 2^cost for bcrypt), so the first call timed per candidate and algorithm predicts the costlier
    // ones, and one predicted at over twice the cap is left out without a call (a pure-JS scrypt at
    // N=2^17 would spend seconds on it).
    const timed = new Map<string, { units: number; ms: number }>()
    const capped: { what: string; ms: number }[] = []
    const units = new Map(distinct.map((e) => [e, workUnits(e.hasher)]))
    const byWork = [...distinct].sort((a, b) => (units.get(a) ?? 0) - (units.get(b) ?? 0))
    for (const entry of byWork) {
      const params = describeParams(entry.hasher)
      const name = `${entry.candidate.id} (${params})`
      const configuration = configurationKey(entry.candidate.id, params)
      const own = units.get(entry)
      const known = timed.get(workKey(entry))
      const predicted = own !== undefined && known ? (known.ms * own) / known.units : undefined
      if (predicted !== undefined && predicted > 2 * cap) {
        // Later suites read it too, and leave the configuration out the same way.
        recordCallMs(configuration, predicted)
        dropped.add(keyOf(entry))
        // Predicted from a cheaper setting's call, scaled by work.
        capped.push({ what: name, ms: predicted })
        continue
      }
      try {
        // A cold first call (module init, pool spin-up, JIT), then a warm one that sizes the entry
        // against the cap; a configuration over the cap is not verified, nor run. One whose cold call
        // alone took twice the cap is not timed again (a cold call is slower, but not twice as slow).
        const coldStarted = performance.now()
        const cold = await entry.hasher.hash(BENCH_PASSWORD)
        const coldMs = performance.now() - coldStarted
        const started = performance.now()
        const stored = coldMs > 2 * cap ? cold : await entry.hasher.hash(BENCH_PASSWORD)
        const callMs = coldMs > 2 * cap ? coldMs : performance.now() - started
        if (!entry.control) recordCallMs(configuration, callMs)
        if (own !== undefined && !known) timed.set(workKey(entry), { units: own, ms: callMs })
        encoded.set(keyOf(entry), stored)
        if (callMs <= cap && !(await entry.hasher.verify(stored, BENCH_PASSWORD)))
          throw new Error('verify rejected its own hash')
        if (callMs > cap) {
          dropped.add(keyOf(entry))
          capped.push({ what: name, ms: callMs })
        }
      } catch (error) {
        dropped.add(keyOf(entry))
        notes.push(`${name} failed: ${message(error)}`)
      }
    }
    notes.push(...cappedNote(cap, capped))
    const live = distinct.filter((e) => !dropped.has(keyOf(e)))
    ctx.progress.plan(live.length * budget.rounds)
    const measured = await candidateRounds(ctx, notes, {
      candidates: live,
      budget,
      name: (e) => ({
        id: e.candidate.id,
        label: `${e.hasher.info.displayName} (${describeParams(e.hasher)})`,
      }),
      measure: async (entry): Promise<Round> => {
        const calls = (e: Entry) => {
          const stored = encoded.get(keyOf(e)) as string
          return {
            hash: () => e.hasher.hash(BENCH_PASSWORD),
            verify: () => e.hasher.verify(stored, BENCH_PASSWORD),
          }
        }
        const own = calls(entry)
        const native = nativeOf(entry)
        const verifies = verified(entry)
        if (!native || native === entry) {
          return {
            hash: await timeRound(own.hash, budget.roundMs),
            ...(verifies ? { verify: await timeRound(own.verify, budget.roundMs) } : {}),
          }
        }
        const base = calls(native)
        const hash = await timePairs(own.hash, base.hash, budget.roundMs)
        const verify = verifies ? await timePairs(own.verify, base.verify, budget.roundMs) : undefined
        return {
          hash: hash.candidate,
          ...(verify ? { verify: verify.candidate } : {}),
          vs: { hash: hash.vsBaseline, ...(verify ? { verify: verify.vsBaseline } : {}) },
        }
      },
      // Pairing is inside a round (each call beside a native call), so an entry races alone.
      comparisons: (e, results) => {
        if (nativeOf(e) === e || !nativeOf(e)) return []
        const rounds = results.get(e) ?? []
        return (verified(e) ? (['hash', 'verify'] as const) : (['hash'] as const)).map((op) => ({
          ratio: summarizeRatio(
            '',
            rounds.flatMap((r) => (r?.vs?.[op] !== undefined ? [r.vs[op]] : [])),
          ),
        }))
      },
    })
    const byKey = new Map(live.map((e) => [keyOf(e), measured.get(e) ?? []]))
    const roundsOf = (e: Entry) => byKey.get(keyOf(e)) ?? []
    const rows: SuiteRow[] = (['hash', 'verify'] as const).flatMap((op) =>
      entries
        .filter((entry) => !dropped.has(keyOf(entry)) && (op === 'hash' || verified(entry)))
        .map((entry) => {
          const rounds = roundsOf(entry)
          const native = nativeOf(entry)
          const name = entry.hasher.info.displayName
          // A native is its own baseline: 1 in every round it was measured.
          const vsNative = rounds.flatMap((r) => (r?.[op] ? [r.vs?.[op] ?? 1] : []))
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
            flags: [
              ...(native === entry ? ['baseline'] : []),
              ...(entry.control ? [CONTROL_FLAG] : []),
              ...(entry.group !== 'defaults' && sameAsDefaults(entry)
                ? ['same measurement as defaults']
                : []),
            ],
          })
        }),
    )
    return { rows, notes }
  },
  method: ({ hash: budget }) =>
    [
      `${budget.rounds} rounds at least, after two discarded hashes and a verify each; in every round each configuration hashes, then verifies (${budget.settingVerifies ? 'at every setting' : 'at its defaults only: a verify repeats the derivation; --full times it at every setting'}), each repeated until ${budget.roundMs} ms of CPU (at least once; the round keeps the median), in a fresh random order, each batch of calls (calls under 20 ms are batched) on a settled heap and, except for the natives, beside a batch of the native implementation of its algorithm (the order flipped every pair). Value = median over rounds of CPU ms of this process (main thread, libuv pool and worker threads), so other processes' load stays out; the wall-clock median is beside it.`,
      `Ratio = native CPU time ÷ candidate CPU time, the median over a round's pairs (> 1: cheaper than native); pairs of adjacent calls see the same machine speed.${raceText(budget, 'entries')}`,
    ].join(' '),
}
