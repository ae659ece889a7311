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

/** The main column: every fault × pattern with the store's slot-map rebuild, the old master back at once. */
export function faultTable(results) {
  const rows = results.faults
    .filter((r) => r.refreshOnFailure && r.keepDownMs === 0)
    .map((r) => [r.fault, r.pattern, r.crashes, lost(r), r.failedAfterFault, recovery(r)])
  return table(['fault', 'pattern', 'crashes', 'lost', 'failed requests', 'recovery at the client'], rows)
}

/** node-redis alone (`refreshOnFailure: false`) beside the rebuild, and the old master kept down. */
export function refreshTable(results) {
  const rows = results.faults
    .filter((r) => !r.refreshOnFailure || r.keepDownMs > 0)
    .map((r) => [
      `${r.fault}, old master ${r.keepDownMs > 0 ? `kept down ${r.keepDownMs / 1000} s` : 'back at once'}`,
      r.refreshOnFailure ? 'slot-map rebuild (this store)' : 'node-redis alone',
      r.crashes,
      lost(r),
      r.failedAfterFault,
      recovery(r),
    ])
  return table(['fault', 'client', 'crashes', 'lost', 'failed requests', 'recovery at the client'], rows)
}

/** Where, when, on what and under which load the figures were measured. */
export function measuredOn(results) {
  const env = results.environment
  const commit = `${env.commit.slice(0, 7)}${env.dirty ? ' with uncommitted changes' : ''}`
  const ports = results.cluster?.ports ? `, nodes on 127.0.0.1:${results.cluster.ports.join(',')}` : ''
  return (
    `Measured on ${env.cpu}, ${env.cores} cores, ${env.os}, ${env.runtime}, ${results.redisServer.replace(/ sha=.*/, '')}${ports}; ` +
    `commit ${commit}; load average ${env.loadAverage[0].toFixed(2)} at the start; ${env.date.slice(0, 16).replace('T', ' ')} UTC; ` +
    '[`results/cluster/cluster.json`](results/cluster/cluster.json).'
  )
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
  ].join('\n')
}

export const BLOCKS = {
  'cluster-refresh': refreshTable,
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
