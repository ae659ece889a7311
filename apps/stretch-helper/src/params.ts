import { InvalidOptionError, SCRYPT } from '@authlab/core'

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

/** The longest key a call may ask for: core's `derive()` bound, far above onepw's 32 bytes. */
const MAX_BUFLEN = 1024

const MiB = 2 ** 20

/**
 * A configured extra set, checked against what @authlab/core lets one scrypt verify cost: each
 * parameter within its cap (ln ≤ 20, r ≤ 32, p ≤ 16) and, together, within the work budget (N·r·p and
 * the 128·r·N bytes of V, RFC 7914 §5: 256 MiB). The caps alone allowed N=2^20 with r=32, 4 GiB a call.
 */
export function checkParams(params: ScryptParams): ScryptParams {
  const { N, r, p, buflen } = params
  const isPowerOfTwo = Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0
  const within = (value: number, max: number) => Number.isSafeInteger(value) && value >= 1 && value <= max
  const caps = SCRYPT.caps as { ln: number; r: number; p: number }
  if (!isPowerOfTwo || N > 2 ** caps.ln || !within(r, caps.r) || !within(p, caps.p)) {
    throw new InvalidOptionError(
      `scrypt parameters out of bounds: ${keyOf(params)} (N a power of two up to 2^${caps.ln}, r up to ${caps.r}, p up to ${caps.p})`,
    )
  }
  if (!within(buflen, MAX_BUFLEN)) throw new InvalidOptionError(`buflen out of bounds: ${buflen}`)
  const work = SCRYPT.work({ ln: Math.log2(N), r, p }, buflen)
  const budget = SCRYPT.budget
  if (work.units > budget.units || work.memoryBytes > budget.memoryBytes) {
    throw new InvalidOptionError(
      `scrypt parameters over @authlab/core's scrypt budget: ${keyOf(params)} costs ${work.units} N·r·p and ${work.memoryBytes / MiB} MiB per call, over ${budget.units} and ${budget.memoryBytes / MiB} MiB`,
    )
  }
  return Object.freeze({ N, r, p, buflen })
}

/**
 * RFC 7914 §5: scryptROMix holds V, 128·r·N bytes, plus B, 128·r·p. node:crypto refuses anything
 * above `maxmem` (32 MiB by default, half of what N=2^16, r=8 needs), so each call allows exactly
 * that plus 1 MiB of headroom.
 */
export const maxmemFor = ({ N, r, p }: ScryptParams) => 128 * r * (N + p) + 2 ** 20
