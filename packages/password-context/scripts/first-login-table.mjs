#!/usr/bin/env node
// Writes the first-login cost table of MOVING-IN.md from a results file of first-login-cost.mjs,
// between its `<!-- first-login-cost -->` and `<!-- /first-login-cost -->` markers, with the run's
// provenance under it, and formats the guide. The figures come only from that file.
//
//   node packages/password-context/scripts/first-login-table.mjs [results/first-login-cost.json]
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = dirname(fileURLToPath(import.meta.url))
const GUIDE = join(HERE, '..', 'MOVING-IN.md')
const file = process.argv[2] ?? join(HERE, '..', 'results', 'first-login-cost.json')
const results = JSON.parse(readFileSync(file, 'utf8'))
const { environment: env } = results

const lines = [
  '| stack | stored format at its defaults | CPU ms per verify (median, min–max) |',
  '| --- | --- | --- |',
  ...results.rows.map(
    (r) => `| ${r.stack} | ${r.format} | ${r.cpuMs.median} (${r.cpuMs.min}–${r.cpuMs.max}) |`,
  ),
  '',
  `- Machine: ${env.cpu}, ${env.cores} cores, ${env.os}; load average at start ${env.loadAverageAtStart.map((x) => x.toFixed(2)).join(', ')}.`,
  `- Runtime: ${env.runtime} (OpenSSL ${env.openssl}); commit ${env.commit?.slice(0, 7) ?? 'unknown'}, ${env.date.slice(0, 10)}.`,
  `- Run: ${results.rounds} verifies per row after ${results.warmup} discarded, one at a time ([\`scripts/first-login-cost.mjs\`](scripts/first-login-cost.mjs)).`,
  `- Method: ${results.measures}; results in [\`${relative(join(HERE, '..'), file)}\`](${relative(join(HERE, '..'), file)}).`,
]
const guide = readFileSync(GUIDE, 'utf8')
const block = /<!-- first-login-cost -->\n[\s\S]*?<!-- \/first-login-cost -->/
if (!block.test(guide)) throw new Error(`${GUIDE} has no <!-- first-login-cost --> block`)
writeFileSync(
  GUIDE,
  guide.replace(block, `<!-- first-login-cost -->\n${lines.join('\n')}\n<!-- /first-login-cost -->`),
)
// The repository's formatter aligns the table's columns, as `biome ci` expects them.
execFileSync('npx', ['biome', 'format', '--write', GUIDE], {
  cwd: join(HERE, '..', '..', '..'),
  stdio: 'ignore',
})
console.log(`wrote the first-login cost table of ${relative(process.cwd(), GUIDE)} from ${file}`)
