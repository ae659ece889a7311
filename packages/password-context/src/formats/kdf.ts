import * as nodeCrypto from 'node:crypto'
import {
  type AlgorithmProfile,
  ARGON2ID,
  checkStoredWork,
  constantTimeEqual,
  definePbkdf2Profile,
  InvalidHashError,
  InvalidOptionError,
  invalidParams,
  type KdfProfile,
  ParameterLimitError,
  type Params,
  type PasswordHasher,
  PBKDF2_SHA256,
  type ResolvedLimits,
  resolveLimits,
  SCRYPT,
  UnsupportedRuntimeError,
} from '@authlab/core'
import { UnsupportedHashError } from './unsupported.js'

/**
 * The primitives the foreign formats are built on, each bounded by core's profile of its algorithm
 * before any work: the same caps and work budget (about a second and 256 MiB on a 2-core server) as
 * authlab's own hashers apply to a stored hash.
 */

export type Pbkdf2Digest = 'sha1' | 'sha256' | 'sha512'

// OWASP Password Storage Cheat Sheet, PBKDF2: "PBKDF2-HMAC-SHA1: 1,300,000 iterations",
// "PBKDF2-HMAC-SHA512: 210,000 iterations". The budgets are sized as core's SHA-256 one is, to about
// a second of native PBKDF2: an HMAC-SHA-1 block costs what an HMAC-SHA-256 one does in OpenSSL, an
// HMAC-SHA-512 block about three times as much.
const PBKDF2_PROFILES: Record<Pbkdf2Digest, KdfProfile> = {
  sha1: definePbkdf2Profile({
    digest: 'sha1',
    outputBytes: 20,
    iterations: 1_300_000,
    maxIterations: 10_000_000,
    budgetUnits: 4_000_000,
  }),
  sha256: PBKDF2_SHA256,
  sha512: definePbkdf2Profile({
    digest: 'sha512',
    outputBytes: 64,
    iterations: 210_000,
    maxIterations: 10_000_000,
    budgetUnits: 1_500_000,
  }),
}

const limitsByProfile = new WeakMap<AlgorithmProfile, ResolvedLimits>()

/**
 * A profile's own caps and budget, as a hasher configured at its defaults writing 32-byte hashes would
 * apply them: never raised by the stored hash itself (a long PBKDF2 output asks for more blocks).
 */
function limitsOf(profile: AlgorithmProfile): ResolvedLimits {
  let limits = limitsByProfile.get(profile)
  if (!limits) {
    limits = resolveLimits(profile, profile.defaults, 32)
    limitsByProfile.set(profile, limits)
  }
  return limits
}

/**
 * ParameterLimitError when a stored hash would cost more than its algorithm's caps or budget. These
 * readers take no `limits` option (a stack's stored hashes are data, their caps core's), so core's
 * hint to raise one is dropped from the message.
 */
export function checkWork(profile: AlgorithmProfile, params: Params, hashBytes: number): void {
  try {
    checkStoredWork(profile, params, hashBytes, limitsOf(profile))
  } catch (error) {
    if (!(error instanceof ParameterLimitError)) throw error
    throw new ParameterLimitError(error.message.replace(/ \(raise limits\.[^)]*\)$/, ''), { cause: error })
  }
}

/** PBKDF2-HMAC (RFC 8018 §5.2) on the libuv threadpool, bounded first. */
export async function pbkdf2(
  digest: Pbkdf2Digest,
  password: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  length: number,
): Promise<Uint8Array> {
  checkWork(PBKDF2_PROFILES[digest], { iterations }, length)
  return new Promise((resolve, reject) =>
    nodeCrypto.pbkdf2(password, salt, iterations, length, digest, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    ),
  )
}

export type ScryptParams = {
  /** log2 of N. */
  readonly ln: number
  readonly r: number
  readonly p: number
}

/** log2 of a stored scrypt N, which must be a power of two above 1 (RFC 7914 §2). */
export function scryptLog2(n: number, what: string): number {
  const ln = Math.log2(n)
  if (!Number.isSafeInteger(n) || n < 2 || !Number.isInteger(ln)) {
    throw new InvalidHashError(`${what}: scrypt N must be a power of two above 1, got ${n}`)
  }
  return ln
}

/** scrypt (RFC 7914) on the libuv threadpool, bounded first by core's scrypt profile. */
export async function scrypt(
  password: Uint8Array,
  salt: Uint8Array,
  params: ScryptParams,
  length: number,
): Promise<Uint8Array> {
  const problem = invalidParams(SCRYPT, params)
  if (problem) throw new InvalidHashError(problem)
  checkWork(SCRYPT, params, length)
  const N = 2 ** params.ln
  // OpenSSL's EVP_PBE_scrypt needs 128·r·(N + p + 2) bytes; node:crypto refuses more than maxmem, whose
  // default (32 MiB) is below what N=2^15, r=8 needs. The budget above already bounds this.
  const maxmem = 128 * params.r * (N + params.p + 2) + 1024
  return new Promise((resolve, reject) =>
    nodeCrypto.scrypt(password, salt, length, { N, r: params.r, p: params.p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    ),
  )
}

export type Argon2Variant = 'argon2d' | 'argon2i' | 'argon2id'

export type Argon2Params = {
  /** Memory in KiB. */
  readonly m: number
  /** Passes. */
  readonly t: number
  /** Lanes. */
  readonly p: number
}

/**
 * Raw argon2 (RFC 9106, version 0x13): the tag of `length` bytes for a password, salt and parameters.
 * The default is Node's own `crypto.argon2` (Node ≥ 24.7, on the libuv threadpool); pass another (say
 * @node-rs/argon2's `hashRaw`) on an older Node.
 */
export type Argon2Engine = (
  variant: Argon2Variant,
  password: Uint8Array,
  salt: Uint8Array,
  params: Argon2Params,
  length: number,
) => Promise<Uint8Array>

/** The first Node with `crypto.argon2` (Node 24.7.0 changelog: "crypto: add argon2() and argon2Sync()"). */
const ARGON2_NODE = '24.7'

type NodeArgon2 = (
  algorithm: Argon2Variant,
  parameters: {
    message: Uint8Array
    nonce: Uint8Array
    parallelism: number
    tagLength: number
    memory: number
    passes: number
  },
  callback: (error: Error | null, tag: Buffer) => void,
) => void

/**
 * Node's `crypto.argon2` as an engine, or undefined on a Node without it. Read from the module
 * namespace at call time: a named import of a missing export would fail this module's loading on
 * Node 20, where everything but argon2 must still work.
 */
export function nodeArgon2Engine(): Argon2Engine | undefined {
  const argon2 = (nodeCrypto as unknown as { argon2?: NodeArgon2 }).argon2
  if (typeof argon2 !== 'function') return undefined
  return (variant, password, salt, params, length) =>
    new Promise((resolve, reject) =>
      argon2(
        variant,
        {
          message: password,
          nonce: salt,
          parallelism: params.p,
          tagLength: length,
          memory: params.m,
          passes: params.t,
        },
        (error, tag) => (error ? reject(error) : resolve(new Uint8Array(tag))),
      ),
    )
}

/** argon2 of any variant, bounded first by core's argon2id profile (the variants cost the same, RFC 9106 §3). */
export async function argon2(
  engine: Argon2Engine | undefined,
  variant: Argon2Variant,
  password: Uint8Array,
  salt: Uint8Array,
  params: Argon2Params,
  length: number,
): Promise<Uint8Array> {
  const problem = invalidParams(ARGON2ID, params)
  if (problem) throw new InvalidHashError(problem)
  // RFC 9106 §3.1: a salt of at least 8 bytes and a tag of at least 4 (OpenSSL refuses less).
  if (salt.length < 8) throw new InvalidHashError(`${variant} salt shorter than 8 bytes`)
  if (length < 4) throw new InvalidHashError(`${variant} tag shorter than 4 bytes`)
  checkWork(ARGON2ID, params, length)
  if (!engine) {
    throw new UnsupportedRuntimeError(
      `verifying ${variant} needs Node >= ${ARGON2_NODE} (node:crypto argon2), or an \`argon2\` engine option; this is Node ${process.versions.node}`,
      undefined,
      `Node >= ${ARGON2_NODE}`,
    )
  }
  return engine(variant, password, salt, params, length)
}

/** The `argon2` option: a function, or Node's own engine when none is given. */
export function argon2Option(owner: string, engine: unknown): Argon2Engine | undefined {
  if (engine === undefined) return nodeArgon2Engine()
  if (typeof engine !== 'function') {
    throw new InvalidOptionError(`${owner}: option "argon2" must be an argon2 engine function`)
  }
  return engine as Argon2Engine
}

/** The `bcrypt` option: an authlab bcrypt hasher (any of @authlab/hash-bcrypt, -bcryptjs, -node-rs-bcrypt…). */
export function bcryptOption(owner: string, hasher: unknown): PasswordHasher | undefined {
  if (hasher === undefined) return undefined
  const h = hasher as Partial<PasswordHasher> | null
  if (h?.info?.algorithm !== 'bcrypt' || typeof h.verify !== 'function' || typeof h.hash !== 'function') {
    throw new InvalidOptionError(`${owner}: option "bcrypt" must be an authlab bcrypt hasher`)
  }
  return hasher as PasswordHasher
}

/** The bcrypt hasher a stored hash needs, or a typed error saying which option to give. */
export function needBcrypt(owner: string, hasher: PasswordHasher | undefined): PasswordHasher {
  if (hasher) return hasher
  throw new UnsupportedHashError(
    'bcrypt',
    `${owner}: this stored hash is bcrypt and no bcrypt hasher is configured: pass an authlab bcrypt hasher as the \`bcrypt\` option`,
  )
}

/**
 * bcrypt reads at most 72 bytes of key (Provos & Mazières 1999, §6), and the libraries these stacks
 * used (crypt_blowfish in PHP, pyca/bcrypt before 5.0, Spring's BCrypt, bcrypt-ruby) ignored the rest:
 * a stored hash checks the first 72 bytes.
 */
export const bcryptKey = (password: Uint8Array) => password.subarray(0, 72)

export const sameBytes = constantTimeEqual
