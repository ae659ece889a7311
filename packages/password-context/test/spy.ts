import type { Password, PasswordHasher } from '@authlab/core'

/**
 * A hasher that records its work: hash calls, and each verify that ran to an answer (one its policy
 * refused did no work and is not counted). `failNextHash` makes the next hash reject (an overloaded
 * pool, say).
 */
export function spy(inner: PasswordHasher) {
  const calls = { hash: 0, verify: [] as string[] }
  let nextHashError: unknown
  const hasher: PasswordHasher = {
    info: inner.info,
    needsRehash: (encoded) => inner.needsRehash(encoded),
    async hash(password: Password) {
      calls.hash++
      const error = nextHashError
      nextHashError = undefined
      if (error !== undefined) throw error
      return inner.hash(password)
    },
    async verify(encoded: string, password: Password) {
      const valid = await inner.verify(encoded, password)
      calls.verify.push(encoded)
      return valid
    },
  }
  return {
    hasher,
    calls,
    failNextHash: (error: unknown) => {
      nextHashError = error
    },
    reset: () => Object.assign(calls, { hash: 0, verify: [] }),
  }
}
