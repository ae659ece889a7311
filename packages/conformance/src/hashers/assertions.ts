import assert from 'node:assert/strict'

/**
 * Rejects unless the promise `start()` returns settles within `ms`. The timer is unref'd so a hung hasher cannot hold the
 * process; the elapsed time is checked as well, because work done synchronously before the promise
 * exists cannot be interrupted by a timer and would otherwise win the race after the fact.
 */
export async function within<T>(ms: number, what: string, start: () => Promise<T>): Promise<T> {
  const startedAt = performance.now()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new assert.AssertionError({ message: `${what}: no answer within ${ms} ms` })),
      ms,
    )
    timer.unref()
  })
  try {
    const result = await Promise.race([start(), timeout])
    const elapsed = performance.now() - startedAt
    assert.ok(elapsed <= ms, `${what}: answered after ${elapsed.toFixed(0)} ms, more than ${ms} ms`)
    return result
  } finally {
    clearTimeout(timer)
  }
}

/** Asserts that `action` throws or rejects with an authlab error of exactly this `code`. */
export async function rejectsWithCode(action: () => unknown, code: string, what: string): Promise<void> {
  let error: unknown
  try {
    await action()
  } catch (caught) {
    error = caught
  }
  assert.ok(error !== undefined, `${what}: expected ${code}, but it succeeded`)
  const actual = (error as { code?: unknown }).code
  assert.ok(
    error instanceof Error && actual === code,
    `${what}: expected ${code}, got ${error instanceof Error ? `${error.name} (${String(actual)}): ${error.message}` : String(error)}`,
  )
}

/** The same password with its last code point changed: a near miss that must not verify. */
export function nearMiss(password: string): string {
  const points = [...password]
  const last = points.pop()
  return points.join('') + (last === 'a' ? 'b' : 'a')
}
