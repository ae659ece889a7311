import { setTimeout as sleep } from 'node:timers/promises'
import { createHasher } from '@authlab/hash-scrypt'
import { createStretcher } from '@authlab/stretch-onepw'
import { createRemoteScrypt, type RemoteScryptOptions } from '@authlab/stretch-remote'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { type HelperProcess, startHelperProcess } from '../src/process.js'
import { startRemoteScrypt } from '../src/remote.js'
import { ONEPW_SALT, onepwBody, signedHeaders } from './fixtures.js'

// The helper runs as its own process from its build, as in production, and is faulted from outside:
// SIGKILL, SIGSTOP/SIGCONT, hostile requests. Every call must end with the right key or a typed error.
const local = createHasher({ ln: 16, r: 8, p: 1 })
const INPUTS = ['k1-a', 'k1-b', 'k1-c', 'k1-d'].map((s) => new TextEncoder().encode(s))
let expected: Uint8Array[] = []
beforeAll(async () => {
  expected = await Promise.all(INPUTS.map((input) => local.derive(input, ONEPW_SALT, 32)))
})

/** Deadline where a call should get its key: generous, since these tests check outcomes, not speed, on shared machines. */
const ROOMY_MS = 20_000

const running: HelperProcess[] = []
const clients: { close(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  for (const helper of running.splice(0)) {
    helper.signal('SIGCONT')
    helper.signal('SIGKILL')
    await helper.exited
  }
})

async function helperProcess(options: Parameters<typeof startHelperProcess>[0] = {}) {
  const helper = await startHelperProcess(options)
  running.push(helper)
  return helper
}

function remoteFor(helper: HelperProcess, options: Partial<RemoteScryptOptions> = {}) {
  const remote = createRemoteScrypt({ url: helper.url, secret: helper.secret, ...options })
  clients.push(remote)
  return remote
}

interface Tally {
  calls: number
  correct: number
  wrong: number
  /** Errors by code; an error without an ERR_AUTHLAB_ code is counted under "untyped". */
  errors: Record<string, number>
  /**
   * Calls that ended more than a second after their deadline, counted from when a timer of the same
   * length, started with the call, actually fired: on a loaded machine every timer in this process fires
   * late alike, and that lateness is the machine's, not the client's.
   */
  late: number
}

/** Fires `count` derives (cycling through INPUTS) and waits until every one has ended. */
async function run(
  remote: ReturnType<typeof createRemoteScrypt>,
  count: number,
  timeoutMs: number,
  during?: () => Promise<void>,
): Promise<Tally> {
  const tally: Tally = { calls: count, correct: 0, wrong: 0, errors: {}, late: 0 }
  const calls = Array.from({ length: count }, async (_, i) => {
    const started = Date.now()
    const deadlineTimer = sleep(timeoutMs).then(() => Date.now())
    try {
      const key = await remote.derive(INPUTS[i % INPUTS.length] as Uint8Array, ONEPW_SALT, 32)
      if (Buffer.from(key).equals(expected[i % INPUTS.length] as Uint8Array)) tally.correct++
      else tally.wrong++
    } catch (error) {
      const code = String((error as { code?: unknown }).code)
      const key = code.startsWith('ERR_AUTHLAB_') ? code : 'untyped'
      tally.errors[key] = (tally.errors[key] ?? 0) + 1
    }
    const ended = Date.now()
    if (ended - started > timeoutMs + 1000 && ended - (await deadlineTimer) > 1000) tally.late++
  })
  await during?.()
  await Promise.all(calls)
  return tally
}

const answered = (t: Tally) => t.correct + t.wrong + Object.values(t.errors).reduce((a, b) => a + b, 0)

/** The invariant of every fault: each call answered, no wrong key, no untyped error, none late. */
function expectSafe(name: string, tally: Tally): void {
  console.info(`${name}: ${JSON.stringify(tally)}`)
  expect(answered(tally)).toBe(tally.calls)
  expect(tally).toMatchObject({ wrong: 0, late: 0 })
  expect(tally.errors.untyped).toBeUndefined()
}

const health = async (helper: HelperProcess) =>
  (await (await fetch(new URL('/health', helper.url))).json()) as { scryptRuns: number; running: number }

describe('the helper process under faults', () => {
  test('gives the keys local scrypt gives, and the same onepw keys as the local chain', async () => {
    const { scrypt: remote, helper, close } = await startRemoteScrypt({ client: { timeoutMs: ROOMY_MS } })
    running.push(helper)
    clients.push({ close })
    const tally = await run(remote, 6, ROOMY_MS)
    expectSafe('correctness', tally)
    expect(tally.correct).toBe(6)
    const salt = new Uint8Array(32).fill(9)
    const [viaHelper, locally] = await Promise.all([
      createStretcher({ scrypt: remote }).stretch('ada@example.org', 'pässwörd', salt),
      createStretcher().stretch('ada@example.org', 'pässwörd', salt),
    ])
    expect(viaHelper).toEqual(locally)
  })

  test('killed mid-run and restarted on its port: each call gets the key or a typed error', async () => {
    const first = await helperProcess({ concurrency: 2 })
    const port = Number(new URL(first.url).port)
    // A budget big enough that calls hit by the kill retry into the restarted helper.
    const remote = remoteFor(first, {
      timeoutMs: ROOMY_MS,
      maxAttempts: 8,
      backoff: { initialMs: 100, maxMs: 800 },
      retryBudget: { maxTokens: 100 },
    })
    let restarted: HelperProcess | undefined
    const tally = await run(remote, 8, ROOMY_MS, async () => {
      while ((await health(first)).scryptRuns === 0) await sleep(20)
      first.signal('SIGKILL')
      await first.exited
      await sleep(300)
      restarted = await helperProcess({ port, secret: first.secret })
    })
    expectSafe('killed and restarted', tally)
    expect(tally.correct).toBeGreaterThan(0)
    const after = await run(remote, 4, ROOMY_MS)
    expectSafe('after the restart', after)
    expect(after.correct).toBe(4)
    expect(restarted?.url).toBe(first.url)
  })

  test('stopped briefly (SIGSTOP, SIGCONT): every call still gets its key', async () => {
    const helper = await helperProcess()
    const remote = remoteFor(helper, { timeoutMs: ROOMY_MS })
    const tally = await run(remote, 4, ROOMY_MS, async () => {
      await sleep(30)
      helper.signal('SIGSTOP')
      await sleep(700)
      helper.signal('SIGCONT')
    })
    expectSafe('stopped briefly', tally)
    expect(tally.correct).toBe(4)
  })

  test('stopped past the deadline: typed timeouts on time, then keys once it continues', async () => {
    const helper = await helperProcess()
    const remote = remoteFor(helper, { timeoutMs: 1200 })
    helper.signal('SIGSTOP')
    const stopped = await run(remote, 3, 1200)
    helper.signal('SIGCONT')
    expectSafe('stopped past the deadline', stopped)
    expect(stopped.errors).toEqual({ ERR_AUTHLAB_REMOTE_TIMEOUT: 3 })
    // The stopped requests' work still runs once it continues: give the next calls time for it.
    const resumed = await run(remoteFor(helper, { timeoutMs: ROOMY_MS }), 2, ROOMY_MS)
    expectSafe('after SIGCONT', resumed)
    expect(resumed.correct).toBe(2)
  })

  test('refuses bad signatures, replays, oversized and malformed bodies with 4xx and no scrypt work', async () => {
    const helper = await helperProcess()
    const body = onepwBody()
    const send = (payload: string, headers: Record<string, string>) =>
      fetch(new URL('/', helper.url), { method: 'POST', headers, body: payload }).then((r) => r.status)
    const replayed = signedHeaders(body, { secret: helper.secret })
    expect(await send(body, replayed)).toBe(200)
    const before = (await health(helper)).scryptRuns
    const statuses = [
      await send(body, signedHeaders(body, { secret: `${helper.secret}0` })),
      await send(body, replayed),
      await send(JSON.stringify({ input: 'ab'.repeat(4000) }), signedHeaders('x', { secret: helper.secret })),
      await send('{"input":', signedHeaders('{"input":', { secret: helper.secret })),
      await send(
        body.replace('65536', '1048576'),
        signedHeaders(body.replace('65536', '1048576'), { secret: helper.secret }),
      ),
    ]
    expect(statuses).toEqual([401, 401, 413, 400, 400])
    expect((await health(helper)).scryptRuns).toBe(before)
  })

  test('SIGTERM drains: in-flight and queued calls are answered, then it exits 0', async () => {
    const helper = await helperProcess({ concurrency: 2 })
    const remote = remoteFor(helper, { timeoutMs: ROOMY_MS })
    let code: number | null = null
    const tally = await run(remote, 6, ROOMY_MS, async () => {
      while ((await health(helper)).running === 0) await sleep(10)
      code = await helper.stop()
    })
    expectSafe('drained on SIGTERM', tally)
    expect(tally.correct).toBe(6)
    expect(code).toBe(0)
  })
})
