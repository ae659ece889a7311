import { InvalidOptionError } from './errors.js'

/**
 * OWASP's floor per algorithm: the weakest settings the Password Storage Cheat Sheet accepts, as it
 * lists them (cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html, revision of
 * 2026-06-25: "Argon2id", "scrypt", "bcrypt" and "PBKDF2" sections). Each algorithm's rows are settings
 * the sheet calls equal in defence; a setting is at or above the floor when it is at least one row in
 * every quantity that row fixes. Parameters are keyed as the algorithm profiles key them (`info.params`).
 */
export interface FloorVerdict {
  /** At or above one of the sheet's rows for the algorithm. */
  readonly meets: boolean
  /** The row it meets (the first, in the sheet's order), or, when it meets none, the sheet's first row. */
  readonly row: string
  /** Why it falls short, in one sentence, when it does. */
  readonly reason?: string
  /** The sheet accepts the setting for legacy systems only ("do not select for new systems"). */
  readonly legacyOnly?: boolean
}

/** Argon2id rows (m in KiB, t passes), all with p=1: "These configuration settings provide an equal level of defense". */
export const OWASP_ARGON2ID_ROWS = [
  { m: 47104, t: 1 },
  { m: 19456, t: 2 },
  { m: 12288, t: 3 },
  { m: 9216, t: 4 },
  { m: 7168, t: 5 },
] as const

/** scrypt rows, all with r=8 (1024-byte blocks): "a similar minimal level of defense". */
export const OWASP_SCRYPT_ROWS = [
  { ln: 17, p: 1 },
  { ln: 16, p: 2 },
  { ln: 15, p: 3 },
  { ln: 14, p: 5 },
  { ln: 13, p: 10 },
] as const

/** bcrypt: "a minimum of 10". */
export const OWASP_BCRYPT_MIN_COST = 10

/** PBKDF2 iterations per HMAC digest; SHA-1's row is "legacy only, do not select for new systems". */
export const OWASP_PBKDF2_ITERATIONS = { sha256: 600_000, sha512: 220_000, sha1: 1_400_000 } as const

type Params = Readonly<Record<string, number | string>>

/**
 * Whether `params` for `algorithm` (an `info.algorithm` id: argon2id, scrypt, bcrypt, pbkdf2-sha256,
 * pbkdf2-sha512, pbkdf2-sha1) are at or above OWASP's floor. An algorithm the sheet gives no floor
 * for, or a missing or non-numeric parameter, is an InvalidOptionError: never a guess.
 */
export function owaspFloor(algorithm: string, params: Params): FloorVerdict {
  if (algorithm === 'argon2id') return argon2idFloor(params)
  if (algorithm === 'scrypt') return scryptFloor(params)
  if (algorithm === 'bcrypt') return bcryptFloor(params)
  const digest = /^pbkdf2-(sha1|sha256|sha512)$/.exec(algorithm)?.[1] as
    | keyof typeof OWASP_PBKDF2_ITERATIONS
    | undefined
  if (digest) return pbkdf2Floor(digest, params)
  throw new InvalidOptionError(
    `OWASP's Password Storage Cheat Sheet gives no floor for "${algorithm}" (it has: argon2id, scrypt, bcrypt, pbkdf2-sha256, pbkdf2-sha512, pbkdf2-sha1)`,
  )
}

/** The named parameters as positive integers, or the typed error naming the one that is not. */
function numbers<K extends string>(algorithm: string, params: Params, keys: readonly K[]): Record<K, number> {
  const out = {} as Record<K, number>
  for (const key of keys) {
    const value = params[key]
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
      throw new InvalidOptionError(
        `${algorithm} parameter "${key}" must be a positive integer to compare with OWASP's floor (got ${String(value)})`,
      )
    out[key] = value
  }
  return out
}

const verdict = (row: string | undefined, first: string, reason: string): FloorVerdict =>
  row === undefined ? { meets: false, row: first, reason } : { meets: true, row }

/**
 * Argon2id: at least one row's memory and passes. Lanes do not lower the bar: RFC 9106 §3.2 splits the
 * m blocks among the p lanes, so memory and passes, not lanes, set what one guess costs an attacker;
 * the sheet's rows fix p=1, and more lanes at the same m and t meet the same row.
 */
function argon2idFloor(params: Params): FloorVerdict {
  const { m, t } = numbers('argon2id', params, ['m', 't', 'p'])
  const describe = (r: { m: number; t: number }) => `m=${r.m} (${r.m / 1024} MiB), t=${r.t}, p=1`
  const met = OWASP_ARGON2ID_ROWS.find((r) => m >= r.m && t >= r.t)
  return verdict(
    met && describe(met),
    describe(OWASP_ARGON2ID_ROWS[1]),
    `m=${m} KiB with t=${t} is below every OWASP argon2id row (46 MiB t=1, 19 MiB t=2, 12 MiB t=3, 9 MiB t=4, 7 MiB t=5)`,
  )
}

/**
 * scrypt: at least one row's memory per lane and its total work. RFC 7914 §5-6: one lane (ROMix) keeps
 * N blocks of 128·r bytes and runs 2·N BlockMix calls of 2·r Salsa20/8 cores each, so memory grows as
 * N·r and work as N·r·p. The sheet fixes r=8; another r is judged by those two quantities, as the
 * N·r/8 it equals at r=8 (better-auth's N=2^14 r=16 p=1: 32 MiB per lane, but N·r·p = 262,144 where the
 * weakest rows need 655,360, so it falls short).
 */
function scryptFloor(params: Params): FloorVerdict {
  const { ln, r, p } = numbers('scrypt', params, ['ln', 'r', 'p'])
  const blocks = 2 ** ln * r // N·r: memory per lane is 128·N·r bytes
  const describe = (row: { ln: number; p: number }) =>
    `N=2^${row.ln} (${2 ** (row.ln - 10)} MiB), r=8, p=${row.p}`
  const met = OWASP_SCRYPT_ROWS.find(
    (row) => blocks >= 2 ** row.ln * 8 && blocks * p >= 2 ** row.ln * 8 * row.p,
  )
  const mib = (128 * blocks) / 2 ** 20
  return verdict(
    met && describe(met),
    describe(OWASP_SCRYPT_ROWS[0]),
    `N=2^${ln} r=${r} p=${p} (${mib} MiB per lane, N·r·p = ${blocks * p}) is below every OWASP scrypt row (at least 8 MiB per lane and N·r·p ≥ 655,360)`,
  )
}

function bcryptFloor(params: Params): FloorVerdict {
  const { cost } = numbers('bcrypt', params, ['cost'])
  const row = `cost ${OWASP_BCRYPT_MIN_COST}`
  return cost >= OWASP_BCRYPT_MIN_COST
    ? { meets: true, row }
    : { meets: false, row, reason: `bcrypt cost ${cost} is below OWASP's minimum of 10` }
}

function pbkdf2Floor(digest: keyof typeof OWASP_PBKDF2_ITERATIONS, params: Params): FloorVerdict {
  const { iterations } = numbers(`pbkdf2-${digest}`, params, ['iterations'])
  const floor = OWASP_PBKDF2_ITERATIONS[digest]
  const row = `PBKDF2-HMAC-${digest.toUpperCase()} ${floor.toLocaleString('en-US')} iterations`
  if (iterations < floor)
    return {
      meets: false,
      row,
      reason: `${iterations.toLocaleString('en-US')} iterations of PBKDF2-HMAC-${digest.toUpperCase()} are below OWASP's ${floor.toLocaleString('en-US')}`,
    }
  return digest === 'sha1' ? { meets: true, row, legacyOnly: true } : { meets: true, row }
}
