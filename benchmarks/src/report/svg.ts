import type { SuiteRecord } from '../results/results.js'
import type { Row } from '../types.js'
import { formatNumber, formatRatio, groupRows, isWarning } from './format.js'

const WIDTH = 1040
const LABEL_WIDTH = 290
const BAR_WIDTH = 470
const ROW_HEIGHT = 22
const GROUP_GAP = 34
// Okabe–Ito colors: distinguishable with the common color-vision deficiencies.
const COLOR = { bar: '#0072b2', baseline: '#999999', noisy: '#e69f00', whisker: '#222222', unity: '#d55e00' }

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

interface Bar {
  readonly row: Row
  readonly value: number | undefined
  /** The whisker's ends (the 95 % interval across rounds, or value ± rme); equal to value when none. */
  readonly low: number
  readonly high: number
  /** Printed instead of a number when the ratio is undecided or inside the noise floor. */
  readonly words?: string
  /** Named on the bar when the rows of a group divide by different baselines. */
  readonly baseline?: string
}

/**
 * A group charts each row's first ratio when any row has one (> 1 is better; in "defaults" each
 * hasher divides by the native implementation of its own algorithm), otherwise the raw value.
 */
function barsOf(rows: readonly Row[]): { bars: Bar[]; axis: string; ratio: boolean } {
  const baselines = new Set(rows.flatMap((r) => r.ratios.slice(0, 1).map((q) => q.baseline)))
  if (baselines.size > 0) {
    const mixed = baselines.size > 1
    const bars = rows.map((row) => {
      const q = row.ratios[0]
      if (!q) return { row, value: undefined, low: 0, high: 0 }
      const words = q.verdict === 'different' ? undefined : formatRatio(q)
      return {
        row,
        value: q.value,
        low: q.low,
        high: q.high,
        ...(words ? { words } : {}),
        ...(mixed ? { baseline: q.baseline } : {}),
      }
    })
    const against = mixed ? 'each row’s baseline' : [...baselines][0]
    return { bars, axis: `× vs ${against} (higher is better)`, ratio: true }
  }
  const unit = rows[0]?.unit ?? ''
  const better = rows[0]?.higherIsBetter ? 'higher' : 'lower'
  return {
    bars: rows.map((row) => {
      const rme = (row.rme ?? 0) / 100
      return { row, value: row.value, low: row.value * (1 - rme), high: row.value * (1 + rme) }
    }),
    axis: `${unit} (${better} is better)`,
    ratio: false,
  }
}

/**
 * One horizontal bar chart per suite, a section per group: each bar is the ratio to the group's
 * baseline (or the raw figure when a group has none) with a whisker of ± its relative margin of error.
 * Plain SVG with no scripts or external fonts, so GitHub renders it inline.
 */
export function renderSvg(suite: SuiteRecord): string {
  const parts: string[] = []
  let y = 40
  for (const [group, rows] of groupRows(suite.rows)) {
    const { bars, axis, ratio } = barsOf(rows)
    // Scaled to the bars, not the whiskers: a very wide interval must not squash the others; its whisker is clipped.
    const reach = Math.max(ratio ? 1 : 0, ...bars.map((b) => b.value ?? 0)) * 1.15
    const scale = reach > 0 ? BAR_WIDTH / reach : 0
    const clip = (x: number) => Math.min(Math.max(x, LABEL_WIDTH), LABEL_WIDTH + BAR_WIDTH)
    parts.push(`<text x="10" y="${y}" font-weight="bold">${xml(group)} — ${xml(axis)}</text>`)
    y += 10
    const top = y
    for (const { row, value, low, high, words, baseline } of bars) {
      const mid = y + ROW_HEIGHT / 2
      parts.push(`<text x="${LABEL_WIDTH - 8}" y="${mid + 4}" text-anchor="end">${xml(row.label)}</text>`)
      if (value === undefined) {
        parts.push(`<text x="${LABEL_WIDTH + 4}" y="${mid + 4}" fill="#666">no baseline in this run</text>`)
      } else {
        const warned = row.flags.some(isWarning)
        // Undecided and within-noise ratios are drawn grey: a bar is a finding only when it is decided.
        const fill = warned
          ? COLOR.noisy
          : words || row.flags.includes('baseline')
            ? COLOR.baseline
            : COLOR.bar
        const w = value * scale
        const lo = clip(LABEL_WIDTH + low * scale)
        const hi = clip(LABEL_WIDTH + high * scale)
        parts.push(
          `<rect x="${LABEL_WIDTH}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW_HEIGHT - 6}" fill="${fill}"/>`,
        )
        if (high > low) {
          parts.push(
            `<path d="M${lo.toFixed(1)} ${mid}H${hi.toFixed(1)}M${lo.toFixed(1)} ${mid - 4}V${mid + 4}M${hi.toFixed(1)} ${mid - 4}V${mid + 4}" stroke="${COLOR.whisker}" stroke-width="1.2"/>`,
          )
        }
        const figure = ratio
          ? `${value.toFixed(2)}× [${low.toFixed(2)}–${high.toFixed(2)}]`
          : formatNumber(value)
        const text = `${words ?? figure}${warned ? ' (⚠)' : ''}${baseline ? ` vs ${baseline}` : ''}`
        parts.push(
          `<text x="${(Math.max(LABEL_WIDTH + w, hi) + 6).toFixed(1)}" y="${mid + 4}">${xml(text)}</text>`,
        )
      }
      y += ROW_HEIGHT
    }
    if (ratio) {
      const x = (LABEL_WIDTH + scale).toFixed(1)
      parts.push(
        `<line x1="${x}" y1="${top}" x2="${x}" y2="${y}" stroke="${COLOR.unity}" stroke-dasharray="4 3"/>`,
      )
    }
    y += GROUP_GAP
  }
  const height = y
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="20" font-size="15" font-weight="bold">authlab bench: ${xml(suite.name)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n')
}
