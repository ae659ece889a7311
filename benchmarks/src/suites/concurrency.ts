import type { PasswordHasher } from '@authlab/core'
import { BENCH_PASSWORD, describeParams } from '../discover/settings.js'
import { type Measurement, measureAsync } from '../measure/measure.js'
import { noiseFlags, ratioTo } from '../measure/ratio.js'
import { threadpoolNote } from '../results/env.js'
import type { Budget, Suite, SuiteRow } from '../types.js'

/** K = 1, cores, 4 × cores and 32 concurrent hashes (single, every core busy, an oversubscribed pool, a burst), without repeats. */
export function concurrencyLevels(cores: number): number[] {
  return [...new Set([1, cores, 4 * cores, 32])].sort((a, b) => a - b)
}

/**
 * How long one round of K hashes should take if the strategy scales as its `runsOn` claims: a
 * main-thread strategy runs them one after another, the others spread them over the cores.
 */
export function projectedRoundMs(singleMs: number, k: number, runsOn: string, cores: number): number {
  const parallel = runsOn === 'main-thread' ? 1 : Math.min(k, cores)
  return (singleMs * k) / parallel
}

async function round(hasher: PasswordHasher, k: number, budget: Budget): Promise<Measurement> {
  const hashes = Array.from({ length: k })
  return measureAsync(() => Promise.all(hashes.map(() => hasher.hash(BENCH_PASSWORD))), {
    timeMs: budget.concurrencyTimeMs,
    minSamples: k === 1 ? 3 : 2,
    warmupMs: 0,
    // K=1 comes first and warms the hasher (JIT, thread pool); the larger rounds need no discarded round.
    warmupSamples: k === 1 ? 1 : 0,
    batch: k,
  })
}

export const concurrencySuite: Suite = {
  name: 'concurrency',
  description:
    'Hashes per second with K concurrent hashes (K = 1, cores, 4×cores, 32) against the limit cores ÷ single-hash time: offloading strategies scale, main-thread ones do not.',
  async run(candidates, ctx) {
    const levels = concurrencyLevels(ctx.cores)
    ctx.progress.plan(candidates.hashers.length * levels.length)
    const rows: SuiteRow[] = []
    const notes: string[] = []
    const limitLabel = `limit ${ctx.cores} cores ÷ single-hash time`
    for (const candidate of candidates.hashers) {
      let hasher: PasswordHasher
      try {
        hasher = candidate.create()
      } catch (error) {
        notes.push(`${candidate.id} failed: ${(error as Error).message}`)
        continue
      }
      let single: Measurement | undefined
      for (const k of levels) {
        ctx.progress.step(`${candidate.label} K=${k}`)
        const projected = single && projectedRoundMs(single.mean, k, hasher.info.runsOn, ctx.cores)
        if (projected !== undefined && projected > ctx.budget.concurrencyCapMs) {
          notes.push(
            `${candidate.id} K=${k} not run: one round projects to ${(projected / 1000).toFixed(1)} s (> ${ctx.budget.concurrencyCapMs / 1000} s quick cap; use --full)`,
          )
          continue
        }
        let m: Measurement
        try {
          m = await round(hasher, k, ctx.budget)
        } catch (error) {
          notes.push(`${candidate.id} K=${k} failed: ${(error as Error).message}`)
          break
        }
        single ??= m
        // cores ÷ single-hash time: what perfect scaling over every core would give.
        const limit = { value: (ctx.cores * 1000) / single.mean, rme: single.rme }
        const perSecond = { value: 1000 / m.mean, rme: m.rme }
        rows.push({
          group: `K=${k}`,
          candidate: candidate.id,
          label: candidate.label,
          value: perSecond.value,
          unit: 'hashes/s',
          higherIsBetter: true,
          rme: m.rme,
          samples: m.samples,
          // At K=1 both sides are the same measurement, so the ratio is exactly 1/cores with no spread.
          ratios: [
            m === single
              ? { baseline: limitLabel, value: 1 / ctx.cores, rme: 0 }
              : ratioTo(limitLabel, perSecond, limit, true),
          ],
          details: {
            'limit hashes/s': limit.value,
            'speed-up vs K=1': single.mean / m.mean,
            params: describeParams(hasher),
            'runs on': hasher.info.runsOn,
          },
          flags: noiseFlags(m.rme, ctx.maxRme),
        })
      }
    }
    notes.push(
      `${threadpoolNote()}; ${ctx.cores} cores. Ratio = hashes/s ÷ (cores ÷ single-hash time); 1.0 = perfect scaling.`,
    )
    return { rows, notes }
  },
}
