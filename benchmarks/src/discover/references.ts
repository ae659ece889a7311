import * as nodeCrypto from 'node:crypto'
import { createRequire } from 'node:module'
import {
  base64urlIdShape,
  defineIdGenerator,
  entropyBitsOf,
  type IdGeneratorInfo,
  UnsupportedRuntimeError,
} from '@authlab/core'
import type { IdCandidate, Skipped } from '../model/candidates.js'

const { randomUUID } = nodeCrypto

const HEX_AND_DASH = '0123456789abcdef-'
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'
const COUNTER_LENGTH = 32
const COUNTER_DIGITS = 11

type Shape = Pick<IdGeneratorInfo, 'length' | 'alphabet' | 'entropyBits' | 'runsOn'>

/** A uuid string: 36 characters of hex and dashes. */
const uuidShape = (entropyBits: number): Shape => ({
  length: 36,
  alphabet: HEX_AND_DASH,
  entropyBits,
  runsOn: 'main-thread',
})

/** Nothing random: the bench-only ceilings, 32 base-36 characters like the real generators. */
const NO_ENTROPY: Shape = { length: COUNTER_LENGTH, alphabet: BASE36, entropyBits: 0, runsOn: 'main-thread' }

/**
 * A reference generator as a candidate: id and label from its descriptor, and `make` run at each
 * creation for a fresh generator function.
 */
function reference(info: IdGeneratorInfo, make: () => () => string): IdCandidate {
  const create = () => defineIdGenerator({ info, generate: make() })
  return { id: info.name, label: info.displayName, create, source: { kind: 'reference' } }
}

/** Node's UUID v7 (Node >= 24), read at call time: a named import would fail to load on Node 22. */
const randomUUIDv7 = (nodeCrypto as { randomUUIDv7?: typeof nodeCrypto.randomUUIDv7 }).randomUUIDv7

/**
 * Node's UUID v7 (RFC 9562 §5.7: a 48-bit Unix millisecond timestamp, then 74 random bits), which many
 * apps now use as a token because it sorts by time. As a session ID the timestamp is readable by anyone
 * holding the cookie: it says when the session began. Measured as a reference, never recommended.
 */
const UUID_V7 = reference(
  {
    name: 'ref:randomUUIDv7',
    // Short, for table cells; the whole sentence is `randomness`, in the method and legend.
    displayName: 'crypto.randomUUIDv7() [ref; 74 random bits + ms timestamp]',
    wraps: 'crypto.randomUUIDv7()',
    ...uuidShape(74),
    randomness:
      'OS-seeded CSPRNG, batched by Node: 74 random bits + a millisecond timestamp that tells anyone holding the cookie when the session began',
    poolBytes: 2048,
  },
  () => {
    const generate = randomUUIDv7
    if (!generate) {
      throw new UnsupportedRuntimeError(
        `crypto.randomUUIDv7() needs Node >= 24; this is Node ${process.versions.node}`,
        undefined,
        'Node >= 24',
      )
    }
    // A wrapper of our own: `defineIdGenerator` sets `info` on the function it is given, and Node's
    // built-in must stay as Node made it (a second creation would also fail to redefine it).
    return () => generate()
  },
)

export const createRandomUuidV7Reference = UUID_V7.create

/** The session frameworks as the http servers install them: their defaults are loaded from there, not retyped. */
export const fromServers = createRequire(import.meta.resolve('@authlab/servers'))

/** better-auth's packages as the bench installs them: its own code is loaded, never retyped. */
export const fromBench = createRequire(import.meta.url)

const BETTER_AUTH_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const BETTER_AUTH_TOKEN_LENGTH = 32
/** @hono/session's ID: 40 hex digits through `btoa`, so standard base64 with `=` padding. */
const HONO_SESSION_ID_LENGTH = 56
const BASE64_PADDED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='

/** Every reference generator, including those this Node cannot run. */
const ALL_REFERENCES: readonly IdCandidate[] = [
  /**
   * Node's own UUID v4 (RFC 9562 §5.4): the yardstick most readers know, and what Auth.js, koa-session,
   * h3 and hono-sessions call for their session IDs (the label says so, for readers looking for theirs).
   */
  reference(
    {
      name: 'ref:randomUUID',
      displayName: 'crypto.randomUUID() [ref; Auth.js, koa, h3, hono-sessions]',
      wraps: 'crypto.randomUUID()',
      ...uuidShape(122),
      randomness: 'OS-seeded CSPRNG, batched by Node',
      poolBytes: 2048,
    },
    () => () => randomUUID(),
  ),
  UUID_V7,
  /**
   * INSECURE, no randomness: the cheapest new flat 32-character string the engine makes, one
   * `String.fromCharCode` of 32 literal codes per call ("0…9a…v"). Every generator must at least produce
   * such a string, so it is the ids suite's ceiling: a real generator's "% of ceiling" cannot exceed 100.
   */
  reference(
    {
      name: 'ref:flat-string',
      displayName: 'flat 32-char string (INSECURE ceiling, no randomness)',
      wraps: 'String.fromCharCode(32 literal codes), bench-only',
      ...NO_ENTROPY,
      randomness: 'none: a constant',
      poolBytes: 0,
    },
    // Literal arguments (no spread, no array): the call and the new string are all that is paid for.
    // biome-ignore format: 32 literal codes read better on one line than on 32
    () => () => String.fromCharCode(48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118),
  ),
  /**
   * INSECURE, bench-only: a unique counter padded to 32 characters, the length of the real generators.
   * It is the http suite's ceiling: a constant or cycling ID would be unfairly cheap downstream because
   * a session store keyed by it stays tiny. Never published, never a session ID.
   */
  reference(
    {
      name: 'ref:counter',
      displayName: 'unique counter (INSECURE, http ceiling)',
      wraps: 'prefix + counter.toString(36), bench-only',
      ...NO_ENTROPY,
      randomness: 'none: a counter',
      poolBytes: 0,
    },
    () => {
      // A per-process random prefix keeps IDs unique across processes sharing one store in a bench.
      const prefix = randomUUID()
        .replaceAll('-', '')
        .slice(0, COUNTER_LENGTH - COUNTER_DIGITS)
      let counter = 0
      return () => prefix + (counter++).toString(36).padStart(COUNTER_DIGITS, '0')
    },
  ),
  /** express-session's default `genid` is `uid(24)` with uid-safe's `sync` (index.js `generateSessionId`). */
  reference(
    {
      name: 'ref:express-session',
      displayName: "express-session's default genid [ref]",
      wraps: "express-session's own uid-safe, sync(24)",
      ...base64urlIdShape(24),
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), one call per ID',
      poolBytes: 0,
    },
    () => {
      const uidSafe = createRequire(fromServers.resolve('express-session'))('uid-safe') as {
        sync(bytes: number): string
      }
      return () => uidSafe.sync(24)
    },
  ),
  /** @fastify/session's default `idGenerator`: its own lib/idGenerator.js, base64url variant. */
  reference(
    {
      name: 'ref:fastify-session',
      displayName: "@fastify/session's default idGenerator [ref]",
      wraps: "@fastify/session's lib/idGenerator.js",
      ...base64urlIdShape(24),
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), 3072-byte pool, one copy per ID',
      poolBytes: 3072,
    },
    () => {
      const factory = fromServers('@fastify/session/lib/idGenerator.js') as (
        base64url?: boolean,
      ) => () => string
      return factory(true)
    },
  ),
  /**
   * better-auth's session token: its internal adapter stores `generateId(32)` (better-auth
   * `db/internal-adapter.mjs`, createSession) from @better-auth/core `utils/id`, which is
   * @better-auth/utils' `createRandomStringGenerator('a-z', 'A-Z', '0-9')`: bytes from
   * `crypto.getRandomValues`, rejection-sampled to 62 characters (values ≥ 248 are dropped).
   */
  reference(
    {
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
    () => {
      const { generateId } = fromBench('@better-auth/core/utils/id') as { generateId(size?: number): string }
      return () => generateId(BETTER_AUTH_TOKEN_LENGTH)
    },
  ),
  /**
   * @hono/session's default `generateId()` (its cookies module, loaded from the package): 20 bytes of
   * `crypto.getRandomValues` as 40 hex digits, then base64-encoded by `btoa`, 56 characters for 160 bits.
   */
  reference(
    {
      name: 'ref:hono-session',
      displayName: "@hono/session's default generateId [ref]",
      wraps: "@hono/session's generateId(20) (@hono/session/cookies)",
      length: HONO_SESSION_ID_LENGTH,
      alphabet: BASE64_PADDED,
      entropyBits: 160,
      randomness: 'crypto.getRandomValues, 20 bytes per call',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    () => {
      const { generateId } = fromBench('@hono/session/cookies') as { generateId(length?: number): string }
      return () => generateId()
    },
  ),
]

export const ID_REFERENCES = ALL_REFERENCES.filter((c) => c !== UUID_V7 || randomUUIDv7 !== undefined)

/** A reference's display label, for the runtimes' groups, which measure the same code in other runtimes. */
export function referenceLabel(id: string): string {
  const found = ALL_REFERENCES.find((c) => c.id === id)
  if (!found) throw new Error(`no ID reference ${JSON.stringify(id)}`)
  return found.label
}

/** A reference this Node cannot run, with the reason: listed as skipped, never created. */
export const needsNewerNode = (name: string, node: string, api: string): Skipped => ({
  name,
  reason: `needs Node >= ${node} (${api}); this is Node ${process.versions.node}`,
})

export const ID_REFERENCE_SKIPS: readonly Skipped[] = randomUUIDv7
  ? []
  : [needsNewerNode('ref:randomUUIDv7', '24', 'crypto.randomUUIDv7')]
