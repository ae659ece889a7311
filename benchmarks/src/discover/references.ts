import { randomUUID } from 'node:crypto'
import { defineIdGenerator, type IdGenerator } from '@authlab/core'
import type { IdCandidate } from '../types.js'

const HEX_AND_DASH = '0123456789abcdef-'
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
const COUNTER_LENGTH = 32
const COUNTER_DIGITS = 11

/** Node's own UUID v4 (RFC 9562 §5.4): the yardstick most readers know; Node caches its random bytes. */
export function createRandomUuidReference(): IdGenerator {
  return defineIdGenerator(
    {
      name: 'ref:randomUUID',
      displayName: 'crypto.randomUUID() [ref]',
      wraps: 'crypto.randomUUID()',
      length: 36,
      alphabet: HEX_AND_DASH,
      entropyBits: 122,
      randomness: 'OS-seeded CSPRNG, batched by Node',
      poolBytes: 2048,
      runsOn: 'main-thread',
    },
    () => randomUUID(),
  )
}

/**
 * INSECURE, bench-only: a unique counter padded to 32 characters, the length of the real generators.
 * It is the harness ceiling in the http suite: a constant or cycling ID would be unfairly cheap
 * downstream because a session store keyed by it stays tiny. Never published, never a session ID.
 */
export function createCounterIdGenerator(): IdGenerator {
  // A per-process random prefix keeps IDs unique across processes sharing one store in a bench.
  const prefix = randomUUID()
    .replaceAll('-', '')
    .slice(0, COUNTER_LENGTH - COUNTER_DIGITS)
  let counter = 0
  return defineIdGenerator(
    {
      name: 'ref:counter',
      displayName: 'unique counter (INSECURE ceiling)',
      wraps: 'prefix + counter.toString(36), bench-only',
      length: COUNTER_LENGTH,
      alphabet: BASE36,
      entropyBits: 0,
      randomness: 'none: a counter',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    () => prefix + (counter++).toString(36).padStart(COUNTER_DIGITS, '0'),
  )
}

export const ID_REFERENCES: readonly IdCandidate[] = [
  { id: 'ref:randomUUID', label: 'crypto.randomUUID() [ref]', create: createRandomUuidReference },
  { id: 'ref:counter', label: 'unique counter (INSECURE ceiling)', create: createCounterIdGenerator },
]
