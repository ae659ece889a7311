import type { ClientResponse } from '@authlab/servers'
import { expect, test } from 'vitest'
import { rollOnce } from '../src/cell.js'
import { Steps } from '../src/check.js'
import { sleep } from '../src/concurrency.js'

/**
 * A fake server over a session that a store expires `expiresAfterMs` after its last touch, touched at
 * the start of each request; `latencyMs(n)` delays the n-th request after that touch.
 */
function fakeServer(expiresAfterMs: number, latencyMs: (n: number) => number) {
  let touchedAt = -Infinity
  let requests = 0
  let visits = 0
  let id = ''
  const reply = (status: number, json?: Record<string, unknown>): ClientResponse => ({
    status,
    json,
    text: '',
    sessionCookie: 's=1',
  })
  return async (request: { path?: string; cookie?: string } = {}): Promise<ClientResponse> => {
    const now = performance.now()
    const alive = request.cookie !== undefined && now - touchedAt <= expiresAfterMs
    if (!alive) {
      visits = 0
      id = `session-${requests}`
    }
    touchedAt = now
    await sleep(latencyMs(requests++))
    if (request.path === '/me') return reply(401)
    visits += 1
    return reply(200, { id, visits })
  }
}

const MAX_AGE = 600
const roll = (send: ReturnType<typeof fakeServer>) =>
  Steps.outcome(async (steps) => {
    const outcome = await rollOnce(steps, send, MAX_AGE)
    if (!outcome.alive) throw new Error(`gap ${outcome.longestGapMs}`)
  })

test('a store that honours the max age keeps a touched session', async () => {
  expect(await roll(fakeServer(MAX_AGE, () => 0))).toEqual({ ok: true })
})

test('a store that expires early is caught while every measured gap is short', async () => {
  const send = fakeServer(MAX_AGE / 10, () => 0)
  const outcome = await Steps.outcome(async (steps) => {
    const result = await rollOnce(steps, send, MAX_AGE)
    steps.expect(result.alive === false && result.longestGapMs < MAX_AGE, JSON.stringify(result))
  })
  expect(outcome).toEqual({ ok: true })
})

test('a request slower than the max age is measured as a long gap, not blamed on the store', async () => {
  // The second touch answers 1.5 max ages late: the session honestly expired meanwhile.
  const send = fakeServer(MAX_AGE, (n) => (n === 2 ? MAX_AGE * 1.5 : 0))
  const outcome = await Steps.outcome(async (steps) => {
    const result = await rollOnce(steps, send, MAX_AGE)
    steps.expect(result.alive === false && result.longestGapMs >= MAX_AGE, JSON.stringify(result))
  })
  expect(outcome).toEqual({ ok: true })
})
