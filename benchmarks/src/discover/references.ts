import * as nodeCrypto from 'node:crypto'
import { createRequire } from 'node:module'
import {
  base64urlIdShape,
  defineIdGenerator,
  entropyBitsOf,
  type IdGenerator,
  UnsupportedRuntimeError,
} from '@authlab/core'
import type { IdCandidate } from '../types.js'
import type { Skipped } from './candidates.js'

const { randomUUID } = nodeCrypto

const HEX_AND_DASH = '0123456789abcdef-'
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
const COUNTER_LENGTH = 32
const COUNTER_DIGITS = 11

/** The label says whose default it is, so a reader of a table finds their framework's row. */
const RANDOM_UUID_LABEL = 'crypto.randomUUID() [ref; Auth.js, koa, hono]'

/**
 * Node's own UUID v4 (RFC 9562 §5.4): the yardstick most readers know, and what Auth.js, koa-session
 * and hono-sessions call for their session IDs. Node caches its random bytes.
 */
export function createRandomUuidReference(): IdGenerator {
  return defineIdGenerator({
    info: {
      name: 'ref:randomUUID',
      displayName: RANDOM_UUID_LABEL,
      wraps: 'crypto.randomUUID()',
      length: 36,
      alphabet: HEX_AND_DASH,
      entropyBits: 122,
      randomness: 'OS-seeded CSPRNG, batched by Node',
      poolBytes: 2048,
      runsOn: 'main-thread',
    },
    generate: () => randomUUID(),
  })
}

/** Node's UUID v7 (Node >= 24), read at call time: a named import would fail to load on Node 22. */
const randomUUIDv7 = (nodeCrypto as unknown as { randomUUIDv7?: () => string }).randomUUIDv7

/** Short, for table cells; the whole sentence is the generator's `randomness`, in the method and legend. */
const RANDOM_UUID_V7_LABEL = 'crypto.randomUUIDv7() [ref; 74 random bits + ms timestamp]'

/**
 * Node's UUID v7 (RFC 9562 §5.7: a 48-bit Unix millisecond timestamp, then 74 random bits), which many
 * apps now use as a token because it sorts by time. As a session ID the timestamp is readable by anyone
 * holding the cookie: it says when the session began. Measured as a reference, never recommended.
 */
export function createRandomUuidV7Reference(): IdGenerator {
  const generate = randomUUIDv7
  if (!generate) {
    throw new UnsupportedRuntimeError(
      `crypto.randomUUIDv7() needs Node >= 24; this is Node ${process.versions.node}`,
      undefined,
      'Node >= 24',
    )
  }
  return defineIdGenerator({
    info: {
      name: 'ref:randomUUIDv7',
      displayName: RANDOM_UUID_V7_LABEL,
      wraps: 'crypto.randomUUIDv7()',
      length: 36,
      alphabet: HEX_AND_DASH,
      entropyBits: 74,
      randomness:
        'OS-seeded CSPRNG, batched by Node: 74 random bits + a millisecond timestamp that tells anyone holding the cookie when the session began',
      poolBytes: 2048,
      runsOn: 'main-thread',
    },
    generate: () => generate(),
  })
}

/**
 * INSECURE, bench-only: a unique counter padded to 32 characters, the length of the real generators.
 * It is the http suite's ceiling: a constant or cycling ID would be unfairly cheap
 * downstream because a session store keyed by it stays tiny. Never published, never a session ID.
 */
export function createCounterIdGenerator(): IdGenerator {
  // A per-process random prefix keeps IDs unique across processes sharing one store in a bench.
  const prefix = randomUUID()
    .replaceAll('-', '')
    .slice(0, COUNTER_LENGTH - COUNTER_DIGITS)
  let counter = 0
  return defineIdGenerator({
    info: {
      name: 'ref:counter',
      displayName: 'unique counter (INSECURE, http ceiling)',
      wraps: 'prefix + counter.toString(36), bench-only',
      length: COUNTER_LENGTH,
      alphabet: BASE36,
      entropyBits: 0,
      randomness: 'none: a counter',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    generate: () => prefix + (counter++).toString(36).padStart(COUNTER_DIGITS, '0'),
  })
}

/**
 * INSECURE, no randomness: the cheapest new flat 32-character string the engine makes, one
 * `String.fromCharCode` of 32 literal codes per call ("0…9a…v"). Every generator must at least produce
 * such a string, so it is the ids suite's ceiling: a real generator's "% of ceiling" cannot exceed 100.
 */
export function createFlatStringFloor(): IdGenerator {
  return defineIdGenerator({
    info: {
      name: 'ref:flat-string',
      displayName: 'flat 32-char string (INSECURE ceiling, no randomness)',
      wraps: 'String.fromCharCode(32 literal codes), bench-only',
      length: COUNTER_LENGTH,
      alphabet: BASE36,
      entropyBits: 0,
      randomness: 'none: a constant',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    generate: // Literal arguments (no spread, no array): the call and the new string are all that is paid for.
      // biome-ignore format: 32 literal codes read better on one line than on 32
      () => String.fromCharCode(48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118),
  })
}

/** The session frameworks as the http servers install them: their defaults are loaded from there, not retyped. */
const fromServers = createRequire(import.meta.resolve('@authlab/servers'))

/** express-session's default `genid` is `uid(24)` with uid-safe's `sync` (index.js `generateSessionId`). */
export function createExpressSessionDefault(): IdGenerator {
  const uidSafe = createRequire(fromServers.resolve('express-session'))('uid-safe') as {
    sync(bytes: number): string
  }
  return defineIdGenerator({
    info: {
      name: 'ref:express-session',
      displayName: "express-session's default genid [ref]",
      wraps: "express-session's own uid-safe, sync(24)",
      ...base64urlIdShape(24),
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), one call per ID',
      poolBytes: 0,
    },
    generate: () => uidSafe.sync(24),
  })
}

/** @fastify/session's default `idGenerator`: its own lib/idGenerator.js, base64url variant. */
export function createFastifySessionDefault(): IdGenerator {
  const factory = fromServers('@fastify/session/lib/idGenerator.js') as (base64url?: boolean) => () => string
  const generate = factory(true)
  return defineIdGenerator({
    info: {
      name: 'ref:fastify-session',
      displayName: "@fastify/session's default idGenerator [ref]",
      wraps: "@fastify/session's lib/idGenerator.js",
      ...base64urlIdShape(24),
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), 3072-byte pool, one copy per ID',
      poolBytes: 3072,
    },
    generate: () => generate(),
  })
}

/** better-auth's packages as the bench installs them: its own code is loaded, never retyped. */
const fromBench = createRequire(import.meta.url)

const BETTER_AUTH_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const BETTER_AUTH_TOKEN_LENGTH = 32

/**
 * better-auth's session token: its internal adapter stores `generateId(32)` (better-auth
 * `db/internal-adapter.mjs`, createSession) from @better-auth/core `utils/id`, which is
 * @better-auth/utils' `createRandomStringGenerator('a-z', 'A-Z', '0-9')`: bytes from
 * `crypto.getRandomValues`, rejection-sampled to 62 characters (values ≥ 248 are dropped).
 */
export function createBetterAuthDefault(): IdGenerator {
  const { generateId } = fromBench('@better-auth/core/utils/id') as { generateId(size?: number): string }
  return defineIdGenerator({
    info: {
      name: 'ref:better-auth',
      displayName: "better-auth's session token, generateId(32) [ref]",
      wraps: "@better-auth/core's generateId(32) (@better-auth/utils createRandomStringGenerator)",
      length: BETTER_AUTH_TOKEN_LENGTH,
      alphabet: BETTER_AUTH_ALPHABET,
      entropyBits: entropyBitsOf(BETTER_AUTH_TOKEN_LENGTH, BETTER_AUTH_ALPHABET.length),
      randomness: 'crypto.getRandomValues, 64 bytes per call, rejection-sampled to 62 characters',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    generate: () => generateId(BETTER_AUTH_TOKEN_LENGTH),
  })
}

const REFERENCE = { kind: 'reference' } as const

export const ID_REFERENCES: readonly IdCandidate[] = [
  {
    id: 'ref:randomUUID',
    label: RANDOM_UUID_LABEL,
    create: createRandomUuidReference,
    source: REFERENCE,
  },
  ...(randomUUIDv7
    ? [
        {
          id: 'ref:randomUUIDv7',
          label: RANDOM_UUID_V7_LABEL,
          create: createRandomUuidV7Reference,
          source: REFERENCE,
        },
      ]
    : []),
  {
    id: 'ref:flat-string',
    label: 'flat 32-char string (INSECURE ceiling, no randomness)',
    create: createFlatStringFloor,
    source: REFERENCE,
  },
  {
    id: 'ref:counter',
    label: 'unique counter (INSECURE, http ceiling)',
    create: createCounterIdGenerator,
    source: REFERENCE,
  },
  {
    id: 'ref:express-session',
    label: "express-session's default genid [ref]",
    create: createExpressSessionDefault,
    source: REFERENCE,
  },
  {
    id: 'ref:fastify-session',
    label: "@fastify/session's default idGenerator [ref]",
    create: createFastifySessionDefault,
    source: REFERENCE,
  },
  {
    id: 'ref:better-auth',
    label: "better-auth's session token, generateId(32) [ref]",
    create: createBetterAuthDefault,
    source: REFERENCE,
  },
]

/** References this Node cannot run, with the reason: listed as skipped, never created. */
export const ID_REFERENCE_SKIPS: readonly Skipped[] = randomUUIDv7
  ? []
  : [
      {
        name: 'ref:randomUUIDv7',
        reason: `needs Node >= 24 (crypto.randomUUIDv7); this is Node ${process.versions.node}`,
      },
    ]
