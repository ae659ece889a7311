/** The costs table in words: src/advice/cost-lines.ts decides each cell. */
import { ATTACKER_CARDS, formatGuessRate, GUESS_RATE_REFERENCES, WORD_LIST_SIZE } from '@authlab/core'
import { type CostLine, RUNTIME_COLUMNS, type RuntimeCell } from '../advice/cost-lines.js'
import { formatNumber } from './format.js'

const WORDS = WORD_LIST_SIZE.toExponential().replace('e+', '×10^')
/** "NVIDIA GeForce RTX 4090" → "RTX 4090". */
const shortCard = (card: string) => card.replace(/^NVIDIA GeForce /, '')
const [FIRST_CARD, ...OTHER_CARDS] = ATTACKER_CARDS.map((c) => shortCard(c.card))

const RUNTIME_NAMES: Record<(typeof RUNTIME_COLUMNS)[number], string> = { bun: 'Bun', workerd: 'workerd' }

export const COST_HEADERS = [
  'hasher',
  'parameters',
  "OWASP's floor",
  'runs on',
  'CPU ms per login, Node',
  ...RUNTIME_COLUMNS.map((r) => RUNTIME_NAMES[r]),
  'longest 1 ms timer wait, ms',
  ...ATTACKER_CARDS.map((c) => `guesses/s per ${shortCard(c.card)}`),
  `${FIRST_CARD}-days per ${WORDS} guesses`,
  `$ per ${WORDS} guesses, rented`,
] as const

/** The first column that holds a figure (right-aligned from here on). */
export const FIRST_FIGURE_COLUMN = 4

/** A dash where a hasher does not run (the reason is listed under the table), or its CPU ms. */
function runtimeText(cell: RuntimeCell): string {
  if (cell.kind === 'ms') return formatNumber(cell.ms)
  return cell.kind === 'absent' ? '—' : 'not measured'
}

/** The cheapest rented card for the whole word list, spot price: "$164 (RTX 4090)". */
function dollarsText(line: CostLine): string {
  const cheapest = [...line.cards].sort((a, b) => a.dollarsSpot - b.dollarsSpot)[0]
  return cheapest ? `$${formatNumber(cheapest.dollarsSpot)} (${shortCard(cheapest.card)})` : ''
}

/** A table cell per column of `COST_HEADERS`; a non-linear attacker estimate is marked with "†". */
export function costCells(line: CostLine): string[] {
  const mark = (linear: boolean) => (linear ? '' : ' †')
  const card = (name: string) => {
    const found = line.cards.find((c) => shortCard(c.card) === name)
    if (found) return `${formatGuessRate(found.estimate.guessesPerSecond)}${mark(found.estimate.linear)}`
    return line.cards.length > 0 ? 'no published figure' : 'no reference'
  }
  const node = line.node
  return [
    line.label,
    line.params,
    line.meetsFloor ? 'yes' : 'below',
    line.runsOn,
    node
      ? `${formatNumber(node.ms)}${node.measured === 'hash' ? ' (hash)' : ''}`
      : line.nodeAbsent
        ? '—'
        : 'not measured',
    ...RUNTIME_COLUMNS.map((r) => runtimeText(line.runtimes[r])),
    line.stallMs === undefined ? 'not measured' : formatNumber(line.stallMs),
    card(FIRST_CARD as string),
    ...OTHER_CARDS.map(card),
    line.attacker ? formatNumber(line.attacker.gpuDaysPerWordList) : '',
    dollarsText(line),
  ]
}

/** Why each dash of the runtime columns is a dash: one line per runtime and reason, naming the hashers. */
export function absentLines(lines: readonly CostLine[]): string[] {
  const columns = [
    { name: 'Node', reasonOf: (l: CostLine) => l.nodeAbsent },
    ...RUNTIME_COLUMNS.map((r) => ({
      name: RUNTIME_NAMES[r],
      reasonOf: (l: CostLine) => {
        const cell = l.runtimes[r]
        return cell.kind === 'absent' ? cell.reason : undefined
      },
    })),
  ]
  return columns.flatMap(({ name, reasonOf }) => {
    const byReason = new Map<string, Set<string>>()
    for (const line of lines) {
      const reason = reasonOf(line)
      if (reason !== undefined) byReason.set(reason, (byReason.get(reason) ?? new Set()).add(line.label))
    }
    return [...byReason].map(([reason, labels]) => `not in ${name}: ${[...labels].join(', ')}: ${reason}`)
  })
}

/** Where each attacker figure and price comes from: one line per card and algorithm the lines use. */
export function referenceLines(lines: readonly CostLine[]): string[] {
  const used = new Set(
    lines.flatMap((l) => l.cards.map((c) => `${c.card}\u0000${c.estimate.reference.algorithm}`)),
  )
  const figures = ATTACKER_CARDS.flatMap(({ card, references }) =>
    Object.values(references)
      .filter((r) => used.has(`${card}\u0000${r.algorithm}`))
      .map(
        (r) =>
          `${r.algorithm}: ${formatGuessRate(r.guessesPerSecond)} at ${r.settingText}, ${r.card}, ${r.tool} mode ${r.hashcatMode} (${r.source})`,
      ),
  )
  const missing = Object.keys(GUESS_RATE_REFERENCES).flatMap((algorithm) =>
    ATTACKER_CARDS.filter((c) => !c.references[algorithm as keyof typeof GUESS_RATE_REFERENCES]).map(
      (c) => `${algorithm}: no ${shortCard(c.card)} figure is published yet; its column says so`,
    ),
  )
  const prices = ATTACKER_CARDS.map(
    ({ rental: r }) =>
      `${shortCard(r.card)} rented: $${r.spotPerHour}/h spot, $${r.onDemandPerHour}/h on demand, ${r.provider} on ${r.date} (${r.source}); the $ column takes the cheaper card at its spot price`,
  )
  return [...figures, ...missing, ...prices]
}

/** The settings whose attacker estimate is not linear, each with why and which way the real rate lies. */
export function nonLinearLines(lines: readonly CostLine[]): string[] {
  const seen = new Map<string, string>()
  for (const l of lines) if (l.attacker && !l.attacker.linear) seen.set(l.params, l.attacker.note)
  return [...seen].map(([params, note]) => `${params}: ${note}`)
}

/** The costs as plain text columns for a terminal. */
export function costsText(lines: readonly CostLine[]): string[] {
  const rows = [[...COST_HEADERS], ...lines.map(costCells)]
  const widths = COST_HEADERS.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length)))
  return rows.map((r) =>
    r
      .map((cell, i) =>
        i >= FIRST_FIGURE_COLUMN ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  )
}
