import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { launchBrowser } from '@authlab/runtimes'
import { requireRuntime, skipReason } from '@authlab/runtimes/availability'
import { expect, test } from 'vitest'
import { runBench } from '../src/commands/run-bench.js'
import { findRuns, renderIndexHtml } from '../src/report/html-index.js'
import { benchOptions, capped, tempDir, tinySuites } from './fixtures.js'

const REPO = fileURLToPath(new URL('../../', import.meta.url))
/** Git-ignored; CI keeps it as an artefact. */
const ARTIFACTS = join(REPO, 'benchmarks', 'test-artifacts')

/**
 * Runs in the page: for every chart (the figures and the strips in the tables), how many marks it drew
 * with a visible area, and every text box that reaches outside its chart's box. A string, because the
 * page's DOM types are not this package's.
 */
const INSPECT = `(() => {
  const charts = [...document.querySelectorAll('figure.chart svg, td.strip svg')]
  const area = (r) => r.width > 0 || r.height > 0
  return {
    figures: document.querySelectorAll('figure.chart svg').length,
    strips: document.querySelectorAll('td.strip svg').length,
    charts: charts.map((svg) => {
      const box = svg.getBoundingClientRect()
      const marks = [...svg.querySelectorAll('g.role-mark > path, g.role-mark > line, g.role-mark > rect, g.role-mark > circle')]
        .filter((m) => area(m.getBoundingClientRect())).length
      const overflowing = [...svg.querySelectorAll('text')]
        .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
        .filter(({ r }) => area(r) && (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5))
        .map(({ text, r }) => text + ' [' + Math.round(r.left - box.left) + '..' + Math.round(r.right - box.left) + ' of ' + Math.round(box.width) + ']')
      const title = svg.closest('figure')?.querySelector('figcaption')?.textContent ?? 'strip in ' + (svg.closest('table')?.querySelector('caption')?.textContent ?? '?')
      return { title, marks, overflowing }
    }),
  }
})()`

// Outside CI a machine without Chromium skips with its reason; with CI set it fails (src/availability.mjs
// of @authlab/runtimes decides, for every browser test).
test('the HTML report of a real run, in headless Chromium: every chart drawn, no text outside its chart, no console error', async ({
  skip,
}) => {
  const reason = skipReason('chromium')
  skip(reason !== undefined, reason)
  const chromium = requireRuntime('chromium')
  if (chromium.kind !== 'browser') throw new Error('chromium resolved to a process runtime')
  // A small real run over this repository: every kind of chart (side by side, bars, lines, strips).
  const out = tempDir()
  // The quick caps, tightened: the natives every filter keeps include scrypt at N=2^17 (~0.6 s a
  // call), which no chart here needs; the caps leave it out and each kind of chart still drawn.
  const suites = await tinySuites(['ids', 'hash', 'lag', 'concurrency'], capped(300, 250))
  const { files } = await runBench(
    benchOptions(REPO, suites, out, {
      filter: 'pbkdf2',
      command: ['authlab-bench', '--suite', 'ids,hash,lag,concurrency', '--filter', 'pbkdf2'],
      seed: 3,
      toolVersions: { tinybench: 'test' },
    }),
  )
  const report = files.find((f) => f.endsWith('.html')) as string
  const json = files.find((f) => f.endsWith('.json')) as string
  // The index over two runs (the same file under a second name) exercises the compare picker.
  copyFileSync(json, json.replace(/Z-(\w+)\.json$/, 'Z-zzzzzzz.json'))
  const index = join(out, 'index.html')
  writeFileSync(
    index,
    renderIndexHtml(out, findRuns(out), {
      thresholdPct: 5,
      alpha: 0.01,
      absolute: false,
    }),
  )

  const browser = await launchBrowser(chromium, { timeoutMs: 120_000 })
  try {
    const page = await browser.newPage()
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warn') problems.push(`console ${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`))
    page.on('request', (r) => {
      if (!r.url().startsWith('file:')) problems.push(`network request: ${r.url()}`)
    })
    await page.setViewport({ width: 1280, height: 900 })
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' })
    const seen = (await page.evaluate(INSPECT)) as {
      figures: number
      strips: number
      charts: { title: string; marks: number; overflowing: string[] }[]
    }
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'run-report.png'), fullPage: true })
    // Speed and heap, ids ratios, hash groups, lag, the concurrency line chart.
    expect(seen.figures).toBeGreaterThanOrEqual(5)
    expect(seen.strips).toBeGreaterThan(10)
    expect(seen.charts.filter((c) => c.marks === 0).map((c) => c.title)).toEqual([])
    expect(seen.charts.flatMap((c) => c.overflowing.map((o) => `${c.title}: ${o}`))).toEqual([])
    expect(readFileSync(report, 'utf8')).not.toMatch(/<script/)

    await page.goto(pathToFileURL(index).href, { waitUntil: 'load' })
    await page.select('#before', '0')
    await page.select('#after', '1')
    const open = (await page.evaluate(
      `[...document.querySelectorAll('details.pair')].filter((d) => d.open).map((d) => d.id + ' ' + d.querySelector('caption').textContent)`,
    )) as string[]
    await page.screenshot({ path: join(ARTIFACTS, 'index.png'), fullPage: true })
    expect(open).toEqual([expect.stringMatching(/^pair-0-1 \d+ rows compared, 0 regression\(s\)$/)])
    expect(problems).toEqual([])
  } finally {
    await browser.close()
  }
}, 300_000)
