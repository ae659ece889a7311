import { checkOptions, InvalidHashError } from '@authlab/core'
import { decodePaddedBase64, encodePaddedBase64, randomBytes } from './encoding.js'
import { defineForeignHasher, type ForeignFormat, type ForeignHasher, likeOption, within } from './foreign.js'
import { type Pbkdf2Digest, pbkdf2, sameBytes } from './kdf.js'

/**
 * ASP.NET Core Identity's `PasswordHasher<TUser>` (src/Identity/Extensions.Core/src/PasswordHasher.cs),
 * the base64 (`Convert.ToBase64String`) of:
 * - version 2: `0x00`, a 16-byte salt, a 32-byte PBKDF2-HMAC-SHA1 subkey at 1,000 iterations;
 * - version 3: `0x01`, then big-endian UInt32s for the PRF (0 HMACSHA1, 1 HMACSHA256, 2 HMACSHA512),
 *   the iteration count and the salt length, then the salt and the subkey (the rest, at least 16 bytes).
 * Version 3 strings start `AQAAAA` (0x01 and the PRF's zero high bytes); version 2 strings are 68
 * characters of which the first byte is zero.
 */
export const ASPNET_IDENTITY_FORMAT = /^(?:AQAAAA[A-Za-z0-9+/]{10,1800}={0,2}|A[A-P][A-Za-z0-9+/]{64}==)$/

interface IdentityHash {
  readonly version: 2 | 3
  readonly prf: Pbkdf2Digest
  readonly iterations: number
  readonly salt: Uint8Array
  readonly subkey: Uint8Array
}

// KeyDerivationPrf (src/DataProtection/Cryptography.KeyDerivation/src/KeyDerivationPrf.cs).
const PRFS: readonly Pbkdf2Digest[] = ['sha1', 'sha256', 'sha512']
const PRF_NAMES = { sha1: 'HMACSHA1', sha256: 'HMACSHA256', sha512: 'HMACSHA512' } as const
const HEADER = 13
// VerifyHashedPasswordV3: "must be >= 128 bits" for the salt and the subkey alike.
const MIN_BYTES = 16
// Version 2's fixed layout (HashPasswordV2): Rfc2898DeriveBytes' defaults.
const V2 = { iterations: 1000, saltBytes: 16, subkeyBytes: 32 } as const

function parseIdentity(encoded: string): IdentityHash {
  return within('aspnet-identity', () => {
    const bytes = decodePaddedBase64(encoded, 'base64 payload')
    if (bytes[0] === 0x00) {
      if (bytes.length !== 1 + V2.saltBytes + V2.subkeyBytes) {
        throw new InvalidHashError(`version 2 payload is ${bytes.length} bytes, not 49`)
      }
      const salt = bytes.slice(1, 17)
      return { version: 2, prf: 'sha1', iterations: V2.iterations, salt, subkey: bytes.slice(17) }
    }
    if (bytes[0] !== 0x01) throw new InvalidHashError('format marker is neither 0x00 nor 0x01')
    if (bytes.length < HEADER + 2 * MIN_BYTES) throw new InvalidHashError('version 3 payload too short')
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const prf = PRFS[view.getUint32(1)]
    if (prf === undefined)
      throw new InvalidHashError('PRF is not 0, 1 or 2 (HMACSHA1, HMACSHA256, HMACSHA512)')
    const iterations = view.getUint32(5)
    // The count is read as a C# int: above 2^31 - 1 it is negative and the hasher fails.
    if (iterations < 1 || iterations > 2 ** 31 - 1) throw new InvalidHashError('iteration count out of range')
    const saltLength = view.getUint32(9)
    if (saltLength < MIN_BYTES) throw new InvalidHashError('salt length below 16 bytes')
    if (HEADER + saltLength + MIN_BYTES > bytes.length) {
      throw new InvalidHashError('salt length leaves no 16-byte subkey')
    }
    const salt = bytes.slice(HEADER, HEADER + saltLength)
    return { version: 3, prf, iterations, salt, subkey: bytes.slice(HEADER + saltLength) }
  })
}

function encodeIdentity({ version, prf, iterations, salt, subkey }: IdentityHash): string {
  if (version === 2) return encodePaddedBase64(Uint8Array.of(0x00, ...salt, ...subkey))
  const bytes = new Uint8Array(HEADER + salt.length + subkey.length)
  const view = new DataView(bytes.buffer)
  bytes[0] = 0x01
  view.setUint32(1, PRFS.indexOf(prf))
  view.setUint32(5, iterations)
  view.setUint32(9, salt.length)
  bytes.set(salt, HEADER)
  bytes.set(subkey, HEADER + salt.length)
  return encodePaddedBase64(bytes)
}

const identityFormat: ForeignFormat<IdentityHash> = {
  family: 'aspnet-identity',
  displayName: 'ASP.NET Core Identity PasswordHasher (v2, v3)',
  wraps: 'node:crypto pbkdf2',
  runsOn: 'threadpool',
  maxLength: 1900,
  parse: parseIdentity,
  async verify({ prf, iterations, salt, subkey }, password) {
    return sameBytes(await pbkdf2(prf, password, salt, iterations, subkey.length), subkey)
  },
  async write(like, password) {
    const salt = randomBytes(like.salt.length)
    const subkey = await pbkdf2(like.prf, password, salt, like.iterations, like.subkey.length)
    return encodeIdentity({ ...like, salt, subkey })
  },
  setting: ({ version, prf, iterations }) => ({
    variant: version === 2 ? 'v2' : `v3 ${PRF_NAMES[prf]}`,
    params: { iterations },
  }),
}

// ASP.NET Core Identity's default since .NET 7: version 3, HMACSHA512, 100,000 iterations
// (PasswordHasherOptions.IterationCount), a 16-byte salt and a 32-byte subkey.
const IDENTITY_DEFAULT: IdentityHash = {
  version: 3,
  prf: 'sha512',
  iterations: 100_000,
  salt: new Uint8Array(16),
  subkey: new Uint8Array(32),
}

export interface AspnetIdentityOptions {
  /**
   * A stored Identity hash whose version, PRF, iteration count and lengths `hash` copies; defaults to
   * .NET 7+'s version 3 with HMACSHA512 and 100,000 iterations.
   */
  writeLike?: string
}

/** Reads ASP.NET Core Identity's `PasswordHash` column: version 2 and version 3 hashes. */
export function aspnetIdentity(options?: AspnetIdentityOptions): ForeignHasher {
  const checked = checkOptions('aspnetIdentity', options, {
    writeLike: { type: 'string' },
  }) as AspnetIdentityOptions
  return defineForeignHasher(
    identityFormat,
    likeOption(identityFormat, checked.writeLike) ?? IDENTITY_DEFAULT,
  )
}
