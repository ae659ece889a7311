import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EXIT, main } from '../src/main.js'
import { tempDir, tempWorkspace, withIdsValue, writeResultsPair } from './fixtures.js'

async function cli(argv: string[], root?: string) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
    ...(root ? { root } : {}),
  })
  return { code, stdout, stderr }
}

describe('CLI errors exit 2 with a clear message', () => {
  test('unknown suite', async () => {
    const { code, stderr } = await cli(['--suite', 'ids,teapot'])
    expect(code).toBe(EXIT.usage)
    expect(stderr).toMatch(/unknown suite "teapot"; suites are: ids, hash, lag, concurrency/)
  })

  test('a filter that matches nothing (checked before anything is timed)', async () => {
    const { code, stderr } = await cli(['--filter', 'no-such-thing', '--out', tempDir()], tempWorkspace())
    expect(code).toBe(EXIT.usage)
    expect(stderr).toMatch(
      /--filter "no-such-thing" matches no candidate; candidates are: ref:randomUUID, ref:counter, @tmp\/id-temporary/,
    )
  })

  test('unknown option, unknown command, bad numbers, wrong compare arity', async () => {
    expect((await cli(['--fast'])).stderr).toMatch(/Unknown option '--fast'/)
    expect((await cli(['--fast'])).code).toBe(EXIT.usage)
    expect(await cli(['bench'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringMatching(/unknown command "bench"/),
    })
    expect(await cli(['--max-rme', 'lots', '--suite', 'ids'])).toMatchObject({ code: EXIT.usage })
    expect(await cli(['compare', 'only-one.json'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringMatching(/exactly two results files/),
    })
    expect(await cli(['spread', 'one.json'])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringMatching(/two or more results files/),
    })
    expect(await cli(['compare', join(tempDir(), 'a.json'), join(tempDir(), 'b.json')])).toMatchObject({
      code: EXIT.usage,
      stderr: expect.stringMatching(/not a readable JSON file/),
    })
  })

  test('--help prints usage and exits 0', async () => {
    expect(await cli(['--help'])).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/^Usage:/) })
  })
})

describe('compare exit codes (for CI)', () => {
  test('a significant drop of the ratio beyond the threshold exits 1 and names it', async () => {
    const after = withIdsValue(10_000_000, 3, { value: 2, rme: 3 })
    const { code, stdout } = await cli(['compare', ...writeResultsPair(after)])
    expect(code).toBe(EXIT.regression)
    expect(stdout).toContain(
      '@authlab/id-fast [IDs/s]: 2.50 → 2 × vs crypto.randomUUID() [ref] (-20.0%) REGRESSION',
    )
  })

  test('--absolute compares raw values', async () => {
    const { code, stdout } = await cli([
      'compare',
      ...writeResultsPair(withIdsValue(8_000_000, 3)),
      '--absolute',
    ])
    expect(code).toBe(EXIT.regression)
    expect(stdout).toContain('@authlab/id-fast [IDs/s]: 10,000,000 → 8,000,000 IDs/s (-20.0%) REGRESSION')
  })

  test('the same drop under a higher threshold exits 0', async () => {
    const pair = writeResultsPair(withIdsValue(8_000_000, 3))
    const { code, stdout } = await cli(['compare', ...pair, '--absolute', '--threshold', '25'])
    expect(code).toBe(EXIT.ok)
    expect(stdout).toMatch(/\(-20\.0%\) worse/)
  })

  test('spread prints each ratio per run', async () => {
    const { code, stdout } = await cli(['spread', ...writeResultsPair(withIdsValue(8_000_000, 3))])
    expect(code).toBe(EXIT.ok)
    expect(stdout).toContain(
      'ids · IDs/s · @authlab/id-fast: 2.50 / 2.50 (min–max 2.50–2.50 × vs crypto.randomUUID() [ref])',
    )
  })

  test('an insignificant change exits 0', async () => {
    const { code, stdout } = await cli([
      'compare',
      ...writeResultsPair(withIdsValue(9_900_000, 3)),
      '--absolute',
    ])
    expect(code).toBe(EXIT.ok)
    expect(stdout).toMatch(/no significant change/)
  })
})
