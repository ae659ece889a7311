import { randomBytes } from 'node:crypto'
import { BASE64URL_ALPHABET, defineIdGenerator, type IdGenerator } from '@authlab/core'

/** The lengths the matrix charts: nanoid's 21, the 24-byte default's 32, a UUID's 36, 32 bytes' 43, and past 128. */
export const CHART_LENGTHS: readonly number[] = [21, 32, 36, 43, 64, 128, 129, 255]

/**
 * Bench-only: random base64url IDs of exactly `length` characters, to find where each store's limits
 * are. Not a published generator; its IDs are as random as their length allows.
 */
export function createFixedLengthGenerator(length: number): IdGenerator {
  return defineIdGenerator({
    info: {
      name: `matrix:length-${length}`,
      displayName: `${length} base64url characters`,
      wraps: `randomBytes(${Math.ceil((length * 3) / 4)}).toString('base64url').slice(0, ${length})`,
      length,
      alphabet: BASE64URL_ALPHABET,
      entropyBits: length * 6,
      randomness: 'OS-seeded CSPRNG, one call per ID',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    generate: () =>
      randomBytes(Math.ceil((length * 3) / 4))
        .toString('base64url')
        .slice(0, length),
  })
}
