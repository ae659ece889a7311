import { expect, test } from 'vitest'
import { measureRounds } from '../src/rounds.mjs'

test('every candidate gets one rate per round; the lag probe sees a call that blocks the loop', async () => {
  const busy = () => {
    const until = performance.now() + 20
    while (performance.now() < until) {}
  }
  const sleep = () => new Promise((resolve) => setTimeout(resolve, 20))
  const result = await measureRounds(
    [
      { id: 'blocking', run: busy },
      { id: 'yielding', run: sleep },
    ],
    { rounds: 3, minBatchMs: 20, lagProbe: true },
  )
  expect(result.rates.blocking).toHaveLength(3)
  expect(result.rates.yielding).toHaveLength(3)
  expect(result.runtime.name).toBe('node')
  // A 1 ms timer cannot fire during 20 ms of synchronous work, however idle or busy the machine is.
  expect(result.lagMs.blocking).toBeGreaterThan(15)
  expect(result.opMs.yielding).toBeGreaterThanOrEqual(19)
  // Per call, each round again: wall time, and on Node the process's CPU time beside it. A timer of
  // 20 ms never fires sooner; a busy loop spends CPU whenever it is scheduled, a sleep almost none.
  expect(result.perCall.wallMs.yielding).toHaveLength(3)
  expect(result.perCall.cpuMs?.blocking).toHaveLength(3)
  for (const ms of result.perCall.wallMs.yielding ?? []) expect(ms).toBeGreaterThanOrEqual(19)
  const cpu = (id: string) => Math.min(...(result.perCall.cpuMs?.[id] ?? [Number.NaN]))
  expect(cpu('blocking')).toBeGreaterThan(cpu('yielding'))
})
