/**
 * A suite of one folder, for the test that a suite needs nothing else: two ways of summing 1..n, timed
 * in rounds by the harness, one of them again as the A/A control. Nothing outside this folder names it.
 */

import { candidateRounds } from '../../src/harness/rounds.js'
import { controlOf, medianRow, ratioTo } from '../../src/harness/rows.js'
import { defineSuite, type RoundsBudget } from '../../src/harness/suite.js'
import { perRoundRatios } from '../../src/stats/verdict.js'

const N = 20_000
const loop = () => {
  let sum = 0
  for (let i = 1; i <= N; i++) sum += i
  return sum
}
const formula = () => (N * (N + 1)) / 2
const WAYS = [
  { id: 'toy:loop', label: 'a loop', run: loop },
  { id: 'toy:formula', label: "Gauss's formula", run: formula },
]
const LIST = [...WAYS, { ...controlOf(WAYS[0] as (typeof WAYS)[number]) }]

/** Sums per millisecond of one way, from 200 calls. */
function rate(way: (typeof WAYS)[number]): number {
  const started = performance.now()
  let sink = 0
  for (let i = 0; i < 200; i++) sink += way.run()
  return sink > 0 ? 200 / Math.max(performance.now() - started, 1e-3) : 0
}

export const suite = defineSuite<RoundsBudget>({
  name: 'toy',
  order: 99,
  onRequestOnly: true,
  description: 'Sums of 1..n per millisecond, a loop against the formula.',
  baseline: 'the loop',
  budget: { quick: { rounds: 3 }, full: { rounds: 3 } },
  method: (budget) => `Toy method: ${budget.rounds} rounds of 200 sums each way.`,
  view: { columns: ['sums'] },
  async run(_, ctx) {
    const measured = await candidateRounds(ctx, {
      candidates: LIST,
      budget: ctx.budget,
      name: (way) => way,
      measure: async (way) => rate(way),
    })
    const loopRates = measured.get(LIST[0] as (typeof LIST)[number]) ?? []
    const rows = LIST.map((way) =>
      medianRow({
        group: 'sums',
        key: { setting: 'defaults', operation: 'sum' },
        candidate: way.id,
        label: way.label,
        perRound: measured.get(way) ?? [],
        unit: 'sums/ms',
        higherIsBetter: true,
        ratios:
          way === LIST[0]
            ? []
            : [
                ratioTo(
                  WAYS[0] as (typeof WAYS)[number],
                  perRoundRatios(measured.get(way) ?? [], loopRates, true),
                ),
              ],
        details: { sums: 200 },
        flags: way === LIST[0] ? [{ kind: 'baseline' }] : way === LIST[2] ? [{ kind: 'control' }] : [],
      }),
    )
    return { rows, notes: ['A toy note.'] }
  },
})
