import type { PasswordHasher } from '@authlab/core'
import { BENCH_PASSWORD, describeParams } from '../discover/settings.js'
import { runRounds } from '../measure/rounds.js'
import { settle } from '../measure/sample.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, limitFlags, perRoundRatios, summarizeRatio, VERDICT_RULE } from '../measure/verdict.js'
import { threadpoolNote } from '../results/env.js'
import type { Ratio, Suite, SuiteRow } from '../types.js'

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

/** Wall time of K hashes started together: what a server sees when K logins arrive at once. */
async function burst(hasher: PasswordHasher, k: number): Promise<number> {
  await settle()
  const started = performance.now()
  await Promise.all(Array.from({ length: k }, () => hasher.hash(BENCH_PASSWORD)))
  return performance.now() - started
}

/** The key of the A/A control's single hash in a round's timings. */
const CONTROL = -1

interface Plan {
  readonly id: string
  readonly label: string
  readonly hasher: PasswordHasher
  /** Levels above 1 that fit the cap, from the warm-up hash's time. */
  readonly levels: readonly number[]
}

export const concurrencySuite: Suite = {
  name: 'concurrency',
  description:
    'Hashes per second with K concurrent hashes (K = 1, cores, 4×cores, 32) against the limit cores ÷ single-hash time of the same round: offloading strategies scale, main-thread ones do not.',
  async run(candidates, ctx) {
    const levels = concurrencyLevels(ctx.cores).filter((k) => k > 1)
    const rows: SuiteRow[] = []
    const notes: string[] = []
    const limitLabel = `limit ${ctx.cores} cores ÷ single-hash time`
    const plans: Plan[] = []
    ctx.progress.plan(candidates.hashers.length * (ctx.budget.concurrencyRounds + 1))
    for (const candidate of candidates.hashers) {
      ctx.progress.step(`warm-up · ${candidate.label}`)
      try {
        const hasher = candidate.create()
        const single = await burst(hasher, 1)
        const projected = (k: number) => projectedRoundMs(single, k, hasher.info.runsOn, ctx.cores)
        const cap = ctx.budget.concurrencyCapMs
        const fits = levels.filter((k) => projected(k) <= cap)
        const over = levels.filter((k) => projected(k) > cap)
        const burstNote = (k: number) =>
          `one burst of K=${k} projects to ${(projected(k) / 1000).toFixed(1)} s (> ${cap / 1000} s quick cap; use --full)`
        // With no K above 1 the hasher's rows have no ratio to a limit: its single-hash time is the lag
        // suite's business, so its rounds are not spent.
        if (fits.length === 0 && over.length > 0) {
          notes.push(`${candidate.id} not run: ${burstNote(over[0] as number)}`)
          continue
        }
        for (const k of over) notes.push(`${candidate.id} K=${k} not run: ${burstNote(k)}`)
        plans.push({ id: candidate.id, label: candidate.label, hasher, levels: fits })
      } catch (error) {
        notes.push(`${candidate.id} failed: ${(error as Error).message}`)
      }
    }
    // Each round: one hash alone (the round's limit), then each K: the ratio divides by the limit of its own round.
    const limitOf = (rounds: readonly (Map<number, number> | undefined)[]) =>
      rounds.map((r) => (r?.get(1) ? (ctx.cores * 1000) / (r.get(1) as number) : undefined))
    const perSecondAt = (rounds: readonly (Map<number, number> | undefined)[], k: number) =>
      rounds.map((r) => (r?.get(k) ? (k * 1000) / (r.get(k) as number) : undefined))
    /** K's hashes/s against the round's limit, and against the round's K=1 (the scaling factor). */
    const ratiosAt = (rounds: readonly (Map<number, number> | undefined)[], k: number): Ratio[] => [
      summarizeRatio(limitLabel, perRoundRatios(perSecondAt(rounds, k), limitOf(rounds), true)),
      summarizeRatio('K=1 (scaling)', perRoundRatios(perSecondAt(rounds, k), perSecondAt(rounds, 1), true)),
    ]
    const controlOf = (rounds: readonly (Map<number, number> | undefined)[]) =>
      summarizeRatio(
        'the first single hash',
        perRoundRatios(
          rounds.map((r) => r?.get(CONTROL)),
          rounds.map((r) => r?.get(1)),
          false,
        ),
      )
    const measured = await runRounds(
      plans,
      ctx.budget.concurrencyRounds,
      ctx.seed,
      async (plan, round) => {
        ctx.progress.step(`round ${round + 1} · ${plan.label}`)
        const wall = new Map<number, number>([[1, await burst(plan.hasher, 1)]])
        for (const k of plan.levels) wall.set(k, await burst(plan.hasher, k))
        wall.set(CONTROL, await burst(plan.hasher, 1))
        return wall
      },
      (plan, error) => notes.push(`${plan.id}: a round failed (${(error as Error).message})`),
      ctx.budget.race && {
        ...ctx.budget.race,
        budgetMs: ctx.budget.race.concurrencyMs,
        pending: (results) =>
          plans.filter((plan) => {
            const rounds = results.get(plan) ?? []
            const all = [controlOf(rounds), ...plan.levels.flatMap((k) => ratiosAt(rounds, k))]
            return all.some((q) => q.verdict === 'undecided')
          }),
      },
    )
    for (const plan of plans) {
      const rounds = measured.get(plan) ?? []
      const controlRounds = rounds.flatMap((r) =>
        r?.get(CONTROL) ? [1000 / (r.get(CONTROL) as number)] : [],
      )
      rows.push({
        group: 'K=1 again (A/A control)',
        candidate: plan.id,
        label: plan.label,
        value: median(controlRounds),
        unit: 'hashes/s',
        higherIsBetter: true,
        rounds: controlRounds,
        ratios: [controlOf(rounds)],
        details: {},
        flags: [CONTROL_FLAG],
      })
      for (const k of [1, ...plan.levels]) {
        const clean = perSecondAt(rounds, k).filter((v): v is number => v !== undefined)
        const ratios = k === 1 ? [] : ratiosAt(rounds, k)
        rows.push({
          group: `K=${k}`,
          candidate: plan.id,
          label: plan.label,
          value: median(clean),
          unit: 'hashes/s',
          higherIsBetter: true,
          rounds: clean,
          ratios,
          details: {
            'limit hashes/s': median(limitOf(rounds).filter((v): v is number => v !== undefined)),
            params: describeParams(plan.hasher),
            'runs on': plan.hasher.info.runsOn,
          },
          flags: limitFlags(ratios[0]),
        })
      }
    }
    notes.push(
      `${threadpoolNote()}; ${ctx.cores} cores. ${ctx.budget.concurrencyRounds} rounds at least (more, up to the race budget, while a ratio is undecided), hashers in a fresh random order per round; in each, one hash alone sets that round's limit (cores ÷ its wall time), then each K runs one burst, then one hash alone again (the A/A control, which must read same). Ratios: burst hashes/s ÷ that limit (1.0 = perfect scaling; an interval wholly above 1 is flagged as a measurement error), and ÷ that round's K=1 hashes/s (the scaling factor: about K for a strategy that spreads over K free cores, 1 for one that runs on the main thread). ${VERDICT_RULE} Wall time (parallelism is the point), so load from other processes lowers these figures.`,
    )
    return { rows, notes }
  },
}
