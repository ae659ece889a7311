import { formatGuessRate, GUESS_RATE_REFERENCES, WORD_LIST_SIZE } from '@authlab/core'
import type { SettingCost } from '../advice/costs.js'
import { formatNumber } from './format.js'

export const COST_HEADERS = [
  'hasher',
  'parameters',
  'runs on',
  'CPU ms per login',
  'logins/s per core',
  'longest 1 ms timer wait, ms',
  'attacker guesses/s per RTX 4090',
  `GPU-days per ${WORD_LIST_SIZE.toExponential().replace('e+', '×10^')} guesses`,
] as const

/** The order a reader compares in: algorithm, then the server's cost. */
export function sortedCosts(costs: readonly SettingCost[]): SettingCost[] {
  return [...costs].sort((a, b) => a.params.localeCompare(b.params) || a.cpuMsPerLogin - b.cpuMsPerLogin)
}

/** A table cell per column of `COST_HEADERS`; a non-linear attacker estimate is marked with "≈…†". */
export function costCells(cost: SettingCost): string[] {
  const a = cost.attacker
  const mark = a && !a.linear ? ' †' : ''
  return [
    cost.label,
    cost.params,
    cost.runsOn,
    `${formatNumber(cost.cpuMsPerLogin)}${cost.measured === 'hash' ? ' (hash)' : ''}`,
    formatNumber(cost.loginsPerSecondPerCore),
    cost.stallMs === undefined ? 'not measured' : formatNumber(cost.stallMs),
    a ? `${formatGuessRate(a.guessesPerSecond)}${mark}` : 'no reference',
    a ? formatNumber(a.gpuDaysPerWordList) : '',
  ]
}

/** Where each attacker figure comes from: one line per algorithm the costs use. */
export function referenceLines(costs: readonly SettingCost[]): string[] {
  const used = new Set(costs.flatMap((c) => (c.attacker ? [c.attacker.reference.algorithm] : [])))
  return Object.values(GUESS_RATE_REFERENCES)
    .filter((r) => used.has(r.algorithm))
    .map(
      (r) =>
        `${r.algorithm}: ${formatGuessRate(r.guessesPerSecond)} at ${r.settingText}, ${r.card}, ${r.tool} mode ${r.hashcatMode} (${r.source})`,
    )
}

/** The settings whose attacker estimate is not linear, each with why and which way the real rate lies. */
export function nonLinearLines(costs: readonly SettingCost[]): string[] {
  const seen = new Map<string, string>()
  for (const c of costs) if (c.attacker && !c.attacker.linear) seen.set(c.params, c.attacker.note)
  return [...seen].map(([params, note]) => `${params}: ${note}`)
}

/** The costs as plain text columns for a terminal. */
export function costsText(costs: readonly SettingCost[]): string[] {
  const rows = [[...COST_HEADERS], ...sortedCosts(costs).map(costCells)]
  const widths = COST_HEADERS.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)))
  return rows.map((r) =>
    r
      .map((cell, i) => (i >= 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  )
}
