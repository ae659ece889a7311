import { BCRYPT, formatBcryptHash, parseBcryptHash } from './algorithms/bcrypt.js'
import type { AlgorithmProfile, Params, WorkEstimate } from './algorithms/profile.js'
import { getAlgorithm } from './algorithms/registry.js'
import { InvalidOptionError } from './errors.js'
import type { PasswordHasherInfo } from './hash.js'
import { decodeKdfHash, encodeKdfHash, invalidParams, type KdfProfile } from './kdf-format.js'
import { type ResolvedLimits, resolveLimits } from './limits.js'
import { DEFAULT_PHC_BOUNDS } from './phc.js'

/** A stored hash rewritten to chosen parameters (and output length): its hash bytes no longer match. */
export interface StoredHashCase {
  /** The parameters as a PHC-style list, plus what changed for a step beyond: `ln=19,r=8,p=1 (ln +1)`. */
  readonly label: string
  readonly params: Params
  readonly hashBytes: number
  readonly work: WorkEstimate
  readonly encoded: string
}

/** The costliest stored hash the limits accept, and every one-step rise from it (each refused). */
export interface WorstInBudget {
  readonly worst: StoredHashCase
  readonly beyond: readonly StoredHashCase[]
}

/** The parameters and output length of a stored hash, and a way to write it back with others. */
interface Rewritable {
  readonly params: Params
  readonly hashBytes: number
  /** False when the format fixes the output length (bcrypt's 23-byte checksum). */
  readonly variableLength: boolean
  readonly rewrite: (params: Params, hashBytes: number) => string
}

function rewritable(profile: AlgorithmProfile, genuine: string): Rewritable {
  if (profile === BCRYPT) {
    const { cost, salt, checksum } = parseBcryptHash(genuine)
    return {
      params: { cost },
      hashBytes: checksum.length,
      variableLength: false,
      rewrite: (params) => formatBcryptHash(params.cost as number, salt, checksum),
    }
  }
  if (!('phc' in profile)) {
    throw new InvalidOptionError(
      `worstInBudget rewrites bcrypt and PHC-string hashes; ${profile.id} is neither`,
    )
  }
  const kdf = profile as KdfProfile
  const { params, salt, hash } = decodeKdfHash(kdf, genuine)
  return {
    params,
    hashBytes: hash.length,
    variableLength: true,
    rewrite: (next, hashBytes) => {
      // The genuine bytes, cut or zero-padded: a longer stored output is what asks PBKDF2 for more blocks.
      const bytes = new Uint8Array(hashBytes)
      bytes.set(hash.subarray(0, hashBytes))
      return encodeKdfHash(kdf, next, salt, bytes)
    },
  }
}

/**
 * What verifying a stored hash costs, read from the hash itself (bcrypt's cost, a PHC string's
 * parameters and output length): InvalidHashError for anything malformed.
 */
export function storedHashWork(profile: AlgorithmProfile, encoded: string): WorkEstimate {
  const { params, hashBytes } = rewritable(profile, encoded)
  return profile.work(params, hashBytes)
}

const moreWork = (a: WorkEstimate, b: WorkEstimate) => a.units > b.units || a.memoryBytes > b.memoryBytes

const describeParams = (params: Params) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${value}`)
    .join(',')

/**
 * The costliest stored hash `limits` still accept, written from `genuine` (a hash the hasher made), and
 * every single step beyond it. What a tampered database row can make one verify cost is this, not the
 * configured parameters.
 *
 * Derived from the profile alone: starting from the genuine hash's parameters, each parameter in the
 * profile's order is raised as far as its cap, the work budget and the algorithm's validity rules
 * allow (a binary search: every profile's work estimate grows with each parameter). A parameter the
 * estimate ignores keeps its value (argon2's lanes p split the memory, RFC 9106 §3.2; raising it adds
 * no work). The output length stays the genuine one. The result is maximal: `beyond` holds each
 * one-step rise, every one refused by the same limits — each parameter +1 where that adds work or
 * crosses its cap, and, for an algorithm whose work grows with the stored output, the shortest longer
 * output that adds work (PBKDF2 runs every iteration once per hLen-byte block, RFC 8018 §5.2).
 */
export function worstInBudget(
  profile: AlgorithmProfile,
  limits: ResolvedLimits,
  genuine: string,
): WorstInBudget {
  const stored = rewritable(profile, genuine)
  const withinCaps = (params: Params) =>
    Object.entries(limits.caps).every(([key, cap]) => (params[key] as number) <= cap)
  const accepts = (params: Params, hashBytes: number) => {
    const work = profile.work(params, hashBytes)
    return (
      withinCaps(params) &&
      invalidParams(profile, params) === undefined &&
      work.units <= limits.budget.units &&
      work.memoryBytes <= limits.budget.memoryBytes
    )
  }
  const hashBytes = stored.hashBytes
  if (!accepts(stored.params, hashBytes)) {
    throw new InvalidOptionError(
      `the genuine ${profile.id} hash (${describeParams(stored.params)}) is already outside the limits`,
    )
  }

  const params: Record<string, number> = { ...stored.params }
  for (const key of Object.keys(profile.params)) {
    const from = params[key] as number
    // The cap bounds the search; a parameter without one is bounded by the budget alone.
    let high = limits.caps[key] ?? Number.MAX_SAFE_INTEGER
    let low = from
    while (low < high) {
      const mid = low + Math.ceil((high - low) / 2)
      if (accepts({ ...params, [key]: mid }, hashBytes)) low = mid
      else high = mid - 1
    }
    if (moreWork(profile.work({ ...params, [key]: low }, hashBytes), profile.work(params, hashBytes))) {
      params[key] = low
    }
  }

  const make = (next: Params, bytes: number, change?: string): StoredHashCase => ({
    label: `${describeParams(next)}${bytes === hashBytes ? '' : `, ${bytes}-byte hash`}${change ? ` (${change})` : ''}`,
    params: Object.freeze({ ...next }),
    hashBytes: bytes,
    work: profile.work(next, bytes),
    encoded: stored.rewrite(next, bytes),
  })
  const worst = make(params, hashBytes)
  const beyond: StoredHashCase[] = []
  for (const key of Object.keys(profile.params)) {
    const next = { ...params, [key]: (params[key] as number) + 1 }
    if (!withinCaps(next) || moreWork(profile.work(next, hashBytes), worst.work)) {
      beyond.push(make(next, hashBytes, `${key} +1`))
    }
  }
  if (stored.variableLength) {
    for (let bytes = hashBytes + 1; bytes <= DEFAULT_PHC_BOUNDS.maxHashBytes; bytes++) {
      if (moreWork(profile.work(params, bytes), worst.work)) {
        beyond.push(make(params, bytes, `hash bytes +${bytes - hashBytes}`))
        break
      }
    }
  }
  return Object.freeze({ worst, beyond: Object.freeze(beyond) })
}

/**
 * The worst case of a hasher built without `limits` options, from its `info` and a hash it wrote: its
 * limits are the profile's, raised to its configured parameters at the length it writes.
 */
export function worstForDefaultLimits(
  info: Pick<PasswordHasherInfo, 'algorithm' | 'params'>,
  genuine: string,
): WorstInBudget & { readonly profile: AlgorithmProfile; readonly limits: ResolvedLimits } {
  const profile = getAlgorithm(info.algorithm)
  const configured = Object.fromEntries(
    Object.keys(profile.params).map((key) => [key, Number(info.params[key])]),
  )
  const limits = resolveLimits(profile, configured, rewritable(profile, genuine).hashBytes)
  return { profile, limits, ...worstInBudget(profile, limits, genuine) }
}
