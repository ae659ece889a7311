import assert from 'node:assert/strict'

/** Rejects unless `promise` settles within `ms`; the timer is unref'd so a hung hasher cannot hold the process. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new assert.AssertionError({ message: `${what}: no answer within ${ms} ms` })),
      ms,
    )
    timer.unref()
  })
  try {
    return await Promise.race([promise, timeout])
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
