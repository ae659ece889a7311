#!/usr/bin/env node
// Publishes the last store-matrix test run: copies .last-run/ (written by every `vitest run`, git-ignored)
// into the committed results/ and embeds the matrix in the README between its markers. Tests never
// write committed files, so a checkout stays clean after `npm test`; publishing is this explicit step.
import { cp, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..')
const lastRun = join(root, '.last-run')
const results = join(root, 'results')
const readme = join(root, 'README.md')
const [start, end] = ['<!-- store-matrix:start -->', '<!-- store-matrix:end -->']

try {
  await stat(join(lastRun, 'store-matrix.md'))
} catch {
  console.error(`${lastRun} holds no run yet: run \`npx vitest run apps/store-matrix\` first`)
  process.exit(1)
}
await cp(lastRun, results, { recursive: true })
const markdown = await readFile(join(lastRun, 'store-matrix.md'), 'utf8')
const text = await readFile(readme, 'utf8')
if (!text.includes(start) || !text.includes(end)) {
  console.error(`${readme} lacks the ${start} … ${end} markers`)
  process.exit(1)
}
// The matrix's own title would duplicate the README section heading; its subsections move down a level.
const body = markdown.replace(/^# .*\n/, '').replaceAll(/^## /gm, '### ')
await writeFile(
  readme,
  `${text.slice(0, text.indexOf(start) + start.length)}\n${body}\n${text.slice(text.indexOf(end))}`,
)
console.log(`published ${lastRun} → ${results} and README.md`)
