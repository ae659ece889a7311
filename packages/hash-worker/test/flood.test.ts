import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

interface FloodReport {
  outcomes: Record<string, number>
  heapGrowthMb: number
  rssGrowthMb: number
}

// The flood runs in a fresh process so the test runner's own allocations do not blur the figure.
const flood = (calls: number, maxQueue?: number): FloodReport =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        fileURLToPath(new URL('../bench/flood.mjs', import.meta.url)),
        String(calls),
        ...(maxQueue ? [String(maxQueue)] : []),
      ],
      { encoding: 'utf8', timeout: 120_000 },
    ),
  )

// 100,000 calls held in an unbounded queue grow the heap by about 100 MB; the bounded default holds
// 64 per thread. 16 MB separates the two with a wide margin either way.
const HEAP_BOUND_MB = 16

test('100,000 calls at once: the surplus is refused with typed OverloadErrors and the heap stays bounded', () => {
  const { outcomes, heapGrowthMb } = flood(100_000)
  const total = Object.values(outcomes).reduce((sum, n) => sum + n, 0)
  expect(total).toBe(100_000)
  // Every call ends typed: served, refused as overload, or failed by the final close().
  expect(
    Object.keys(outcomes).every((key) => ['ok', 'ERR_AUTHLAB_OVERLOAD', 'ERR_AUTHLAB_CLOSED'].includes(key)),
  ).toBe(true)
  expect(outcomes.ERR_AUTHLAB_OVERLOAD).toBeGreaterThan(99_000)
  expect(heapGrowthMb).toBeLessThan(HEAP_BOUND_MB)
})

test('control: the same flood with an effectively unbounded queue exceeds the heap bound', () => {
  const { outcomes, heapGrowthMb } = flood(100_000, Number.MAX_SAFE_INTEGER)
  expect(outcomes.ERR_AUTHLAB_OVERLOAD).toBeUndefined()
  expect(heapGrowthMb).toBeGreaterThan(HEAP_BOUND_MB)
})
