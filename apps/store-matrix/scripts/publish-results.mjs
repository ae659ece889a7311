#!/usr/bin/env node
// Publishes the last test run into the committed results/: every `vitest run` of this app writes only
// to .last-run/ (git-ignored), so a checkout stays clean after `npm test`, and publishing is this
// explicit step. Per section:
// - the matrix (stores/, store-matrix.json/.md, and the README between its markers) only when the last
//   run recorded every store the committed results have, so a one-store run never shrinks the matrix;
// - the fault and logout-race columns (faults/, races/): one file per store, each copied as it is;
// - the cluster's fault column (cluster/, written by scripts/cluster-faults.mjs, which `--cluster`
//   runs first: about 10 minutes, too long for `npm test`), and the README's cluster figures rendered
//   from it (scripts/cluster-table.mjs).
import { execFileSync } from 'node:child_process'
import { cp, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { renderClusterBlocks } from './cluster-table.mjs'

const root = join(import.meta.dirname, '..')
const lastRun = join(root, '.last-run')
const results = join(root, 'results')
const readme = join(root, 'README.md')
const [start, end] = ['<!-- store-matrix:start -->', '<!-- store-matrix:end -->']

const jsonFiles = async (folder) =>
  (await readdir(folder).catch(() => [])).filter((name) => name.endsWith('.json')).sort()
const exists = (path) =>
  stat(path).then(
    () => true,
    () => false,
  )

if (process.argv.includes('--cluster'))
  execFileSync(process.execPath, [join(root, 'scripts/cluster-faults.mjs')], { stdio: 'inherit' })

const published = []
for (const column of ['faults', 'races', 'cluster']) {
  for (const name of await jsonFiles(join(lastRun, column))) {
    await cp(join(lastRun, column, name), join(results, column, name))
    published.push(`${column}/${name}`)
  }
}

// The README's cluster figures, rendered from the committed cluster.json (new or not), never typed.
if (published.includes('cluster/cluster.json')) {
  const cluster = JSON.parse(await readFile(join(results, 'cluster/cluster.json'), 'utf8'))
  await writeFile(readme, renderClusterBlocks(await readFile(readme, 'utf8'), cluster))
  published.push('the cluster figures in README.md')
}

const recorded = await jsonFiles(join(lastRun, 'stores'))
const committed = await jsonFiles(join(results, 'stores'))
const missing = committed.filter((name) => !recorded.includes(name))
if (recorded.length > 0 && missing.length === 0 && (await exists(join(lastRun, 'store-matrix.md')))) {
  for (const name of recorded) await cp(join(lastRun, 'stores', name), join(results, 'stores', name))
  for (const name of ['store-matrix.json', 'store-matrix.md'])
    await cp(join(lastRun, name), join(results, name))
  const markdown = await readFile(join(lastRun, 'store-matrix.md'), 'utf8')
  const text = await readFile(readme, 'utf8')
  if (!text.includes(start) || !text.includes(end))
    throw new Error(`${readme} lacks the ${start} … ${end} markers`)
  // The matrix's own title would duplicate the README section heading; its subsections move down a level.
  const body = markdown.replace(/^# .*\n/, '').replaceAll(/^## /gm, '### ')
  await writeFile(
    readme,
    `${text.slice(0, text.indexOf(start) + start.length)}\n${body}\n${text.slice(text.indexOf(end))}`,
  )
  published.push('the matrix (stores/, store-matrix.json, store-matrix.md, README.md)')
} else if (recorded.length > 0) {
  console.log(
    `matrix not published: the last run lacks ${missing.join(', ')} (run every store: npx vitest run apps/store-matrix)`,
  )
}
console.log(published.length > 0 ? `published: ${published.join(', ')}` : `nothing to publish in ${lastRun}`)
