import type { ClientResponse, Framework } from '@authlab/servers'
import { describeReply, type Outcome, Steps } from './check.js'
import { mapLimit, sleep } from './concurrency.js'
import type { GeneratorUnderTest, StoreHarness } from './harness.js'

export const LOGIN = { username: 'alice', password: 'correct horse battery staple' }

export interface CellOptions {
  /** Sessions created at once in the "nothing lost under load" check (the tests run 200 per cell, every cell of a store at once: test/matrix-suite.ts). */
  readonly sessionsUnderLoad: number
  /** Requests in flight per cell during that check. */
  readonly loadConcurrency: number
}

/** Every matrix check for one generator × store × framework; the first failing step is the outcome. */
export async function checkCell(
  harness: StoreHarness,
  generator: GeneratorUnderTest,
  framework: Framework,
  options: CellOptions,
): Promise<Outcome> {
  const key = generator.key
  const send = (request: Parameters<StoreHarness['request']>[2] = {}, on: Framework = framework) =>
    harness.request(on, key, request)
  const other = harness.frameworks.find((f) => f !== framework) ?? framework

  const flow = Steps.outcome(async (steps) => {
    const created = await steps.run('create', async () => {
      const reply = await send()
      steps.expect(reply.status === 200, describeReply(reply))
      steps.expect(
        harness.switch.hasIssued(key, reply.json?.id),
        `replied ID ${String(reply.json?.id)} was not generated`,
      )
      steps.expect(reply.sessionCookie !== undefined, 'no session cookie set')
      return { id: reply.json?.id as string, cookie: reply.sessionCookie }
    })

    await steps.run('read back', async () => {
      const reply = await send({ cookie: created.cookie })
      steps.expect(reply.json?.id === created.id && reply.json?.visits === 2, `got ${describeSession(reply)}`)
    })

    await steps.run('ID in backend', async () => {
      const stored = await harness.main.storedIds()
      steps.expect(stored.includes(created.id), harness.explainMissing(created.id, stored))
    })

    await steps.run(`cookie read by ${other}`, async () => {
      const reply = await send({ cookie: created.cookie }, other)
      steps.expect(reply.json?.id === created.id && reply.json?.visits === 3, `got ${describeSession(reply)}`)
    })

    const login = await steps.run('regenerate', async () => {
      const reply = await send({ method: 'POST', path: '/login', cookie: created.cookie, body: LOGIN })
      steps.expect(reply.status === 200, describeReply(reply))
      const id = reply.json?.id
      steps.expect(id !== created.id && harness.switch.hasIssued(key, id), `new ID ${String(id)}`)
      const stored = await harness.main.storedIds()
      steps.expect(stored.includes(id as string), `new ID: ${harness.explainMissing(id as string, stored)}`)
      steps.expect(!stored.includes(created.id), 'the pre-login ID is still in the backend')
      const replay = await send({ cookie: created.cookie })
      steps.expect(replay.json?.id !== created.id, 'the pre-login cookie is still accepted')
      return { id: id as string, cookie: reply.sessionCookie }
    })

    await steps.run('destroy', async () => {
      const reply = await send({ method: 'POST', path: '/logout', cookie: login.cookie })
      steps.expect(reply.status === 204, describeReply(reply))
      steps.expect(!(await harness.main.storedIds()).includes(login.id), 'the ID is still in the backend')
      const me = await send({ path: '/me', cookie: login.cookie })
      steps.expect(me.status === 401, `the destroyed session still answers /me (${describeReply(me)})`)
    })
  })
  // Independent of the flow above (own sessions; the expiry checks on their own namespace), so they run
  // alongside it: the expiry check is mostly waiting. The load check starts once rolling has decided:
  // rolling judges by the time between its requests, and the load check is what lengthened them (every
  // cell's load on one store, in this process: a file store's touches waited behind it in libuv's
  // threadpool for 5 s), whereas the expiry wait only gets longer under load, which it tolerates.
  let rollingDecided = () => {}
  const decided = new Promise<void>((resolve) => {
    rollingDecided = resolve
  })
  const expiry = Steps.outcome(async (steps) => {
    const sendExpiring = (request: Parameters<StoreHarness['request']>[2] = {}) =>
      send({ ...request, namespace: 'expiring' })
    let rolled: Awaited<ReturnType<typeof checkRolling>>
    try {
      rolled = await checkRolling(steps, harness, sendExpiring)
    } finally {
      rollingDecided()
    }
    await checkExpiry(steps, harness, sendExpiring, rolled)
  })
  const load = decided.then(() => Steps.outcome((steps) => checkLoad(steps, harness, key, send, options)))
  return firstFailure(await Promise.all([flow, expiry, load]))
}

function firstFailure(outcomes: readonly Outcome[]): Outcome {
  return outcomes.find((outcome) => !outcome.ok) ?? { ok: true }
}

/**
 * Slack for stores that keep expiry in whole seconds (express-mysql-session, connect-redis TTLs, SQLite
 * datetime()): their session may end up to a second before the max age, or after it.
 */
const WHOLE_SECOND_SLACK_MS = 1000
/** Fresh sessions the rolling check may start when the machine was too slow to touch in time. */
const ROLLING_ATTEMPTS = 3

/**
 * Rolling: touching (a request that does not modify the session) every sixth of the max age keeps a
 * session past its max age. The verdict rests on measured times, not on the sleeps: a store's expiry
 * clock starts somewhere inside one request and is read somewhere inside the next, so `(next reply) -
 * (previous send)` bounds the idle time it saw. It is measured on the monotonic clock and on the wall
 * clock both, and the longer counts: stores keep expiry by the wall clock (session-file-store's
 * `__lastAccess` and express-session's MemoryStore compare `Date` values, Redis and SQL servers their
 * own time), which a clock adjustment can move while the monotonic clock does not. Only a session that
 * expired while every such gap stayed under the max age minus the slack is a store that expired early;
 * a gap beyond it (a loaded machine) proves nothing, and the check starts
 * again with a fresh session.
 */
async function checkRolling(
  steps: Steps,
  harness: StoreHarness,
  send: (request?: Parameters<StoreHarness['request']>[2]) => Promise<ClientResponse>,
): Promise<{ id: unknown; cookie: string | undefined }> {
  const maxAge = harness.expiringMaxAgeMs
  const bound = maxAge - WHOLE_SECOND_SLACK_MS
  return steps.run('rolling', async () => {
    const gaps: number[] = []
    for (let attempt = 1; ; attempt++) {
      const outcome = await rollOnce(steps, send, maxAge)
      if (outcome.alive) return { id: outcome.id, cookie: outcome.cookie }
      // The store's own account, when it had one: a touch that failed is not an expiry.
      const storeError = harness.storeErrorOf(String(outcome.firstId))
      steps.expect(
        outcome.longestGapMs >= bound,
        `expired early: ${outcome.reply}, longest gap between requests ${Math.round(outcome.longestGapMs)} ms < ${bound} ms${storeError === undefined ? '' : ` (${storeError})`}`,
      )
      gaps.push(Math.round(outcome.longestGapMs))
      steps.expect(
        attempt < ROLLING_ATTEMPTS,
        `expired, but no attempt kept the gap between requests under ${bound} ms (longest gaps ${gaps.join(', ')} ms): too loaded to decide`,
      )
    }
  })
}

/**
 * Expiry: the rolled session, left idle for the max age plus the slack, is gone (rolling renews the
 * expiry, it does not remove it). The wait starts at the reply that last touched it (the store's clock
 * started before that), so a late timer only makes it longer and this direction needs no measurement.
 */
async function checkExpiry(
  steps: Steps,
  harness: StoreHarness,
  send: (request?: Parameters<StoreHarness['request']>[2]) => Promise<ClientResponse>,
  session: { id: unknown; cookie: string | undefined },
): Promise<void> {
  await steps.run('expiry', async () => {
    await sleep(harness.expiringMaxAgeMs + WHOLE_SECOND_SLACK_MS)
    const reply = await send({ cookie: session.cookie })
    steps.expect(
      reply.json?.id !== session.id && reply.json?.visits === 1,
      `still alive: ${describeSession(reply)}`,
    )
  })
}

/** Both clocks, read together: see checkRolling for why the wall clock counts too. */
const clocks = () => ({ monotonic: performance.now(), wall: Date.now() })
const elapsed = (from: ReturnType<typeof clocks>, to: ReturnType<typeof clocks>) =>
  Math.max(to.monotonic - from.monotonic, to.wall - from.wall)

/** One rolling attempt: a new session, touched until more than its max age has passed, then read. */
export async function rollOnce(
  steps: Steps,
  send: (request?: Parameters<StoreHarness['request']>[2]) => Promise<ClientResponse>,
  maxAge: number,
): Promise<
  | { alive: true; id: unknown; cookie: string | undefined }
  | { alive: false; reply: string; longestGapMs: number; firstId: unknown }
> {
  let sentAt = clocks()
  const first = await send()
  steps.expect(first.status === 200, describeReply(first))
  const start = performance.now()
  let longestGapMs = 0
  const timed = async (request: Parameters<StoreHarness['request']>[2]) => {
    const previousSend = sentAt
    sentAt = clocks()
    const reply = await send(request)
    longestGapMs = Math.max(longestGapMs, elapsed(previousSend, clocks()))
    return reply
  }
  while (performance.now() - start <= maxAge) {
    await sleep(maxAge / 6)
    const touch = await timed({ path: '/me', cookie: first.sessionCookie })
    steps.expect(touch.status === 401, `touch: ${describeReply(touch)}`)
  }
  const reply = await timed({ cookie: first.sessionCookie })
  if (reply.json?.id === first.json?.id && reply.json?.visits === 2) {
    return { alive: true, id: first.json?.id, cookie: reply.sessionCookie }
  }
  return { alive: false, reply: describeSession(reply), longestGapMs, firstId: first.json?.id }
}

/** `sessionsUnderLoad` sessions created concurrently, each read back, then destroyed: counts must match exactly. */
async function checkLoad(
  steps: Steps,
  harness: StoreHarness,
  key: string,
  send: (request?: Parameters<StoreHarness['request']>[2]) => Promise<ClientResponse>,
  { sessionsUnderLoad: count, loadConcurrency: limit }: CellOptions,
): Promise<void> {
  const indices = Array.from({ length: count }, (_, index) => index)
  const sessions = await steps.run(`${count} concurrent: create`, async () => {
    const replies = await mapLimit(indices, limit, () => send())
    const failed = replies.filter((reply) => reply.status !== 200)
    steps.expect(
      failed.length === 0,
      `${failed.length} failed, first ${failed[0] ? describeReply(failed[0]) : ''}`,
    )
    const ids = new Set(replies.map((reply) => reply.json?.id as string))
    steps.expect(ids.size === count, `${ids.size} distinct IDs for ${count} sessions`)
    const issued = [...ids].filter((id) => harness.switch.hasIssued(key, id)).length
    steps.expect(issued === count, `${count - issued} IDs were not generated by ${key}`)
    return replies.map((reply) => ({ id: reply.json?.id as string, cookie: reply.sessionCookie }))
  })
  await steps.run(`${count} concurrent: in backend`, async () => {
    const stored = new Set(await harness.main.storedIds())
    const found = sessions.filter((s) => stored.has(s.id)).length
    steps.expect(found === count, `${found} of ${count} in the backend`)
  })
  await steps.run(`${count} concurrent: read back`, async () => {
    const replies = await mapLimit(sessions, limit, (s) => send({ cookie: s.cookie }))
    const same = replies.filter(
      (reply, i) => reply.json?.id === sessions[i]?.id && reply.json?.visits === 2,
    ).length
    steps.expect(same === count, `${same} of ${count} read back`)
  })
  await steps.run(`${count} concurrent: destroy`, async () => {
    const replies = await mapLimit(sessions, limit, (s) =>
      send({ method: 'POST', path: '/logout', cookie: s.cookie }),
    )
    const destroyed = replies.filter((reply) => reply.status === 204).length
    steps.expect(destroyed === count, `${destroyed} of ${count} destroyed`)
    const stored = new Set(await harness.main.storedIds())
    const left = sessions.filter((s) => stored.has(s.id)).length
    steps.expect(left === 0, `${left} of ${count} still in the backend`)
  })
}

function describeSession(reply: ClientResponse): string {
  if (reply.status !== 200) return describeReply(reply)
  return `ID ${String(reply.json?.id)}, visits ${String(reply.json?.visits)}`
}
