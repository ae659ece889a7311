import { resolve } from 'node:path'
import type { RemoteScryptSetup } from '@authlab/stretch-helper'
import { startRemoteScrypt } from '@authlab/stretch-helper'
import { beforeAll, describe, expect, test } from 'vitest'
import { nativeHashers } from '../src/discover/baselines.js'
import { loadCandidates } from '../src/discover/candidates.js'
import { placement } from '../src/harness/placement.js'
import type { Progress, SuiteContext, SuiteResult } from '../src/harness/suite.js'
import type { Candidates } from '../src/model/candidates.js'
import { hasFlag } from '../src/model/types.js'
import { renderMarkdown } from '../src/report/markdown.js'
import { runDocument } from '../src/report/run-document.js'
import { renderTerminal } from '../src/report/terminal.js'
import { createStretchSuite } from '../src/suites/stretch/index.js'
import { keysOf, type StretchBudget } from '../src/suites/stretch/jobs.js'
import type { StartRemote } from '../src/suites/stretch/remote.js'
import { context, reportOptions, silentProgress, syntheticResults, TINY } from './fixtures.js'

// The real chain, the real native scrypt and PBKDF2, and a real helper process: row [2] end to end,
// on the smallest budget (figures are not checked).
const ROOT = resolve(import.meta.dirname, '..', '..')
const ONEPW = '@authlab/stretch-onepw'
let real: Candidates

beforeAll(async () => {
  const names = [nativeHashers().scrypt, nativeHashers()['pbkdf2-sha256'], ONEPW] as string[]
  const { candidates } = await loadCandidates(ROOT, { only: new Set(names) })
  real = {
    ids: [],
    hashers: candidates.hashers.filter((h) => names.includes(h.id)),
    stretch: candidates.stretch.filter((s) => s.id === ONEPW),
  }
  expect(real.hashers.map((h) => h.id).sort(), 'the native hashers are built').toHaveLength(2)
  expect(real.stretch, `${ONEPW} is built`).toHaveLength(1)
}, 60_000)

const ctx = (overrides: Partial<SuiteContext<StretchBudget>> = {}) => context(TINY.stretch, overrides)

/** The real helper, with every start recorded: its options and the process it started. */
function watchedStart(alter?: (setup: RemoteScryptSetup) => RemoteScryptSetup) {
  const started: { options: Parameters<StartRemote>[0]; setup: RemoteScryptSetup }[] = []
  const start: StartRemote = async (options) => {
    const setup = await startRemoteScrypt(options)
    started.push({ options, setup })
    return alter ? alter(setup) : setup
  }
  return { start, started }
}

/** True while a process with this pid exists (signal 0 only checks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const scryptOnly = () => ({ ...real, hashers: real.hashers.filter((h) => h.id === nativeHashers().scrypt) })

describe('row [2]: the chain with scrypt on a real helper process', () => {
  test('measured beside [1] and [3], keys equal to local scrypt, helper stopped afterwards', async () => {
    const { start, started } = watchedStart()
    const { rows, notes } = await createStretchSuite({ startRemote: start }).run(real, ctx())
    const remote = rows.find((r) => r.label === '[2] scrypt: remote helper (loopback)')
    expect(remote, 'row [2]').toBeDefined()
    expect(remote?.unit).toBe('ops/s (wall)')
    expect(remote?.rounds).toHaveLength(TINY.stretch.rounds)
    // Its baseline is [3] in the same rounds, shown in the same group.
    const local = rows.find((r) => r.group === remote?.group && hasFlag(r, 'baseline'))
    expect(local?.label).toMatch(/^\[3\] scrypt: /)
    expect(remote?.ratios[0]?.baseline).toBe(local?.label)
    expect(remote?.ratios[0]?.rounds).toHaveLength(TINY.stretch.rounds)
    expect(rows.some((r) => r.group.startsWith('[1] '))).toBe(true)
    // A key that differs from the native chain's drops the row with a note; none here.
    expect(notes.filter((n) => /dropped|not checked|failed/.test(n))).toEqual([])
    expect(notes.join('\n')).toMatch(/loopback \(127\.0\.0\.1\), which has almost no network cost/)
    const [{ options, setup } = {} as never] = started
    // On the client's own measure core, where it waits idle while the helper derives.
    const core = placement()?.last
    expect(options).toEqual(core === undefined ? { rttMs: 0 } : { cpu: core, rttMs: 0 })
    expect(notes.join('\n')).toContain(
      setup.helper.pinned ? `pinned to CPU ${core} with taskset` : 'not pinned (taskset unavailable',
    )
    expect(alive(setup.helper.pid)).toBe(false)
  }, 120_000)

  test('a helper that returns a wrong key loses its row instead of being timed', async () => {
    // The real helper's answer with one bit flipped: what a broken or hostile helper would send.
    const { start, started } = watchedStart((setup) => ({
      ...setup,
      scrypt: {
        ...setup.scrypt,
        derive: async (...args: Parameters<typeof setup.scrypt.derive>) => {
          const key = await setup.scrypt.derive(...args)
          key[0] = (key[0] as number) ^ 1
          return key
        },
      },
    }))
    const { rows, notes } = await createStretchSuite({ startRemote: start }).run(scryptOnly(), ctx())
    expect(rows.some((r) => r.label.startsWith('[2] '))).toBe(false)
    expect(notes.join('\n')).toMatch(/remote-helper dropped: its keys differ from \[3\] scrypt: /)
    expect(alive(started[0]?.setup.helper.pid as number)).toBe(false)
  }, 120_000)

  test('the helper process is stopped when the suite fails', async () => {
    const { start, started } = watchedStart()
    const failing: Progress = {
      ...silentProgress(),
      step(label) {
        if (label.includes('[2]')) throw new Error('the suite failed here')
      },
    }
    const suite = createStretchSuite({ startRemote: start })
    await expect(suite.run(scryptOnly(), ctx({ progress: failing }))).rejects.toThrow('the suite failed here')
    expect(started).toHaveLength(1)
    expect(alive(started[0]?.setup.helper.pid as number)).toBe(false)
  }, 60_000)
})

describe('--rtt: a simulated round trip, labelled in every output', () => {
  let result: SuiteResult
  let started: ReturnType<typeof watchedStart>['started']

  beforeAll(async () => {
    const watched = watchedStart()
    started = watched.started
    result = await createStretchSuite({ startRemote: watched.start }).run(
      scryptOnly(),
      ctx({ simulatedRttMs: 30 }),
    )
  }, 120_000)

  test('the helper delays its answers, and the row and its key say so', () => {
    expect(started[0]?.options.rttMs).toBe(30)
    const remote = result.rows.find((r) => r.label.startsWith('[2] '))
    expect(remote).toMatchObject({
      label: '[2] scrypt: remote helper (simulated RTT 30 ms)',
      candidate: `${ONEPW}+remote-helper (simulated RTT 30 ms)`,
    })
    expect(result.notes.join('\n')).toMatch(/simulated RTT of 30 ms: the helper holds each answer 15 ms/)
    expect(result.notes.join('\n')).toMatch(
      /Beneath it, loopback \(127\.0\.0\.1\) has almost no network cost/,
    )
  })

  test('terminal, JSON and Markdown all carry the label', async () => {
    const record = {
      name: 'stretch',
      description: 'stretch',
      method: '',
      processRounds: false,
      notes: result.notes,
      failures: [],
      rows: result.rows.map((row) => ({ suite: 'stretch', ...row })),
    }
    const results = { ...syntheticResults(), suites: [record] }
    const label = '[2] scrypt: remote helper (simulated RTT 30 ms)'
    expect(renderTerminal(record, {}, { color: false, wide: true })).toContain(label)
    const options = { ...(await reportOptions()), charts: () => [], strips: false }
    expect(renderMarkdown(await runDocument(results, options))).toContain(label)
    expect(JSON.stringify(results)).toContain(label)
  })
})

describe('keysOf', () => {
  test('Buffer and Uint8Array with the same bytes compare equal; a different byte does not', () => {
    const bytes = [1, 2, 255]
    expect(keysOf({ b: Buffer.from(bytes), a: 'x' })).toBe(keysOf({ a: 'x', b: new Uint8Array(bytes) }))
    expect(keysOf({ b: new Uint8Array([1, 2, 254]) })).not.toBe(keysOf({ b: new Uint8Array(bytes) }))
  })
})
