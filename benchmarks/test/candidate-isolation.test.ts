import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { candidateKeys, loadCandidateFile } from '../src/discover/candidates.js'
import { ID_REFERENCES } from '../src/discover/references.js'
import type { Flag } from '../src/model/types.js'
import { suite as idsSuite } from '../src/suites/ids/index.js'
import { context, TINY, tempDir } from './fixtures.js'

/** A `--candidate` module whose generator body is `body`, declaring 36 characters of UUID alphabet. */
const moduleWith = (body: string) => `
export function createIdGenerator() {
  const generate = () => { ${body} }
  generate.info = { name: 'user', displayName: 'user module', length: 36, alphabet: '0123456789abcdef-' }
  return generate
}
`

const HOSTILE = {
  throws: "throw new Error('generator broke')",
  number: 'return 42',
  exits: 'process.exit(0)',
  hangs: 'for (;;) {}',
}

describe('--candidate modules run in child processes with a time limit', () => {
  test('a throwing, wrong-typed, exiting or hanging generate() marks its own row failed; the rest is kept', async () => {
    const dir = tempDir()
    const files: string[] = []
    for (const place of ['a', 'b']) {
      mkdirSync(join(dir, place))
      files.push(join(dir, place, 'gen.mjs'))
      writeFileSync(files.at(-1) as string, moduleWith('return crypto.randomUUID()'))
    }
    for (const [name, body] of Object.entries(HOSTILE)) {
      files.push(join(dir, `${name}.mjs`))
      writeFileSync(files.at(-1) as string, moduleWith(body))
    }
    const keys = candidateKeys(files)
    // Same file name in two folders: two keys, so two rows with their own figures.
    expect(new Set(keys).size).toBe(files.length)
    const loaded = await Promise.all(files.map((file, i) => loadCandidateFile(file, keys[i])))
    const primary = ID_REFERENCES.find((c) => c.id === 'ref:randomUUID')
    if (!primary) throw new Error('the ids suite has its randomUUID reference')
    // A short round limit: long enough for a loaded machine to start Node, short for the hanging one.
    const budget = { ...TINY.ids, sampling: { ...TINY.ids.sampling, roundLimitMs: 8000 } }
    const failures: string[] = []
    const { rows } = await idsSuite.run(
      { ids: [primary, ...loaded.flatMap((l) => l.ids)], hashers: [], stretch: [] },
      context(budget, { failed: (candidate) => void failures.push(candidate) }),
    )
    const row = (key: string) => rows.find((r) => r.candidate === key)
    const failed = (key: string) =>
      row(key)?.flags.find((f): f is Extract<Flag, { kind: 'failed' }> => f.kind === 'failed')
    // Each failed round is also reported to the harness, which shows it in the terminal.
    expect(failures.sort()).toEqual(
      Object.keys(HOSTILE)
        .map((name) => `file:${name}.mjs`)
        .sort(),
    )
    for (const key of keys.slice(0, 2)) {
      expect(failed(key)).toBeUndefined()
      expect(row(key)?.value).toBeGreaterThan(0)
    }
    const reasons = Object.fromEntries(
      Object.keys(HOSTILE).map((name) => [name, failed(`file:${name}.mjs`)?.reason]),
    )
    expect(reasons.throws).toMatch(/generator broke/)
    expect(reasons.number).toMatch(/must return a non-empty string, got number/)
    expect(reasons.exits).toMatch(/exited with 0 before answering/)
    expect(reasons.hangs).toMatch(/no answer within 8000 ms/)
    expect(failed('ref:randomUUID')).toBeUndefined()
  }, 120_000)
})
