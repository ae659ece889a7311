import { InvalidOptionError } from '@authlab/core'

/** One scrypt parameter set the helper agrees to run. */
export interface ScryptParams {
  readonly N: number
  readonly r: number
  readonly p: number
  readonly buflen: number
}

/**
 * onepw's scrypt step (KeyServerProtocol "stretch-KDF"): N=2^16, r=8, p=1, 32 bytes. A helper
 * that ran any requested cost would let one request ask for gigabytes, so parameters are an
 * allow-list, as fxa-scrypt-helper hard-codes them.
 */
export const ONEPW_PARAMS: ScryptParams = Object.freeze({ N: 65_536, r: 8, p: 1, buflen: 32 })

export const keyOf = ({ N, r, p, buflen }: ScryptParams) => `N=${N},r=${r},p=${p},buflen=${buflen}`

/** Bounds on configured extras, so a typo in configuration cannot make one request cost minutes. */
const LIMITS = { N: 2 ** 20, r: 32, p: 16, buflen: 1024 }

export function checkParams(params: ScryptParams): ScryptParams {
  const { N, r, p, buflen } = params
  const isPowerOfTwo = Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0
  const within = (value: number, max: number) => Number.isSafeInteger(value) && value >= 1 && value <= max
  if (!isPowerOfTwo || N > LIMITS.N || !within(r, LIMITS.r) || !within(p, LIMITS.p)) {
    throw new InvalidOptionError(`scrypt parameters out of bounds: ${keyOf(params)}`)
  }
  if (!within(buflen, LIMITS.buflen)) throw new InvalidOptionError(`buflen out of bounds: ${buflen}`)
  return Object.freeze({ N, r, p, buflen })
}

/**
 * RFC 7914 §5: scryptROMix holds V, 128·r·N bytes, plus B, 128·r·p. node:crypto refuses anything
 * above `maxmem` (32 MiB by default, half of what N=2^16, r=8 needs), so each call allows exactly
 * that plus 1 MiB of headroom.
 */
export const maxmemFor = ({ N, r, p }: ScryptParams) => 128 * r * (N + p) + 2 ** 20
