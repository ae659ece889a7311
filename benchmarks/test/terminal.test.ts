import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { findings } from '../src/advice/findings.js'
import { runtimeClaims } from '../src/discover/runtime-claims.js'
import { stderrProgress, timeLeftMs } from '../src/harness/progress.js'
import { hasFlag, type Ratio, RESULTS_FORMAT, type ResultsFile, type Row } from '../src/model/types.js'
import { findingPartText } from '../src/report/format.js'
import {
  COMPACT_WIDTH,
  renderFindings,
  renderRule,
  renderTerminal,
  useColor,
  wrap,
} from '../src/report/terminal.js'
import { renderAdvice } from '../src/report/terminal-advice.js'
import { readResults } from '../src/stats/decide.js'
import { reportOptions, syntheticResults } from './fixtures.js'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const { views } = await reportOptions()
/** Whether the compact terminal shows a row: its suite's view says. */
const inTerminal = (row: Row) => {
  const view = views(row.suite)
  return (view.summary?.(row) ?? true) && (view.terminal?.(row) ?? true)
}
const terminal = (
  suite: ResultsFile['suites'][number],
  options: { color: boolean; wide: boolean; width?: number },
) => renderTerminal(suite, views(suite.name), options)
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
const columns = (line: string) => [...line.replace(ANSI, '')].length

/** Real runs: the recorded ids runs and every committed run in the current format. */
function realRuns(): { file: string; results: ResultsFile }[] {
  const dirs = [join(HERE, 'recorded'), join(HERE, '..', 'results')]
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(dir, f))
      .flatMap((file) => {
        try {
          return [{ file, results: readResults(file) }]
        } catch {
          return [] // an older format: its rows lack what the terminal prints now
        }
      }),
  )
}

describe('compact terminal', () => {
  const runs = realRuns()

  test('real runs in the current format are at hand', () => {
    expect(runs.length).toBeGreaterThanOrEqual(3)
    expect(runs.every((r) => r.results.format === RESULTS_FORMAT)).toBe(true)
  })

  test.each([
    [COMPACT_WIDTH, false],
    [COMPACT_WIDTH, true],
    [80, false],
  ])('every line of every real suite fits %i columns (color %s)', (width, color) => {
    for (const { file, results } of runs) {
      for (const suite of results.suites) {
        const text = terminal(suite, { color, wide: false, width })
        const wide = text.split('\n').filter((l) => columns(l) > width)
        expect(wide, `${file} ${suite.name}`).toEqual([])
        // Every row a summary shows is there, each with its one-word verdict where it has a ratio.
        for (const row of suite.rows.filter(inTerminal)) expect(text).toContain(row.label.slice(0, 12))
      }
    }
  })

  test('--wide prints every column: baselines, details and flags', () => {
    const [ids] = syntheticResults().suites
    if (!ids) throw new Error('fixture has an ids suite')
    const wide = terminal(ids, { color: false, wide: true })
    const compact = terminal(ids, { color: false, wide: false })
    expect(wide).toContain('ns/ID')
    expect(wide).toContain('measurement error: above its limit')
    expect(compact).not.toContain('ns/ID')
    expect(compact).toMatch(/randomInt \| per char .* suspect/)
    expect(compact).toMatch(/authlab fast <&> .*2\.50× \[[\d.]+–[\d.]+\]\s+better/)
  })

  test('wrapping never parts a figure from its unit', () => {
    const text = 'authlab fast against the default: same (±10 %), one 290 ms hash blocks'
    for (let width = 12; width <= 80; width++) {
      const lines = wrap(text, width, '  ')
      expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(text)
      expect(lines.some((l) => /\d$/.test(l.trimEnd()) && !l.endsWith('…'))).toBe(false)
    }
  })

  test('colour follows NO_COLOR and FORCE_COLOR, then whether stdout is a terminal', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true)
    expect(useColor({ isTTY: false }, {})).toBe(false)
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false)
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true)
    expect(useColor({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(true)
    expect(useColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(true)
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '0' })).toBe(false)
  })
})

describe('progress', () => {
  test('time left follows the pace of the recent steps, not of the whole suite', () => {
    // 80 quick rounds of 0.5 s, then slow steps of 5 s (the retained-heap measurements).
    const durations = [...Array.from({ length: 80 }, () => 500), 5_000, 5_000, 5_000]
    // The whole suite's mean pace would say 7 × 0.67 s ≈ 4.7 s for the 7 steps left.
    const left = timeLeftMs(durations, 7) as number
    expect(left).toBeGreaterThan(7 * 1_500)
    expect(timeLeftMs([], 10)).toBeUndefined()
    expect(timeLeftMs([1_000, 1_000, 1_000], 4)).toBe(4_000)
  })

  test('lines carry the measured estimate and never exceed the width', () => {
    let clock = 0
    const lines: string[] = []
    const progress = stderrProgress('ids', (l) => lines.push(l), { now: () => clock, width: 60 })
    progress.plan(4)
    for (const ms of [2_000, 2_000, 2_000, 0]) {
      progress.step(`round · ${'a very long candidate label '.repeat(3)}`)
      clock += ms
    }
    expect(lines[0]).toMatch(/^\[ids 1\/4\] /)
    expect(lines[1]).toMatch(/^\[ids 2\/4 · ~6s left at this pace\] /)
    expect(lines[3]).toMatch(/^\[ids 4\/4 · ~2s left at this pace\] /)
    expect(lines.every((l) => [...l.trimEnd()].length <= 60)).toBe(true)
  })

  test('steps past the plan are extra rounds of a race, and promise no time', () => {
    let clock = 0
    const lines: string[] = []
    const progress = stderrProgress('ids-in-fastify', (l) => lines.push(l), { now: () => clock })
    progress.plan(2)
    for (const round of [1, 2, 3]) {
      progress.step(`round ${round}`)
      clock += 1_000
    }
    expect(lines[2]).toBe('[ids-in-fastify 3/2+ · extra round: a ratio is undecided] round 3\n')
  })

  test('a note is a pause: the time until the next step is not taken for a step', () => {
    let clock = 0
    const lines: string[] = []
    const progress = stderrProgress('ids', (l) => lines.push(l), { now: () => clock })
    progress.plan(4)
    progress.step('round 1')
    clock += 1_000
    progress.step('round 2')
    clock += 1_000
    progress.note('the other suites run now')
    clock += 180_000
    progress.step('round 3')
    clock += 1_000
    progress.step('round 4')
    expect(lines.at(-1)).toMatch(/^\[ids 4\/4 · ~1s left at this pace\] /)
  })
})

describe('a run says the rule once, points to each method, and ends with what it found', () => {
  const options = { color: false, wide: false, width: COMPACT_WIDTH }
  const published = realRuns().filter(({ results }) =>
    results.suites.some((s) => s.name === 'concurrency' && s.rows.length > 0),
  )

  test('committed runs with the claims’ suites are there to read', () => {
    expect(published.length).toBeGreaterThan(0)
  })

  test('a suite prints a pointer to its method, not the method', () => {
    const record = { ...(syntheticResults().suites[0] as ResultsFile['suites'][0]), method: 'M'.repeat(500) }
    const text = terminal(record, options)
    expect(text).toContain('method: authlab-bench --explain --suite')
    expect(text).not.toContain('MMMM')
  })

  test('the verdict rule fits the width', () => {
    const lines = renderRule(options).trimEnd().split('\n')
    expect(lines.length).toBeGreaterThan(1)
    for (const line of lines) expect(columns(line)).toBeLessThanOrEqual(COMPACT_WIDTH)
  })

  test.for(published.map(({ file, results }) => [file.split('/').at(-1), results] as const))(
    '%s: one finding per claim its data answer, in the README findings’ words',
    ([, results]) => {
      const text = renderFindings(results, options)
      expect(text).toContain('What this run found')
      const found = findings([results]).map((f) => ({ ...f, parts: f.parts.map(findingPartText) }))
      const claims = text.split('\n- ').slice(1)
      expect(claims).toHaveLength(found.length)
      for (const [i, finding] of found.entries()) {
        // At most three lines a claim: the parts that fit, then how many more --wide prints.
        const claim = (claims[i] as string).trimEnd()
        expect(claim.split('\n').length).toBeLessThanOrEqual(3)
        const flat = claim.replace(/\n {2}/g, ' ')
        const shown = finding.parts.filter((part) => flat.includes(part))
        expect(shown).toEqual(finding.parts.slice(0, shown.length))
        expect(shown.length).toBeGreaterThan(0)
        const more = finding.parts.length - shown.length
        if (more > 0) expect(flat).toMatch(new RegExp(`; ${more} more: --wide\\.$`))
        else expect(flat.endsWith(`${finding.parts.join('; ')}.`)).toBe(true)
      }
      for (const line of text.split('\n')) expect(columns(line)).toBeLessThanOrEqual(COMPACT_WIDTH)
      const wide = renderFindings(results, { ...options, wide: true })
      for (const finding of found) expect(wide).toContain(` ${finding.parts.join('; ')}.`)
    },
  )
})

describe('the terminal summarises; the reports hold every table', () => {
  test('a compact table names its A/A control’s verdict in its title; --wide lists the control’s row', () => {
    const run = realRuns().find(({ results }) => results.suites.some((s) => s.name === 'hash'))
    const hash = run?.results.suites.find((s) => s.name === 'hash')
    const control = hash?.rows.find((r) => hasFlag(r, 'control') && inTerminal(r))
    if (!hash || !control) throw new Error('a committed run has a hash suite with an A/A control')
    const text = terminal(hash, { color: false, wide: false })
    expect(text).toMatch(new RegExp(`${control.group} · .* · A/A control: (same|undecided|better|worse)`))
    expect(text).not.toContain(control.label)
    expect(terminal(hash, { color: false, wide: true })).toContain(control.label)
  })

  test('the hash suite shows its defaults’ hashes and counts the tables it leaves to the reports', () => {
    const run = realRuns().find(({ results }) => results.suites.some((s) => s.name === 'hash'))
    const hash = run?.results.suites.find((s) => s.name === 'hash')
    if (!hash) throw new Error('a committed run has a hash suite')
    const text = terminal(hash, { color: false, wide: false })
    const settings = new Set(hash.rows.filter((r) => !inTerminal(r)).map((r) => r.group))
    expect(settings.size).toBeGreaterThan(0)
    for (const group of settings) expect(text).not.toContain(group)
    expect(text).toMatch(new RegExp(`--wide adds ${settings.size} tables and \\d+ notes?\\n`))
    const wide = terminal(hash, { color: false, wide: true })
    for (const group of settings) expect(wide).toContain(group)
  })
})

describe('what a default run prints', () => {
  const runs = realRuns().filter(({ results }) => results.suites.some((s) => s.name === 'ids-in-fastify'))
  const options = { color: false, wide: false, width: COMPACT_WIDTH }
  /** The whole terminal output of a run, as runBench prints it. */
  const printed = (results: ResultsFile) =>
    [
      renderRule(options),
      ...results.suites.map((s) => terminal(s, options)),
      renderAdvice(results, runtimeClaims(join(HERE, '..', '..')), options),
      renderFindings(results, options),
    ].join('')

  test('fits 120 lines, and ends with the findings', () => {
    expect(runs.length).toBeGreaterThan(0)
    for (const { file, results } of runs) {
      const lines = printed(results).trimEnd().split('\n')
      expect(lines.length, file).toBeLessThanOrEqual(120)
      expect(printed(results)).toMatch(/What this run found\n(- .*\n( {2}.*\n)*)+$/)
    }
  })

  test('every table names the baseline of each ratio: in its title, or marked and named under it', () => {
    for (const { results } of runs) {
      for (const suite of results.suites) {
        const text = terminal(suite, options)
        const shown = suite.rows.filter(inTerminal).filter((r) => !hasFlag(r, 'control') && r.ratios[0])
        for (const row of shown) {
          const baseline = (row.ratios[0] as Ratio).baseline
          // The row's line: its label whole, or cut with an ellipsis.
          const line = text.split('\n').find((l) => {
            const shown = l.slice(2).split('  ')[0] ?? ''
            return shown === row.label || (shown.endsWith('…') && row.label.startsWith(shown.slice(0, -1)))
          }) as string
          // Its table's title: the line above the table's header.
          const above = text.slice(0, text.indexOf(line)).split('\n')
          const title = above[above.findLastIndex((l) => l.startsWith('  candidate')) - 1] ?? ''
          if (title.includes(`× vs ${baseline.slice(0, 30)}`)) continue
          const mark = /[¹²³⁴⁵⁶⁷⁸⁹]/.exec(line)?.[0]
          expect(mark, `${suite.name}: ${row.label} ÷ ${baseline}`).toBeDefined()
          expect(text).toContain(`${mark} × vs ${baseline}`)
        }
      }
    }
  })

  test('a failed round is shown in the compact output, with its candidate and reason', () => {
    const [ids] = syntheticResults().suites
    const failed = {
      ...(ids as ResultsFile['suites'][number]),
      failures: [{ candidate: 'ref:randomUUIDv7', reason: 'TypeError: Cannot redefine property: info' }],
    }
    expect(terminal(failed, options)).toContain(
      '⚠ ref:randomUUIDv7: a round failed (TypeError: Cannot redefine property: info)',
    )
  })
})
