import { describe, expect, test } from 'vitest'
import { lastConsumed, meanCallMs } from '../src/harness/sample.js'

/**
 * Synthetic workloads with a known cost: a fake clock advances exactly by the cost of each call,
 * so the mean is checked against arithmetic instead of against wall-clock timing.
 */
function fakeClock(costs: readonly number[]) {
  let t = 0
  let calls = 0
  const now = () => t
  const work = async () => {
    t += costs[calls % costs.length] ?? 0
    calls++
    return calls
  }
  return { now, work, calls: () => calls }
}

describe('meanCallMs on synthetic workloads', () => {
  test('calls alternating 37 and 47 ms average 42 ms, the warm-ups left out', async () => {
    const clock = fakeClock([37, 47])
    const mean = await meanCallMs(clock.work, { warmups: 2, minMs: 400, minCalls: 5 }, clock.now)
    // Two warm-ups, then calls until 400 ms: ten calls of 37 + 47 alternating are 420 ms.
    expect(mean).toBeCloseTo(42, 9)
    expect(clock.calls()).toBe(12)
    expect(lastConsumed()).toBe(12)
  })

  test('the minimum call count wins over a short time budget', async () => {
    const clock = fakeClock([40])
    const mean = await meanCallMs(clock.work, { warmups: 0, minMs: 10, minCalls: 4 }, clock.now)
    expect(clock.calls()).toBe(4)
    expect(mean).toBeCloseTo(40, 9)
  })

  test('a failing workload is reported, not measured', async () => {
    const fail = async () => {
      throw new Error('boom')
    }
    await expect(meanCallMs(fail, { warmups: 0, minMs: 0, minCalls: 1 })).rejects.toThrow('boom')
  })
})
