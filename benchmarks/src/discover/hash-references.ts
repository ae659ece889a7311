import * as nodeCrypto from 'node:crypto'
import {
  ARGON2ID,
  type Argon2idOptions,
  defineKdfHasher,
  InvalidOptionError,
  type Password,
  type PasswordHasher,
  UnsupportedRuntimeError,
} from '@authlab/core'
import type { HashCandidate, Skipped } from '../model/candidates.js'
import { fromBench, needsNewerNode } from './references.js'

/**
 * better-auth's fixed scrypt parameters (@better-auth/utils `password.node.ts`: N=16384, r=16, p=1,
 * dkLen=64), in the keys of core's scrypt profile, so the bench's cost-equalised setting of the same
 * parameters runs it beside every scrypt implementation.
 */
const BETTER_AUTH_PARAMS = Object.freeze({ ln: 14, r: 16, p: 1 })

interface BetterAuthPassword {
  hashPassword(password: string): Promise<string>
  verifyPassword(hash: string, password: string): Promise<boolean>
}

const asText = (password: Password) =>
  typeof password === 'string' ? password : new TextDecoder('utf-8', { fatal: true }).decode(password)

/**
 * better-auth's default email-and-password hasher, `hashPassword`/`verifyPassword` from
 * @better-auth/utils/password: under Node `password.node.mjs`, node:crypto scrypt on the threadpool, the
 * salt the hex text of 16 random bytes, stored as `saltHex:keyHex`. Fixed parameters: it takes no options.
 */
export function createBetterAuthHasher(options?: Record<string, unknown>): PasswordHasher {
  const keys = Object.keys(options ?? {})
  if (keys.length > 0) {
    throw new InvalidOptionError(
      `better-auth's hasher has fixed parameters and takes no options (got ${keys.join(', ')})`,
    )
  }
  const { hashPassword, verifyPassword } = fromBench('@better-auth/utils/password') as BetterAuthPassword
  return {
    info: {
      name: 'ref:better-auth-password',
      displayName: "better-auth's default hasher, scrypt N=2^14 r=16 [ref]",
      wraps: '@better-auth/utils/password hashPassword (node:crypto scrypt)',
      algorithm: 'scrypt',
      runsOn: 'threadpool',
      params: BETTER_AUTH_PARAMS,
    },
    hash: (password) => hashPassword(asText(password)),
    verify: (encoded, password) => verifyPassword(encoded, asText(password)),
    // The stored format carries no parameters to compare.
    needsRehash: () => false,
  }
}

const sameParams = (params: Readonly<Record<string, number>>) =>
  Object.keys(params).length === Object.keys(BETTER_AUTH_PARAMS).length &&
  Object.entries(BETTER_AUTH_PARAMS).every(([key, value]) => params[key] === value)

/** Node's argon2Sync (Node >= 24.7), read at call time: a named import would fail to load on Node 22. */
const argon2Sync = (nodeCrypto as { argon2Sync?: typeof nodeCrypto.argon2Sync }).argon2Sync

const ARGON2_SYNC_LABEL = 'argon2id (node:crypto argon2Sync) [ref]'

/**
 * `crypto.argon2Sync` (Node >= 24.7): the same OpenSSL derivation as @authlab/hash-node-crypto-argon2's
 * async `crypto.argon2`, on the main thread. Bench-only: what the async form buys is the event loop left
 * free, and this is the other side of that comparison, at every argon2id setting.
 */
export function createArgon2SyncHasher(options?: Argon2idOptions): PasswordHasher {
  const derive = argon2Sync
  if (!derive) {
    throw new UnsupportedRuntimeError(
      `crypto.argon2Sync needs Node >= 24.7; this is Node ${process.versions.node}`,
      undefined,
      'Node >= 24.7',
    )
  }
  return defineKdfHasher({
    algorithm: ARGON2ID,
    describe: {
      name: 'ref:crypto.argon2Sync',
      displayName: ARGON2_SYNC_LABEL,
      wraps: 'node:crypto argon2Sync (Node >= 24.7, OpenSSL), bench-only',
      runsOn: 'main-thread',
    },
    kdf: async (password, salt, params, length) =>
      derive('argon2id', {
        message: password,
        nonce: salt,
        parallelism: params.p as number,
        tagLength: length,
        memory: params.m as number,
        passes: params.t as number,
      }),
    options,
  })
}

/**
 * The larger argon2id memory size of the quick run (64 MiB, OWASP's t=2 p=1), at which the suites that
 * run each hasher at its defaults only (lag, concurrency) also run node:crypto's argon2: its CPU per hash
 * grows faster than memory (page faults per call; packages/hash-node-crypto-argon2's README), so one
 * size does not tell a user what another costs.
 */
const LARGER_ARGON2 = ARGON2ID.bench.find(
  (setting) => setting.quick && setting.params.m === 65536 && setting.params.p === 1,
)

/** Which candidates run again at LARGER_ARGON2 as their defaults: the built-in argon2, async and sync. */
const AT_LARGER_MEMORY: readonly string[] = ['@authlab/hash-node-crypto-argon2', 'ref:crypto.argon2Sync']

/**
 * Each of AT_LARGER_MEMORY in `hashers`, at LARGER_ARGON2 as its defaults, under its own key; never a
 * candidate of the cost-equalised settings (the original runs them all).
 */
export function atLargerMemory(hashers: readonly HashCandidate[]): HashCandidate[] {
  const setting = LARGER_ARGON2
  if (!setting) return []
  const { m, t, p } = setting.params
  return hashers.flatMap((base) => {
    if (!AT_LARGER_MEMORY.includes(base.id)) return []
    const options = base.optionsFor(ARGON2ID.id, setting.params)
    if (!options) return []
    const suffix = `m=${m} t=${t} p=${p}`
    return [
      {
        id: `${base.id} (${suffix})`,
        label: `${base.label} ${suffix}`,
        create: (extra?: Record<string, unknown>) => {
          const hasher = base.create({ ...options, ...extra })
          return { ...hasher, info: { ...hasher.info, displayName: `${hasher.info.displayName} ${suffix}` } }
        },
        optionsFor: () => undefined,
        source: base.source,
        variantOf: base.id,
      },
    ]
  })
}

export const HASH_REFERENCE_SKIPS: readonly Skipped[] = argon2Sync
  ? []
  : [needsNewerNode('ref:crypto.argon2Sync', '24.7', 'crypto.argon2Sync')]

export const HASH_REFERENCES: readonly HashCandidate[] = [
  {
    id: 'ref:better-auth-password',
    label: "better-auth's default hasher, scrypt N=2^14 r=16 [ref]",
    create: createBetterAuthHasher,
    // It runs only its own parameters: in any other setting it is not a candidate at all.
    optionsFor: (algorithm, params) => (algorithm === 'scrypt' && sameParams(params) ? {} : undefined),
    source: { kind: 'reference' },
  },
  ...(argon2Sync
    ? [
        {
          id: 'ref:crypto.argon2Sync',
          label: ARGON2_SYNC_LABEL,
          create: (options?: Record<string, unknown>) => createArgon2SyncHasher(options as Argon2idOptions),
          // Every argon2id setting: the same options as the async package takes (core's argon2id profile).
          optionsFor: (algorithm: string, params: Readonly<Record<string, number>>) =>
            algorithm === ARGON2ID.id ? { ...params } : undefined,
          source: { kind: 'reference' as const },
        },
      ]
    : []),
]
