import { readdirSync } from 'node:fs'
import { RUNTIMES } from '@authlab/workspace'
import { expect, test } from 'vitest'
import { judgeLoop, judgeRefusals } from '../src/conformance-node.mjs'

test('every runtime has its conformance file, so a new runtime cannot go unchecked', () => {
  const files = readdirSync(new URL('.', import.meta.url)).filter((f) => /^conformance-.+\.test\.ts$/.test(f))
  expect(files.sort()).toEqual(RUNTIMES.map((id) => `conformance-${id}.test.ts`).sort())
})

test('the runsOn verdict fails a blocking call declared off the main thread, and the reverse', () => {
  const lag = { idleGapMs: 1.1, ms: 200 }
  const verdict = (runsOn: string, maxLagMs: number, gapMs: number, ms = 200) =>
    judgeLoop('x', { ...lag, ms, runsOn, maxLagMs, gapMs })
  expect(verdict('threadpool', 190, 1.2)).toHaveLength(1)
  expect(verdict('threadpool', 12, 9)).toHaveLength(1)
  expect(verdict('threadpool', 2, 1.2, 5)).toHaveLength(1)
  expect(verdict('main-thread', 190, 1.2)).toEqual([])
  expect(verdict('threadpool', 30, 1.3)).toEqual([])
})

test('a refusal passes only as UnsupportedRuntimeError with a message', () => {
  const plan: Parameters<typeof judgeRefusals>[0] = {
    kind: 'refused',
    package: 'x',
    of: 'hash',
    calls: [{ id: 'scrypt' }],
  }
  const typed = { id: 'scrypt', code: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME', message: 'no compile here' }
  expect(judgeRefusals(plan, [typed])).toEqual([])
  expect(
    judgeRefusals(plan, [{ id: 'scrypt', message: 'CompileError: disallowed by embedder' }]),
  ).toHaveLength(1)
  expect(judgeRefusals(plan, [{ ...typed, code: 'ERR_AUTHLAB_INVALID_OPTION' }])).toHaveLength(1)
  expect(judgeRefusals(plan, [{ ...typed, message: '' }])).toHaveLength(1)
  expect(judgeRefusals(plan, [])).toHaveLength(1)
})
