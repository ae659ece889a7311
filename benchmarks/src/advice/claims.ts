/**
 * The questions authlab exists to answer, each stated by a source it builds on, and the rows of a run
 * that answer it. A README's findings block prints one line per claim from committed runs, so a
 * sentence like "bcryptjs is slower than native bcrypt" is always the current data's, with its interval.
 */
import { keyOf, matches, type RowKey } from '../model/keys.js'
import { hasFlag, type Ratio, type Row } from '../model/types.js'

export interface ClaimPart {
  /** What this part measures, in a few words ("hash", "verify", "K = 2"). */
  readonly label: string
  /** The row that answers it, chosen by its key (src/keys.ts), never by a display label. */
  readonly pick: (row: Row) => boolean
  /** Which of the row's ratios answers it, by its baseline's id (default: the first). */
  readonly ratio?: (q: Ratio) => boolean
  /**
   * Reads that ratio against a ceiling instead of 1, named by the row's detail of that name (a
   * speed-up against min(K, cores)): its rounds divided by the ceiling and judged again, so "does not
   * reach the ceiling" is a decided verdict where "no faster than one at a time" needs ±5 % precision.
   */
  readonly ceiling?: string
}

export interface Claim {
  readonly title: string
  /** Who claimed what, with a link a reader can follow. */
  readonly source: string
  readonly parts: (rows: readonly Row[], cores: number) => readonly ClaimPart[]
}

const at = (want: Partial<RowKey>) => (row: Row) => matches(row, want)

/** A measured candidate: a row with a ratio that is neither the baseline nor its A/A control. */
const compared = (r: Row) => r.ratios.length > 0 && !hasFlag(r, 'baseline') && !hasFlag(r, 'control')

/** The same row as `row` (its whole key): for parts that enumerate a run's rows. */
const same = (row: Row) => at(keyOf(row))

/** The ratio to the baseline with this id (a candidate id, or `K=1`). */
const against = (id: string) => (q: Ratio) => q.against === id

/** A row of the quick run's ids-in-fastify suite, or of the on-request http suite's fastify group. */
const inFastify = (candidate: string) => (row: Row) =>
  (row.suite === 'ids-in-fastify' || row.suite === 'http') &&
  matches(row, { setting: 'fastify', operation: 'request', candidate })

/** The stretch suite's settings (STRETCH_SETTINGS of src/suites/stretch/jobs.ts; a test holds them equal). */
export const ONEPW = { pbkdf2: 'onepw:[1]', chain: 'onepw:chain' } as const
const BCRYPT_10 = 'bcrypt:cost=10'
const ARGON2ID_OWASP = 'argon2id:m=19456,t=2,p=1'
const PBKDF2_OWASP = 'pbkdf2-sha256:iterations=600000'

export const CLAIMS: readonly Claim[] = [
  {
    title: 'bcryptjs (pure JS) against native bcrypt at cost 10',
    source:
      'the bcryptjs README and its users measured it about 30 % slower per hash (https://github.com/dcodeIO/bcrypt.js)',
    parts: () => [
      ...(['hash', 'verify'] as const).map((operation) => ({
        label: operation,
        pick: at({ suite: 'hash', setting: BCRYPT_10, operation, candidate: '@authlab/hash-bcryptjs' }),
      })),
    ],
  },
  {
    title:
      'Does hashing on the main thread block the event loop? Share of hashing time a 1 ms timer still ran, against native and against workers',
    source:
      'a hasher on the main thread holds the event loop (and a 1 ms timer) for its whole hash; one on the libuv pool or a worker does not',
    // One part per baseline of each main-thread hasher; how close the offloading ones come to native
    // is the lag table's, not this claim's.
    parts: (rows) =>
      rows
        .filter((r) => r.suite === 'lag' && r.details['runs on'] === 'main-thread')
        .flatMap((r) =>
          r.ratios.map((q) => ({
            label: `${r.label} ÷ ${q.baseline}`,
            pick: same(r),
            ratio: against(q.against),
          })),
        ),
  },
  {
    title:
      "Does Node's async crypto.argon2 block the event loop? Share of hashing time a 1 ms timer still ran",
    source:
      'a report in the Node.js tracker (https://github.com/nodejs/node/issues/62861, April 2026) said that crypto.argon2 blocked the event loop; argon2Sync holds it by design',
    // Every size the run measured, against the native binding on the libuv pool: "same" means the loop
    // stays as free as with the binding (argon2Sync, which holds it by design, is in the claim above).
    parts: (rows) =>
      rows
        .filter(
          (r) =>
            r.suite === 'lag' &&
            r.candidate.startsWith('@authlab/hash-node-crypto-argon2') &&
            !hasFlag(r, 'control') &&
            r.ratios.length > 0,
        )
        .map((r) => ({
          // The question names crypto.argon2: the parameters tell the sizes apart (a variant's label
          // already carries them, so label plus parameters would say them twice).
          label: String(r.details.params ?? r.label),
          pick: same(r),
          ratio: against((r.ratios[0] as Ratio).against),
        })),
  },
  {
    title:
      'Hashes in parallel at K = cores: a strategy that scales beats one hash at a time, one that does not stays below the cores’ limit',
    source:
      'native bcrypt runs on the libuv threadpool and scales with the cores; bcryptjs runs on the main thread',
    // Each side of the claim by its own test: scaling is a speed-up decided above 1, not scaling is a
    // speed-up decided below min(K, cores), the most K concurrent hashes can reach.
    parts: (rows, cores) => {
      const labelOf = (id: string) => rows.find((r) => r.candidate === id)?.label ?? id
      const atK = (candidate: string) => at({ suite: 'concurrency', setting: `K=${cores}`, candidate })
      return [
        ...['@authlab/hash-bcrypt', '@authlab/hash-node-rs-bcrypt'].map((id) => ({
          label: `${labelOf(id)}, K = ${cores} ÷ one at a time`,
          pick: atK(id),
          ratio: against('K=1'),
        })),
        {
          label: `${labelOf('@authlab/hash-bcryptjs')}, K = ${cores} ÷ one at a time, as a share of the limit ${cores}`,
          pick: atK('@authlab/hash-bcryptjs'),
          ratio: against('K=1'),
          ceiling: 'limit min(K, cores)',
        },
      ]
    },
  },
  {
    title: "argon2id at OWASP's m=19456 t=2 p=1: CPU per hash against the Rust binding",
    source:
      'OWASP Password Storage Cheat Sheet (https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html), at equal parameters',
    parts: (rows) =>
      rows
        .filter(
          (r) => matches(r, { suite: 'hash', setting: ARGON2ID_OWASP, operation: 'hash' }) && compared(r),
        )
        .map((r) => ({ label: r.label, pick: same(r) })),
  },
  {
    title:
      "Mozilla's onepw key stretching: [4] scrypt compiled to WASM or JS against [3] native, and [1] Web Crypto PBKDF2 against node:crypto",
    source:
      'https://wiki.mozilla.org/Identity/AttachedServices/KeyServerProtocol (2013 measurements, ops/sec ± rme)',
    parts: (rows) => [
      // Row [1] is judged at the stretch suite's ±10 % (src/suites/stretch/jobs.ts); at OWASP's 600,000
      // iterations Web Crypto's fixed cost a call is a fraction of a percent, asked at the suites' margin.
      ...rows
        .filter((r) =>
          matches(r, {
            suite: 'stretch',
            setting: ONEPW.pbkdf2,
            candidate: '@authlab/hash-webcrypto',
          }),
        )
        .map((r) => ({ label: `${r.label} at 20,000 iterations`, pick: same(r) })),
      // Row [4]: the chain's scrypt compiled to WASM or JS, every one with a ratio to the native [3].
      ...rows
        .filter((r) => matches(r, { suite: 'stretch', setting: ONEPW.chain }) && compared(r))
        .map((r) => ({ label: r.label, pick: same(r) })),
      {
        label: "PBKDF2-SHA256 (WebCrypto) at OWASP's 600,000 iterations (hash suite)",
        pick: at({
          suite: 'hash',
          setting: PBKDF2_OWASP,
          operation: 'hash',
          candidate: '@authlab/hash-webcrypto',
        }),
      },
    ],
  },
  {
    title: 'Inside @fastify/session: req/s of session-creating requests against its own default idGenerator',
    source:
      '@fastify/session replaced uid-safe with a pooled randomBytes cache and measured about 13 % more req/s (https://github.com/fastify/session)',
    parts: () => [
      {
        label: "@fastify/session's default against express-session's (uid-safe)",
        pick: inFastify('ref:fastify-session'),
        ratio: against('ref:express-session'),
      },
      {
        label: "authlab fast against @fastify/session's default",
        pick: inFastify('@authlab/id-fast'),
        // Asked at the suite's ±10 % for this comparison (its ratio says so): src/suites of the server suites.
        ratio: against('ref:fastify-session'),
      },
    ],
  },
]

/** A framework's own defaults, as the bench measures them (references loaded from its installed code). */
export interface FrameworkDefault {
  readonly framework: string
  /** Its session-ID generator's candidate id in the ids suite (a baseline there). */
  readonly id: string
  /** Its default password hasher's candidate id, and the hash setting at that hasher's own parameters. */
  readonly hasher?: { readonly candidate: string; readonly setting: string }
  /**
   * What its generator needs that older runs lacked (a newer Node, a bench that measures it): a run
   * without that candidate leaves the row out.
   */
  readonly needs?: string
}

/** The session-ID generator the table compares every framework's default with. */
export const BEST_ID = '@authlab/id-fast'

export const FRAMEWORK_DEFAULTS: readonly FrameworkDefault[] = [
  { framework: 'express-session; NestJS on Express', id: 'ref:express-session' },
  { framework: '@fastify/session; NestJS on Fastify', id: 'ref:fastify-session' },
  {
    framework: 'better-auth',
    id: 'ref:better-auth',
    hasher: { candidate: 'ref:better-auth-password', setting: 'scrypt:ln=14,r=16,p=1' },
  },
  // Read from each framework's code (apps/frameworks/src/defaults.ts): the same UUID v4 call.
  { framework: 'Koa (koa-session with a store)', id: 'ref:randomUUID' },
  { framework: 'Nuxt, h3 (useSession)', id: 'ref:randomUUID' },
  { framework: 'Auth.js (database sessions)', id: 'ref:randomUUID' },
  { framework: 'Hono (hono-sessions)', id: 'ref:randomUUID' },
  { framework: 'Hono (@hono/session)', id: 'ref:hono-session', needs: 'a run that measures it' },
  { framework: 'apps using crypto.randomUUIDv7() as a token', id: 'ref:randomUUIDv7', needs: 'Node >= 24' },
]
