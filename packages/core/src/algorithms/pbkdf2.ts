import { AB64_ALPHABET, decodeBase64, encodeBase64 } from '../encoding.js'
import type { DecodedKdfHash, KdfProfile } from '../kdf-format.js'
import { phcDecimal } from '../phc.js'
import type { BenchSetting } from './profile.js'

/** What differs between the PBKDF2-HMAC variants: the digest, its output size and OWASP's iteration count. */
export interface Pbkdf2Variant {
  /** Node's and WebCrypto's digest name, lower case without the dash: `sha256`, `sha512`. */
  readonly digest: string
  /** hLen: the digest's output bytes (RFC 8018 §5.2). */
  readonly outputBytes: number
  /** The OWASP Password Storage Cheat Sheet's iteration count for this digest. */
  readonly iterations: number
  /** Iterations a stored hash may claim: hostile-hash guard. */
  readonly maxIterations: number
  /** Output blocks × iterations one verify may cost by default (about a second on the reference box). */
  readonly budgetUnits: number
  readonly bench?: readonly BenchSetting[]
  readonly baseline?: string
  readonly vectors?: KdfProfile['vectors']
}

/**
 * A PBKDF2-HMAC profile (RFC 8018 §5.2). Written as a PHC string, `$pbkdf2-<digest>$i=600000$<salt>$<hash>`
 * in standard base64 (the form of @phc/pbkdf2 and the PHC spec's naming). Also read: passlib's form
 * `$pbkdf2-<digest>$600000$<ab64>$<ab64>`, so hashes migrated from a passlib/Django-era Python stack verify.
 */
export function definePbkdf2Profile(variant: Pbkdf2Variant): KdfProfile {
  const id = `pbkdf2-${variant.digest}`
  // passlib's modular crypt form; up to 129 bytes of checksum, which the work estimate counts in blocks.
  const passlib = new RegExp(`^\\$${id}\\$([0-9]{1,16})\\$([A-Za-z0-9./]{1,88})\\$([A-Za-z0-9./]{1,172})$`)
  return {
    id,
    params: { iterations: { type: 'integer', min: 1, phcName: 'i', description: 'PBKDF2 iterations' } },
    // passlib and Django say rounds, the PHC string says i, node:crypto and WebCrypto say iterations.
    aliases: { rounds: 'iterations', i: 'iterations', iterationCount: 'iterations', cost: 'iterations' },
    defaults: { iterations: variant.iterations },
    caps: { iterations: variant.maxIterations },
    budget: { units: variant.budgetUnits, memoryBytes: 2 ** 28 },
    // RFC 8018 §5.2: each hLen-byte block of derived key runs all c iterations, so a stored hash longer
    // than hLen multiplies the work (a 129-byte SHA-256 output is 5 blocks).
    work: (params, hashBytes) => ({
      units: Math.ceil(hashBytes / variant.outputBytes) * (params.iterations as number),
      memoryBytes: 0,
    }),
    unit: 'blocks × iterations',
    bench: variant.bench ?? [],
    ...(variant.baseline ? { baseline: variant.baseline } : {}),
    absurd: [
      { label: 'i=10^10', edit: (h) => h.replace(/i=\d+/, 'i=10000000000') },
      {
        label: `passlib form, ${variant.maxIterations} iterations × a 129-byte output`,
        edit: () =>
          `$${id}$${variant.maxIterations}$${encodeBase64(new Uint8Array(16), AB64_ALPHABET)}$${encodeBase64(new Uint8Array(129), AB64_ALPHABET)}`,
      },
    ],
    vectors: variant.vectors ?? {},
    testParams: { cheap: { iterations: 1000 }, stronger: { iterations: 2000 } },
    phc: {
      parseLegacy(encoded: string): DecodedKdfHash | undefined {
        const match = typeof encoded === 'string' ? passlib.exec(encoded) : null
        if (!match) return undefined
        const [, rounds, salt, hash] = match as unknown as [string, string, string, string]
        return {
          params: { iterations: phcDecimal(rounds, 'rounds') },
          salt: decodeBase64(salt, AB64_ALPHABET, 'salt'),
          hash: decodeBase64(hash, AB64_ALPHABET, 'hash'),
        }
      },
    },
  }
}

/** PBKDF2-HMAC-SHA256, the one password KDF every browser and server runtime ships (WebCrypto). */
export const PBKDF2_SHA256: KdfProfile = definePbkdf2Profile({
  digest: 'sha256',
  outputBytes: 32,
  // OWASP Password Storage Cheat Sheet: "PBKDF2-HMAC-SHA256: 600,000 iterations".
  iterations: 600_000,
  // 10 million is ~17× OWASP's count.
  maxIterations: 10_000_000,
  // 4 million SHA-256 blocks: under a second natively on the reference box (600,000 take 120–200 ms).
  budgetUnits: 4_000_000,
  bench: [{ label: 'PBKDF2-SHA256 600k', params: { iterations: 600_000 }, quick: true }],
  baseline: '@authlab/hash-pbkdf2',
  vectors: { encoded: 'PBKDF2_SHA256_VECTORS', kdf: 'PBKDF2_SHA256_KDF_VECTORS' },
})
