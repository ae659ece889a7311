import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type IdCandidate, loadCandidates } from '@authlab/benchmarks/harness'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { idsInFramework } from '../src/http/ids-scenario.js'
import { processCpuMs } from '../src/http/process-cpu.js'
// The server processes run the built entry (benchmarks/dist), as the bench does.
import { GENERATOR_HEADER, NO_HASH, withServers } from '../src/http/servers.js'
import { openLoad } from '../src/http/window.js'

const ROOT = new URL('../../..', import.meta.url).pathname

describe('a window of closed-loop load on kept-alive connections', () => {
  let server: ReturnType<typeof createServer>
  let url: string
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.statusCode = request.headers['x-fail'] ? 500 : 200
      response.end('ok')
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((done) => server.close(() => done())))

  test('counts answers per second, and a non-2xx answer as a failure, on connections opened once', async () => {
    let connections = 0
    server.on('connection', () => connections++)
    const load = openLoad(url, '/', 4)
    try {
      const ok = await load.window(0.2)
      expect(ok.completed).toBeGreaterThan(10)
      expect(ok.failures).toBe(0)
      expect(ok.requestsPerSec).toBeGreaterThan(0)
      const failing = await load.window(0.1, { 'x-fail': '1' })
      expect(failing.completed).toBe(0)
      expect(failing.failures).toBeGreaterThan(0)
    } finally {
      await load.close()
    }
    // Both windows ran on the same kept-alive connections.
    expect(connections).toBeLessThanOrEqual(4)
  })
})

describe('bench server processes', () => {
  test('one server holds several generators, chosen per request by a header; an unknown one fails', async () => {
    const spec = {
      framework: 'fastify',
      generator: 'ref:randomUUID',
      generators: ['ref:randomUUID', '@authlab/id-fast'],
      hasher: NO_HASH,
    } as const
    await withServers([spec], undefined, async ([server]) => {
      const idOf = async (header: string) => {
        const response = await fetch(new URL('/', server?.url), { headers: { [GENERATOR_HEADER]: header } })
        return { status: response.status, body: (await response.json()) as { id?: string } }
      }
      expect((await idOf('0')).body.id).toMatch(/^[0-9a-f-]{36}$/)
      expect((await idOf('1')).body.id).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect((await idOf('7')).status).toBe(500)
    })
  })

  test('a login server with no hash answers logins, and its CPU time can be read from outside', async () => {
    const spec = { framework: 'express', generator: '@authlab/id-fast', hasher: NO_HASH } as const
    await withServers([spec], undefined, async ([server]) => {
      const login = (password: string) =>
        fetch(new URL('/login', server?.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'bench', password }),
        })
      expect((await login('correct horse battery staple')).status).toBe(200)
      expect((await login('wrong')).status).toBe(401)
      expect(processCpuMs(server?.pid as number)).toBeGreaterThan(0)
    })
  })
})

describe('ids-in-framework rounds', () => {
  /** A few short rounds in @fastify/session, with no hash: the shape of the rows, not their speed. */
  const runIds = async (
    ids: readonly IdCandidate[],
    baselines: readonly string[],
    control: boolean,
    rounds: number,
  ) => {
    const notes: string[] = []
    const budget = {
      rounds,
      warmupSec: 0.1,
      windowSec: 0.05,
      windows: 2,
      loginRounds: 1,
      loginSec: 0.1,
      warmupLogins: 1,
    }
    const quiet = { plan() {}, step() {}, note() {} }
    const ctx = {
      budget,
      mode: 'quick',
      progress: quiet,
      cores: 2,
      seed: 3,
      failed: (who: string, why: string) => void notes.push(`${who}: a round failed (${why})`),
    } as const
    const rows = await idsInFramework(
      {
        framework: 'fastify',
        ids,
        baselines,
        control,
        hasher: NO_HASH,
        budget,
        placement: { serverCpu: undefined, serverCores: 1 },
      },
      ctx,
    )
    return { rows, notes }
  }

  test('every candidate in one server per round, ratios to the baselines, the A/A control flagged', async () => {
    const ids = ['ref:fastify-session', 'ref:express-session', '@authlab/id-fast']
    const { candidates } = await loadCandidates(ROOT, { only: new Set(ids) })
    const served = ids.map((id) => candidates.ids.find((c) => c.id === id)).filter((c) => c !== undefined)
    const { rows, notes } = await runIds(served, ids.slice(0, 2), true, 2)
    expect(notes).toEqual([])
    expect(rows.map((r) => r.candidate)).toEqual([...ids, 'ref:fastify-session (A/A)'])
    const [fastify, express, fast, control] = rows
    expect(fastify?.ratios.map((q) => q.baseline)).toEqual([express?.label])
    expect(fast?.ratios.map((q) => q.baseline)).toEqual([fastify?.label, express?.label])
    expect(control?.flags).toContainEqual({ kind: 'control' })
    expect(control?.ratios.map((q) => q.baseline)).toEqual([fastify?.label])
    for (const row of rows) expect(row.rounds).toHaveLength(2)
    // Two rounds are fewer than a verdict needs.
    expect(fast?.ratios[0]?.verdict).toBe('undecided')
  })

  test('a round whose server cannot start is noted, and its rows have no rounds', async () => {
    const { candidates } = await loadCandidates(ROOT, { only: new Set(['@authlab/id-fast']) })
    const fast = candidates.ids.find((c) => c.id === '@authlab/id-fast') as IdCandidate
    const missing = { ...fast, id: '@authlab/id-no-such-package', label: 'no such package' }
    const { rows, notes } = await runIds([fast, missing], [fast.id], false, 1)
    expect(notes).toEqual([expect.stringMatching(/^fastify ids: a round failed \(.+\)$/)])
    for (const row of rows) expect(row.rounds).toEqual([])
  })
})
