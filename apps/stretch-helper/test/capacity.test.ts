import { expect, test } from 'vitest'
import { runCapacity } from '../src/capacity.js'

// A short run of the capacity scenario's own code: it must account for every call it offered and
// find no wrong key. The figures themselves belong to `npm run capacity`, not to a test.
test('the capacity scenario accounts for every call and checks every key', async () => {
  const result = await runCapacity({
    multipliers: [1],
    durationMs: 1500,
    calibrationCalls: 1,
    timeoutMs: 8000,
  })
  expect(result.capacityPerS).toBeCloseTo((result.helperCores * 1000) / result.scryptMs)
  const [level] = result.levels
  const errors = Object.values(level?.errors ?? {}).reduce((a, b) => a + b, 0)
  expect(level).toMatchObject({ multiplier: 1, wrong: 0, unanswered: 0 })
  expect((level?.completed ?? 0) + errors).toBe(level?.calls)
  expect(level?.helperPeakRssMiB ?? 64).toBeGreaterThanOrEqual(64)
})
