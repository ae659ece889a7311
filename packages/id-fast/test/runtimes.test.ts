import { fileURLToPath } from 'node:url'
import { runInRuntime } from '@authlab/runtimes'
import { requireRuntime, skipReason } from '@authlab/runtimes/availability'
import { expect, test } from 'vitest'
import { chooseTechnique, FAST_ID_TECHNIQUES, type RuntimeDescription } from '../src/index.js'

const ENTRY = fileURLToPath(new URL('./fixtures/techniques-entry.mjs', import.meta.url))
/** IDs per technique: over 1,000 draws from a pool of three cross more than 300 refills. */
const IDS = 1000

/** The technique each claimed runtime is expected to get from what it reports (see chooseTechnique). */
const EXPECTED: Record<string, string> = {
  node24: 'json-batch',
  node22: 'json-batch',
  bun: 'latin1-slice',
  deno: 'json-batch',
  chromium: 'unrolled',
  firefox: 'unrolled',
}

interface Seen {
  runtime: RuntimeDescription
  chosen: string
  wraps: string
  defaultIds: string[]
  techniques: Record<string, { ids: string[] } | { error: string }>
}

function expectDistinctIds(ids: readonly string[], where: string): void {
  for (const id of ids) expect(id, where).toMatch(/^[A-Za-z0-9_-]{32}$/)
  expect(new Set(ids).size, `${where}: duplicates`).toBe(ids.length)
}

// Node 26 runs in-process in techniques.test.ts; the other runtimes are started here, each reporting
// itself from its own globals, so this checks the detection and not only the rule.
for (const [id, expected] of Object.entries(EXPECTED)) {
  test(`${id}: reports itself, gets ${expected}, and every technique it can build makes valid IDs`, {
    timeout: 120_000,
  }, async ({ skip }) => {
    const reason = skipReason(id)
    skip(reason !== undefined, reason)
    const seen = (await runInRuntime(requireRuntime(id), ENTRY, { ids: IDS }, { timeoutMs: 100_000 })) as Seen
    expect(seen.chosen).toBe(expected)
    expect(chooseTechnique(seen.runtime)).toBe(expected)
    expectDistinctIds(seen.defaultIds, `${id} default (${seen.wraps})`)
    for (const technique of FAST_ID_TECHNIQUES) {
      const result = seen.techniques[technique]
      if (result && 'ids' in result) expectDistinctIds(result.ids, `${id} ${technique}`)
      // A technique a runtime lacks the API for is refused with a typed error, and never chosen there.
      else expect(result, `${id} ${technique}`).toEqual({ error: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME' })
    }
    // What each runtime has: Buffer everywhere but the browsers, code generation everywhere here.
    expect('ids' in (seen.techniques['latin1-slice'] ?? {})).toBe(!['chromium', 'firefox'].includes(id))
    expect('ids' in (seen.techniques.unrolled ?? {})).toBe(true)
  })
}
