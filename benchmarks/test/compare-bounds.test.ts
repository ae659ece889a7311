import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EXIT } from '../src/main.js'
import { MAX_ROUNDS_READ } from '../src/model/results.js'
import type { ResultsFile } from '../src/model/types.js'
import { cli, syntheticResults, tempDir, writeJson } from './fixtures.js'

/** The synthetic run whose first ratio carries `count` rounds near `center` (about 14 bytes each). */
function withRounds(count: number, center: number, seed: number): ResultsFile {
  const results = structuredClone(syntheticResults()) as unknown as {
    suites: { rows: { ratios: { rounds: number[] }[] }[] }[]
  }
  const ratio = results.suites[0]?.rows[1]?.ratios[0]
  if (!ratio) throw new Error('the synthetic run has a second ids row with a ratio')
  let state = seed
  const next = () => {
    state = (state * 16807) % 2147483647
    return state / 2147483647
  }
  ratio.rounds = Array.from({ length: count }, () => Number((center * (1 + 0.1 * next())).toFixed(8)))
  return results as unknown as ResultsFile
}

describe('compare reads a bounded amount and says when it cannot read a file', () => {
  test('two files of 12,000 rounds a side are compared: a verdict and exit 0, no crash', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'a.json'), withRounds(12_000, 1, 1))
    writeJson(join(dir, 'b.json'), withRounds(12_000, 1, 2))
    const run = await cli(['compare', join(dir, 'a.json'), join(dir, 'b.json')])
    expect(run.stdout).toMatch(/@authlab\/id-fast: 1.05 → 1.05 .* no change/)
    expect(run.code).toBe(EXIT.ok)
  })

  test('a file with more rounds than compare reads exits 3, naming the cap', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'a.json'), withRounds(MAX_ROUNDS_READ + 1, 1, 1))
    writeJson(join(dir, 'b.json'), syntheticResults())
    const run = await cli(['compare', join(dir, 'a.json'), join(dir, 'b.json')])
    expect(run.code).toBe(EXIT.unreadable)
    expect(run.stderr).toContain(`more than the ${MAX_ROUNDS_READ} read from one results file`)
  })

  test('a missing file exits 3, never 1 (the regression code)', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'b.json'), syntheticResults())
    const run = await cli(['compare', join(dir, 'missing.json'), join(dir, 'b.json')])
    expect(run.code).toBe(EXIT.unreadable)
    expect(run.stderr).toMatch(/missing\.json: not a readable JSON file \(ENOENT\)/)
  })

  test('the help lists the exit codes', async () => {
    const help = await cli(['--help'])
    expect(help.stdout).toMatch(/exit codes +0 done/)
    expect(help.stdout).toContain(`${EXIT.unreadable} a results file that cannot be read`)
  })
})
