import { describe, expect, test } from 'vitest'
import { lastConsumed, measureAsync, measureSync } from '../src/measure/measure.js'

/**
 * Synthetic workloads with a known cost: a fake clock advances exactly by the cost of each call,
 * so the statistics are checked against arithmetic instead of against wall-clock timing.
 */
function fakeClock(costs: readonly number[]) {
  let t = 0
  let calls = 0
  const now = () => t
  const work = () => {
    t += costs[calls % costs.length] ?? 0
    calls++
    return calls
  }
  return { now, work, calls: () => calls }
}

const options = { timeMs: 100, minSamples: 10, warmupMs: 0, warmupSamples: 0 }

describe('measure (tinybench wrapper) on synthetic workloads', () => {
  test('a constant 2 ms cost gives mean = p50 = p99 = 2 ms and no spread', async () => {
    const clock = fakeClock([2])
    const m = await measureSync(clock.work, { ...options, now: clock.now })
    expect(m.mean).toBeCloseTo(2, 9)
    expect(m.p50).toBeCloseTo(2, 9)
    expect(m.p99).toBeCloseTo(2, 9)
    expect(m.rme).toBeCloseTo(0, 9)
    // The time budget (100 ms) dominates the minimum sample count (10).
    expect(m.samples).toBe(50)
    expect(lastConsumed()).toBe(clock.calls())
  })

  test('alternating 1 ms and 3 ms costs average to 2 ms with a non-zero margin of error', async () => {
    const clock = fakeClock([1, 3])
    const m = await measureSync(clock.work, { ...options, now: clock.now })
    expect(m.mean).toBeCloseTo(2, 9)
    expect(m.min).toBeCloseTo(1, 9)
    expect(m.max).toBeCloseTo(3, 9)
    expect(m.rme).toBeGreaterThan(0)
  })

  test('a batch divides every statistic: 1000 operations per 5 ms call are 5 µs each', async () => {
    const clock = fakeClock([5])
    const m = await measureSync(clock.work, { ...options, batch: 1000, now: clock.now })
    expect(m.mean).toBeCloseTo(0.005, 12)
    expect(m.p99).toBeCloseTo(0.005, 12)
  })

  test('the minimum sample count wins over a short time budget', async () => {
    const clock = fakeClock([40])
    const m = await measureAsync(async () => clock.work(), { ...options, minSamples: 4, now: clock.now })
    expect(m.samples).toBe(4)
    expect(m.mean).toBeCloseTo(40, 9)
  })

  test('a failing workload is reported, not measured', async () => {
    await expect(
      measureSync(() => {
        throw new Error('boom')
      }, options),
    ).rejects.toThrow()
  })
})
