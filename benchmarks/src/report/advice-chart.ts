import type * as vl from 'vega-lite'
import type { SettingCost } from '../advice/costs.js'

/**
 * The trade itself: every hasher setting as a point, the server's CPU per login across, the attacker's
 * guesses per second per card up (both log scales). Lower-left is better: cheap for the server, slow
 * for the attacker; a point straight above another costs the server the same and the attacker less.
 */
export function tradeOffSpec(costs: readonly SettingCost[]): vl.TopLevelSpec {
  const values = costs
    .filter((c) => c.attacker)
    .map((c) => ({
      label: c.label,
      algorithm: c.params,
      runsOn: c.runsOn,
      ms: Number(c.cpuMsPerLogin.toPrecision(3)),
      guesses: Number(c.attacker?.guessesPerSecond.toPrecision(3)),
    }))
    .sort((a, b) => a.algorithm.localeCompare(b.algorithm) || a.ms - b.ms)
  // Settings of one algorithm share a guess rate, so their labels would sit on one line and overlap:
  // each further one is lifted by a step on the log axis.
  const stacked = new Map<number, number>()
  const labelled = values.map((v) => {
    const k = stacked.get(v.guesses) ?? 0
    stacked.set(v.guesses, k + 1)
    return { ...v, labelAt: v.guesses * 1.22 ** k }
  })
  const x = {
    field: 'ms',
    type: 'quantitative',
    title: 'server CPU ms per login (log; left is cheaper)',
    scale: { type: 'log' },
  }
  const y = {
    field: 'guesses',
    type: 'quantitative',
    title: 'attacker guesses/s per RTX 4090 (log; lower is better)',
    scale: { type: 'log' },
  }
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: 'What a login costs you against what a guess costs an attacker, per hasher setting',
    width: 560,
    height: 320,
    data: { values: labelled },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 80 },
        encoding: {
          x,
          y,
          color: { field: 'algorithm', type: 'nominal', title: 'setting' },
          shape: { field: 'runsOn', type: 'nominal', title: 'runs on' },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 6, fontSize: 9 },
        encoding: { x, y: { ...y, field: 'labelAt' }, text: { field: 'label' } },
      },
    ],
    config: { legend: { orient: 'bottom', labelLimit: 0, columns: 2 } },
  }
  return spec as unknown as vl.TopLevelSpec
}
