import { randomUUID } from 'node:crypto'
import { checkOptions, defineIdGenerator, type IdGenerator } from '@authlab/core'

/** Lower-case hex digits and the hyphen: the characters of an RFC 9562 UUID string. */
export const UUID_ALPHABET = '0123456789abcdef-'

/**
 * `crypto.randomUUID()`: a version-4 UUID, 36 characters carrying 122 random bits (RFC 9562 §5.4:
 * 4 version and 2 variant bits are fixed). Below the 128 bits that ASVS V7.2.3 asks for, which is why
 * the conformance suite runs it with a 122-bit minimum. Node buffers random bytes for 128 UUIDs at a
 * time (lib/internal/crypto/random.js), unless `disableEntropyCache` is set.
 */
export function createIdGenerator(options?: Record<string, never>): IdGenerator {
  // No options: the UUID format fixes the length; a `bytes` here is refused rather than ignored.
  checkOptions('@authlab/id-random-uuid', options, {})
  return defineIdGenerator({
    info: {
      name: '@authlab/id-random-uuid',
      displayName: 'crypto.randomUUID',
      wraps: 'crypto.randomUUID()',
      length: 36,
      alphabet: UUID_ALPHABET,
      entropyBits: 122,
      randomness: "OS-seeded CSPRNG, Node's 2 KiB UUID entropy cache",
      poolBytes: 16 * 128,
      runsOn: 'main-thread',
    },
    generate: () => randomUUID(),
  })
}

/** A ready generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()

/** The symbols each position of a v4 UUID may hold: fixed hyphens, version `4`, variant `8`–`b`. */
export function uuidSymbolsAt(position: number): string {
  if (position === 8 || position === 13 || position === 18 || position === 23) return '-'
  if (position === 14) return '4'
  if (position === 19) return '89ab'
  return '0123456789abcdef'
}
