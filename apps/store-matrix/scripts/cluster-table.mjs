// The README's cluster figures, rendered from results/cluster/cluster.json (scripts/cluster-faults.mjs):
// publish-results writes them between the README's `<!-- cluster-…:start -->` / `<!-- cluster-…:end -->`
// markers, and test/cluster-readme.test.ts checks that the committed README says what the committed
// JSON says, so no figure there is typed by hand.

/** A Markdown table with padded columns (the layout Biome's Markdown formatting keeps). */
function table(header, rows) {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => String(row[i]).length)))
  const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(widths[i])).join(' | ')} |`
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n')
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
/** Recovery at the client: none failed, the last failure's send time, or still failing at the end. */
const recovery = (report) =>
  report.failedAfterFault === 0
    ? '—'
    : report.recoveryMs === null
      ? 'not within the window'
      : seconds(report.recoveryMs)
const lost = (report) => `${report.lost > 0 ? `**${report.lost}**` : report.lost} of ${report.acknowledged}`
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const range = (values, digits) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`

/** The client row set a report belongs to (scripts/cluster-faults.mjs CLIENTS). */
export function clientLabel(report) {
  if (report.client === 'ioredis') return 'ioredis 6 (store adapter)'
  return report.refreshOnFailure ? 'node-redis 6 + slot-map rebuild' : 'node-redis 6 as shipped'
}
const CLIENT_ORDER = [
  'node-redis 6 as shipped',
  'node-redis 6 + slot-map rebuild',
  'ioredis 6 (store adapter)',
]
const clientsIn = (reports) => CLIENT_ORDER.filter((label) => reports.some((r) => clientLabel(r) === label))

/** The main column: every client × fault × pattern, the old master back at once. */
export function faultTable(results) {
  const rows = results.faults
    .filter((r) => r.keepDownMs === 0)
    .map((r) => [clientLabel(r), r.fault, r.pattern, r.crashes, lost(r), r.failedAfterFault, recovery(r)])
  return table(
    ['client', 'fault', 'pattern', 'crashes', 'lost', 'failed requests', 'recovery at the client'],
    rows,
  )
}

/** Per client: the main column summed (lost, failed) and its worst recovery, and the kept-down kill. */
export function clientTable(results) {
  const rows = clientsIn(results.faults).map((label) => {
    const mine = results.faults.filter((r) => clientLabel(r) === label)
    const main = mine.filter((r) => r.keepDownMs === 0)
    const kept = mine.find((r) => r.keepDownMs > 0)
    const sum = (key) => main.reduce((total, r) => total + r[key], 0)
    const recoveries = main.filter((r) => r.failedAfterFault > 0).map((r) => r.recoveryMs)
    const worst = recoveries.includes(null)
      ? 'not within the window'
      : recoveries.length === 0
        ? '—'
        : seconds(Math.max(...recoveries))
    return [
      label,
      main.length,
      sum('crashes'),
      lost({ lost: sum('lost'), acknowledged: sum('acknowledged') }),
      sum('failedAfterFault'),
      worst,
      kept ? `${kept.failedAfterFault} failed, ${recovery(kept)}` : '—',
    ]
  })
  return table(
    [
      'client',
      'runs',
      'crashes',
      'lost',
      'failed requests',
      'worst recovery',
      'kill, old master kept down 10 s (save-before-reply)',
    ],
    rows,
  )
}

/** Where, when, on what and under which load the figures were measured (a run in parts: their range). */
export function measuredOn(results) {
  const env = results.environment
  const commit = `${env.commit.slice(0, 7)}${env.dirty ? ' with uncommitted changes' : ''}`
  const ports = results.cluster?.ports ? `, nodes on 127.0.0.1:${results.cluster.ports.join(',')}` : ''
  const parts = results.parts ?? []
  const loads = parts.map((part) => part.loadAverage)
  const dates = parts.map((part) => part.startedAt).sort()
  const when =
    parts.length > 0
      ? `load average ${range(loads, 2)} at the starts of its ${parts.length} parts; ${dates[0].slice(0, 16).replace('T', ' ')}–${dates.at(-1).slice(11, 16)} UTC`
      : `load average ${env.loadAverage[0].toFixed(2)} at the start; ${env.date.slice(0, 16).replace('T', ' ')} UTC`
  return (
    `Measured on ${env.cpu}, ${env.cores} cores, ${env.os}, ${env.runtime}, ${results.redisServer.replace(/ sha=.*/, '')}${ports}; ` +
    `commit ${commit}; ${when}; ` +
    '[`results/cluster/cluster.json`](results/cluster/cluster.json).'
  )
}

/** A read while writes wait on WAIT, per client (scripts/cluster-faults.mjs waitReadPart). */
function waitReadLines(waitReads) {
  if (waitReads === undefined) return []
  const clients = Object.entries(waitReads).map(([client, trials]) => {
    const answered = trials.filter((t) => t.readError === undefined && t.readBeforeWrites).length
    const reads = trials.map((t) => t.readMs)
    const writes = trials.map((t) => t.writesSettledMs)
    return `${client} ${median(reads).toFixed(1)} ms (${range(reads, 1)}; ${answered} of ${trials.length} answered before the writes settled, ${median(writes).toFixed(0)} ms after they were sent)`
  })
  return [
    '- A read of an existing session sent 100 ms after two writes to its master whose `WAIT 2 1500` cannot be satisfied',
    `  (median of the trials, range in brackets): ${clients.join('; ')}.`,
  ]
}

/** WAIT's price when healthy and the logout race across processes, as sentences. */
export function otherFigures(results) {
  const { waitCost, races } = results
  const p = (mode, key) => waitCost[mode].map((round) => round[key])
  const cost = (key, digits) =>
    `${median(p('without', key)).toFixed(digits)} ms → ${median(p('with', key)).toFixed(digits)} ms ` +
    `(${range(p('without', key), 2)} → ${range(p('with', key), 2)})`
  const race = (guard, variant) => races.find((r) => r.guard === guard && r.variant === variant)
  const came = (r) => `${r.resurrected} of ${r.trials}${r.failed > 0 ? ` (${r.failed} failed)` : ''}`
  return [
    `- WAIT's price when healthy, through the store API (sequential \`store.set\`, ${waitCost.rounds} alternating rounds of ${waitCost.setsPerRound}, \`WAIT 1 ${waitCost.waitTimeoutMs}\`; median of the rounds, range in brackets):`,
    `  p50 ${cost('p50Ms', 2)}, p99 ${cost('p99Ms', 1)}.`,
    `- Logout across the 4 processes: without the guard ${came(race('none', 'writes'))} (writes) and ${came(race('none', 'read-only'))} (read-only) sessions came back;`,
    `  with @authlab/session-logout-guard and its tombstones in the cluster, ${came(race('guarded', 'writes'))} and ${came(race('guarded', 'read-only'))}.`,
    ...waitReadLines(results.waitReads),
  ].join('\n')
}

export const BLOCKS = {
  'cluster-refresh': clientTable,
  'cluster-faults': (results) => `${measuredOn(results)}\n\n${faultTable(results)}`,
  'cluster-figures': otherFigures,
}

/** `text` with every cluster block between its markers rendered from `results`. */
export function renderClusterBlocks(text, results) {
  let out = text
  for (const [name, render] of Object.entries(BLOCKS)) {
    const [start, end] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`]
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from === -1 || to < from) throw new Error(`the README lacks the ${start} … ${end} markers`)
    out = `${out.slice(0, from + start.length)}\n\n${render(results)}\n\n${out.slice(to)}`
  }
  return out
}
