import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { costLines } from '../src/advice/cost-lines.js'
import { guessesPerLoginCost, settingCosts } from '../src/advice/costs.js'
import { runtimeClaims } from '../src/discover/runtime-claims.js'
import type { ResultsFile } from '../src/model/types.js'
import { tradeOffCharts } from '../src/report/advice-chart-files.js'
import { adviceRows } from '../src/report/advice-table.js'
import { costsText } from '../src/report/costs-table.js'
import { renderRunHtml } from '../src/report/files.js'
import { figureBlocks } from '../src/report/readme-blocks.js'
import { renderAdvice } from '../src/report/terminal-advice.js'
import { readResults } from '../src/stats/decide.js'
import { reportOptions } from './fixtures.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (file: string) => readResults(join(ROOT, file))
const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const adviceBlock = figureBlocks(README).find((b) => b.kind === 'advice')
const runs = (adviceBlock?.files ?? []).map(read)
const claims = runtimeClaims(ROOT)
const adviceTerminal = (results: ResultsFile, wide = false) =>
  renderAdvice(results, claims, { color: false, wide })

describe('the README leads with advice generated from committed runs', () => {
  test('its first 40 lines hold the "which to use" table and the trade-off chart; the platforms follow', () => {
    const first = README.split('\n').slice(0, 40).join('\n')
    expect(first).toContain(' advice -->')
    expect(first).toMatch(/\| session IDs in express-session /)
    expect(first).toMatch(/!\[[^\]]+\]\(benchmarks\/results\/[^)]+-advice-trade-off\.svg\)/)
    const block = README.split('\n').slice(0, 60).join('\n')
    expect(block).toMatch(/\*\*Where the login runs\*\*\n\n\| where the login runs /)
    expect(block).toContain('<!-- /figures -->')
  })

  // The README's text is checked by figures.test.ts (every block agrees with its results files).
  test('the chart it links is the one its runs draw (npm run figures)', async () => {
    const charts = await tradeOffCharts(README, read)
    expect(charts.length).toBeGreaterThan(0)
    for (const { file, svg } of charts) expect(readFileSync(join(ROOT, file), 'utf8')).toBe(svg)
  })

  test('every need names what to use with a measured figure and a cost', () => {
    const rows = adviceRows(runs)
    expect(rows.map((r) => r.need)).toEqual([
      'session IDs in express-session',
      'session IDs in @fastify/session',
      'session IDs in NestJS',
      'session IDs in Hono (@hono/session)',
      'session IDs in Koa (koa-session)',
      'session IDs in Nuxt (h3) and Auth.js',
      'session IDs in better-auth',
      'password hashing on a server with cores to spare',
      'password hashing on one vCPU',
      'moving users off bcrypt',
      "moving users off better-auth's scrypt",
    ])
    for (const row of rows) {
      expect(row.use).not.toMatch(/not measured/)
      expect(row.why).toMatch(/\d/)
      expect(row.cost).toMatch(/\d/)
    }
  })
})

describe('costs per login and per guess', () => {
  const costs = settingCosts(runs)

  test('logins/s per core is 1000 ÷ CPU ms; a verify is preferred to a hash', () => {
    for (const c of costs) expect(c.loginsPerSecondPerCore).toBeCloseTo(1000 / c.cpuMsPerLogin, 9)
    const native = costs.find((c) => c.candidate === '@authlab/hash-bcrypt')
    expect(native?.measured).toBe('verify')
  })

  test('the event-loop stall is the lag row of the same candidate at the same parameters only', () => {
    // The lag suite runs node:crypto scrypt at its own defaults, not at better-auth's N=2^14 r=16.
    const scrypt = costs.find(
      (c) => c.candidate === '@authlab/hash-scrypt' && c.params.startsWith('scrypt ln=14'),
    )
    expect(scrypt?.stallMs).toBeUndefined()
    const bcryptjs = costs.find((c) => c.candidate === '@authlab/hash-bcryptjs')
    expect(bcryptjs?.stallMs).toBeGreaterThan(10)
  })

  test('every setting of the four algorithms has an attacker estimate with a source', () => {
    for (const c of costs) {
      expect(c.attacker?.reference.source).toMatch(/^https:\/\//)
      expect(guessesPerLoginCost(c)).toBeGreaterThan(0)
    }
    expect(costsText(costLines(runs, claims))[0]).toMatch(/^hasher\s+parameters/)
  })

  test('without an http run the express row says it was not measured, it does not guess', () => {
    const withoutHttp = runs.filter((r: ResultsFile) => !r.run.suites.includes('http'))
    const express = adviceRows(withoutHttp)[0]
    expect(express?.why).toBeUndefined()
  })
})

describe('the terminal and the HTML report of a run lead with the same advice', () => {
  const latest = runs.find((r) => r.run.suites.includes('hash')) as ResultsFile

  test('the terminal prints the rows the run answers, and every setting’s costs under --wide', () => {
    const text = adviceTerminal(latest)
    expect(text).toMatch(/^Which to use, from this run/)
    // What to use and its cost's first clause, one entry a need, wrapped to the width; why under --wide.
    const flat = text.replace(/\n {4}/g, ' ')
    for (const row of adviceRows([latest]).filter((r) => r.why !== undefined)) {
      expect(flat).toContain(`${row.need}: ${row.use} · ${row.cost?.split('; ')[0]}\n`)
      expect(adviceTerminal(latest, true)).toContain(`    why: ${row.why}\n`)
    }
    for (const line of text.split('\n')) expect([...line].length).toBeLessThanOrEqual(100)
    expect(text).not.toContain('What each hasher setting costs:')
    expect(adviceTerminal(latest, true)).toMatch(/What each hasher setting costs:\n {2}hasher/)
  })

  test('the HTML report opens with the advice table and the trade-off chart', async () => {
    const html = await renderRunHtml(latest, await reportOptions())
    const advice = html.indexOf('Which to use, from this run')
    expect(advice).toBeGreaterThan(0)
    expect(html.indexOf('advice-trade-off')).toBeGreaterThan(advice)
    expect(html.match(/<h2>([^<]*)<\/h2>/)?.[1]).toBe('Which to use, from this run')
  })

  test('a run of no hash or id suite prints no advice', () => {
    expect(adviceTerminal({ ...latest, suites: [] })).toBe('')
  })
})
