import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type AnySuite, loadCandidates, type SuiteRow } from '@authlab/benchmarks/harness'
import { READY_MARK as FRAMEWORKS_READY_MARK, frameworkDefaults } from '@authlab/frameworks'
import { describe, expect, test } from 'vitest'
import { AUTHLAB_FAST, FRAMEWORK_SERVERS, runIdsInFrameworks } from '../src/frameworks/ids-run.js'
import { READY_MARK, runtimeCommand, startRuntimeServer } from '../src/frameworks/runtime-server.js'
import { runSignIn, SIGN_IN_HASHERS, SIGN_IN_RUNTIMES } from '../src/frameworks/sign-in-run.js'

const ROOT = new URL('../../..', import.meta.url).pathname
const PACKAGE = new URL('..', import.meta.url).pathname
/** Each new suite, and a word its method must say: where its servers run, what its figures divide by. */
const NEW_SUITES = { 'ids-in-frameworks': 'Deno', 'sign-in': 'Limit' }

/** The harness's context, quiet, with failed rounds collected. */
function contextOf<B>(budget: B) {
  const failures: string[] = []
  const ctx = {
    budget,
    mode: 'quick',
    progress: { plan() {}, step() {}, note() {} },
    cores: 2,
    seed: 3,
    failed: (who: string, why: string) => void failures.push(`${who}: ${why}`),
  } as const
  return { ctx, failures }
}

/** Servers unpinned: the test checks what they answer, not how fast. */
const PLACEMENT = { serverCpu: undefined, serverCores: 1 }

/** Every row keyed (setting, operation, candidate, runtime) and every ratio naming what it divides by. */
function expectKeyed(rows: readonly SuiteRow[], candidatesOf: (row: SuiteRow) => readonly string[]) {
  for (const row of rows) {
    expect(row.key.setting, row.label).toMatch(/\S/)
    expect(row.key.operation, row.label).toMatch(/\S/)
    expect(row.runtime, row.label).toMatch(/^(node|bun|deno)$/)
    for (const q of row.ratios) expect(candidatesOf(row), `${row.label} ÷ ${q.baseline}`).toContain(q.against)
  }
  const keys = rows.map((r) => [r.key.setting, r.key.operation, r.candidate, r.runtime].join(' · '))
  expect(new Set(keys).size, 'one row per key').toBe(keys.length)
}

describe('the in-framework suites', () => {
  test('are discovered as the bench finds them: the manifest’s benchSuites entry exports them, on request only', async () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'))
    const entry = join(PACKAGE, manifest.authlab.benchSuites)
    const { suites } = (await import(pathToFileURL(entry).href)) as { suites: AnySuite[] }
    for (const [name, word] of Object.entries(NEW_SUITES)) {
      const suite = suites.find((s) => s.name === name)
      expect(suite, name).toBeDefined()
      expect(suite?.onRequestOnly, name).toBe(true)
      expect(suite?.view?.charts, name).toBeTypeOf('function')
      expect(suite?.method(suite.budget.quick), name).toContain(word)
    }
  })

  test('name what apps/frameworks names: its ready line and its frameworks’ defaults', () => {
    expect(READY_MARK).toBe(FRAMEWORKS_READY_MARK)
    const names = frameworkDefaults().map((d) => d.generate.info.name)
    for (const server of FRAMEWORK_SERVERS) expect(names).toContain(server.own.id)
  })

  test('a server that cannot start is an error that says why, and its process is gone', async () => {
    const runtime = runtimeCommand('node')
    if ('reason' in runtime) throw new Error(runtime.reason)
    const input = { session: { generator: '@authlab/id-no-such-package', secret: 'x'.repeat(40) } }
    await expect(startRuntimeServer(runtime, input, undefined)).rejects.toThrow(
      /exited with 1 before serving: .*id-no-such-package/,
    )
  })

  test('ids-in-frameworks: every server starts on its runtime, serves each generator, and keys its rows', async () => {
    const { candidates } = await loadCandidates(ROOT, { only: new Set([AUTHLAB_FAST]) })
    const budget = { rounds: 1, warmupSec: 0.05, windowSec: 0.05, windows: 1 }
    const { ctx, failures } = contextOf(budget)
    const notes: string[] = []
    const rows = await runIdsInFrameworks(candidates, ctx, PLACEMENT, notes)
    // Bun and Deno come with `npm ci` (tools/runtimes): a runtime that did not start is a failure here.
    expect(notes.filter((n) => n.includes('not measured'))).toEqual([])
    expect(failures).toEqual([])
    expect(rows).toHaveLength(3 * FRAMEWORK_SERVERS.length)
    expectKeyed(rows, (row) => rows.filter((r) => r.group === row.group).map((r) => r.candidate))
    for (const server of FRAMEWORK_SERVERS) {
      const mine = rows.filter((r) => r.key.setting === server.framework && r.runtime === server.runtime)
      expect(mine.map((r) => r.candidate)).toEqual([server.own.id, AUTHLAB_FAST, `${server.own.id} (A/A)`])
      expect(String(mine[0]?.details.runtime)).toMatch(new RegExp(`^${server.runtime} \\d`))
      for (const row of mine) expect(row.rounds, row.label).toHaveLength(1)
      expect(mine[1]?.ratios.map((q) => q.against)).toEqual([server.own.id])
      expect(mine[2]?.flags).toContainEqual({ kind: 'control' })
    }
  }, 60_000)

  test('sign-in: better-auth on PostgreSQL signs the user in on each runtime, each figure against its limit', async () => {
    const budget = { rounds: 1, signInSec: 0.05, warmupSignIns: 1 }
    const { ctx, failures } = contextOf(budget)
    const notes: string[] = []
    const rows = await runSignIn(ctx, PLACEMENT, notes)
    // PostgreSQL on 127.0.0.1:5432 and Bun are required: without them the notes say why, and this fails.
    expect(notes.filter((n) => n.includes('not measured'))).toEqual([])
    expect(failures).toEqual([])
    expect(rows).toHaveLength(SIGN_IN_RUNTIMES.length * SIGN_IN_HASHERS.length)
    expectKeyed(rows, () => [...SIGN_IN_HASHERS.map((h) => h.id), 'limit'])
    const [scrypt, argon2] = SIGN_IN_HASHERS
    for (const runtime of SIGN_IN_RUNTIMES) {
      const of = (id: string) => rows.find((r) => r.runtime === runtime && r.candidate === id)
      expect(of(argon2.id)?.ratios.map((q) => q.against)).toEqual(['limit', scrypt.id])
      expect(of(scrypt.id)?.ratios.map((q) => q.against)).toEqual(['limit'])
      for (const row of [of(argon2.id), of(scrypt.id)]) {
        // Every sign-in of the round answered 200: a refused or failed one would mark the round.
        expect(row?.details['errors+timeouts+non-2xx'], row?.label).toBe(0)
        expect(row?.value, row?.label).toBeGreaterThan(0)
        expect(row?.details['limit sign-ins/s'], row?.label).toBeGreaterThan(0)
      }
    }
  }, 60_000)
})
