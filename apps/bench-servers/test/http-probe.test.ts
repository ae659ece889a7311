import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { load } from '../src/http/load.js'
import { type ProbeSample, startProbe, windowLatency } from '../src/http/probe.js'

describe('the latency of the requests due in a window (synthetic samples)', () => {
  const every = (n: number, latencyMs: (i: number) => number | undefined): ProbeSample[] =>
    Array.from({ length: n }, (_, i) => ({ dueAt: i * 5, latencyMs: latencyMs(i) }))

  test('p99 and max of the requests due in the window, the others ignored', () => {
    // 200 requests every 5 ms at 1 ms, except three at 80, 90 and 100 ms: the 198th of 200 is the p99.
    // A slow one due outside the window does not count.
    const slow = new Map([
      [40, 80],
      [90, 90],
      [140, 100],
    ])
    const samples = [...every(200, (i) => slow.get(i) ?? 1), { dueAt: 5000, latencyMs: 500 }]
    expect(windowLatency(samples, 0, 995)).toEqual({ p99Ms: 80, maxMs: 100, sent: 200, failures: 0 })
  })

  test('a blocked loop: requests due during a 100 ms stall wait for its end', () => {
    // Requests every 5 ms; the server answers nothing between 0 and 100 ms, then 1 ms round trips.
    const samples = every(200, (i) => Math.max(100 - i * 5, 0) + 1)
    const latency = windowLatency(samples, 0, 995)
    expect(latency.maxMs).toBe(101)
    // The three slowest are due at 0, 5 and 10 ms (101, 96, 91 ms): the 198th of 200 is 91.
    expect(latency.p99Ms).toBe(91)
  })

  test('a failed request ranks above every answer and is counted', () => {
    const latency = windowLatency(
      every(100, (i) => (i === 7 ? undefined : 2)),
      0,
      495,
    )
    expect(latency).toMatchObject({ p99Ms: 2, maxMs: 2, failures: 1, sent: 100 })
    expect(
      windowLatency(
        every(10, (i) => (i < 2 ? undefined : 2)),
        0,
        45,
      ).p99Ms,
    ).toBe(Number.POSITIVE_INFINITY)
  })

  test('an empty window is refused', () => {
    expect(() => windowLatency([], 5, 5)).toThrow(RangeError)
  })
})

// A real server process whose POST /block busy-waits, so the instrument is checked end to end: the probe
// must see the event loop blocked, which a closed-loop probe's own p99 misses (coordinated omission).
const BLOCK_MS = 60
const SERVER = `
const http = require('node:http')
const server = http.createServer((req, res) => {
  if (req.url === '/block') { const end = performance.now() + ${BLOCK_MS}; while (performance.now() < end); }
  res.end('ok')
})
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port))
`

describe('the GET /health probe against a server that blocks its event loop', () => {
  let child: ReturnType<typeof spawn>
  let url = ''
  beforeAll(async () => {
    child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] })
    const [line] = (await once(
      createInterface({ input: child.stdout as NodeJS.ReadableStream }),
      'line',
    )) as [string]
    url = line
  })
  afterAll(() => {
    child?.kill()
  })

  test('reads the stalls as latency', async () => {
    const probe = startProbe(url, '/health', 200)
    const blocking = await load(url, {
      path: '/block',
      method: 'POST',
      connections: 2,
      amount: 16,
      serverPid: child.pid as number,
    })
    const health = await probe.finish(blocking.startedAt, blocking.lastResponseAt)
    expect(blocking.total).toBe(16)
    expect(blocking.failures + health.failures).toBe(0)
    // The server's CPU time is read from /proc between the first request and the last counted answer: it
    // is there and covers some work. How much is the machine's business (a shared core gives a busy-wait
    // less CPU than its wall time; GC and helper threads add some), so no bound is set on it.
    expect(blocking.serverCpuMs).toBeGreaterThan(0)
    expect(Number.isFinite(blocking.serverCpuMs)).toBe(true)
    // What follows holds on any machine under any load, because each stall lasts BLOCK_MS of wall time by
    // construction and a probe's latency is counted from when it was due (coordinated omission): a check
    // due within one probe interval of a stall's start waits for the rest of it, and the 16 stalls on one
    // thread cannot answer faster than one per BLOCK_MS. Load only lengthens the waits and lowers the rate.
    const probeIntervalMs = 1000 / 200
    expect(health.sent).toBeGreaterThan(0)
    expect(health.maxMs).toBeGreaterThanOrEqual(BLOCK_MS - probeIntervalMs)
    expect(blocking.requestsPerSec).toBeLessThanOrEqual(1000 / BLOCK_MS)
  })
})
