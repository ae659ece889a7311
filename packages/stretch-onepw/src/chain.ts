// The onepw chain itself, with no platform's crypto: the entry points (index.ts for Node, Bun and
// Deno, browser.ts for bundlers) differ only in the default steps they pass in.
import {
  checkOptions,
  checkPassword,
  DEFAULT_PASSWORD_POLICY,
  InvalidOptionError,
  type KeyDerivation,
  type Password,
  type PasswordHasherInfo,
  type RunsOn,
  type Stretcher,
} from '@authlab/core'

/**
 * The constants of Mozilla's 2013 "onepw" client-side stretch (wiki.mozilla.org/Identity/
 * AttachedServices/KeyServerProtocol#stretch-KDF; fxa-auth-server's onepw protocol). They are part of
 * the protocol: another value gives another key, so they are fixed, not options.
 */
const NAMESPACE = 'identity.mozilla.com/picl/v1/'
export const PBKDF2_ITERATIONS = 20_000
export const SCRYPT_PARAMS = { ln: 16, r: 8, p: 1 } // N = 65536
const KEY_BYTES = 32
const MAIN_SALT_BYTES = 32

export interface OnepwOptions {
  /**
   * The scrypt step, any KeyDerivation configured for scrypt N=2^16, r=8, p=1 (default: node:crypto
   * via @authlab/hash-scrypt; in browser bundles, WASM via @authlab/hash-wasm). Pass
   * `createHasher({ algorithm: 'scrypt', ln: 16, r: 8, p: 1 })` from @authlab/hash-wasm or
   * `createHasher({ ln: 16, r: 8, p: 1 })` from @authlab/hash-scrypt-js.
   */
  scrypt?: KeyDerivation
  /**
   * The two PBKDF2-SHA256 steps, configured for 20,000 iterations (default: @authlab/hash-pbkdf2; in
   * browser bundles, Web Crypto via @authlab/hash-webcrypto).
   */
  pbkdf2?: KeyDerivation
}

/** Every intermediate of the chain, as the published test vectors list them. */
export interface OnepwKeys {
  readonly k1: Uint8Array
  readonly k2: Uint8Array
  readonly stretchedPW: Uint8Array
  /** First half of HKDF(stretchedPW, mainSalt, "mainKDF"): what the client proves knowledge of. */
  readonly srpPW: Uint8Array
  /** Second half: the key that unwraps the account's class-B key. */
  readonly unwrapBKey: Uint8Array
}

export interface OnepwStretcher extends Stretcher {
  stretch(email: string, password: Password, mainSalt: Uint8Array): Promise<OnepwKeys>
}

function requireParams(
  kdf: KeyDerivation,
  role: string,
  algorithm: string,
  params: Record<string, number>,
): void {
  const mismatch =
    kdf.info.algorithm !== algorithm || Object.entries(params).some(([k, v]) => kdf.info.params[k] !== v)
  if (mismatch) {
    throw new InvalidOptionError(
      `onepw's ${role} step must be ${algorithm} ${JSON.stringify(params)}, got ${kdf.info.algorithm} ${JSON.stringify(kdf.info.params)} from ${kdf.info.name}`,
    )
  }
}

const utf8 = new TextEncoder()

/**
 * RFC 5321 §4.5.3.1.3 caps a forward path at 256 octets including its angle brackets, so no address
 * that mail can reach is longer than 254 octets (RFC 3696 erratum 1690); RFC 6531 keeps the limit in
 * octets of UTF-8 for internationalized addresses. The email is hashed twice per stretch as PBKDF2 salt,
 * so an unbounded one is unbounded work and memory.
 */
const MAX_EMAIL_OCTETS = 254
/** An unpaired UTF-16 surrogate has no UTF-8 form: encoding would silently replace it with U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** The email is salt material, not the password: its faults are reported as email faults. */
function checkEmail(email: unknown): asserts email is string {
  if (typeof email !== 'string' || email.length === 0) {
    throw new InvalidOptionError('email must be a non-empty string')
  }
  // A UTF-16 code unit is at least one UTF-8 octet, so a long string is refused before it is encoded.
  if (email.length > MAX_EMAIL_OCTETS || utf8.encode(email).length > MAX_EMAIL_OCTETS) {
    throw new InvalidOptionError(
      `email must be at most ${MAX_EMAIL_OCTETS} octets of UTF-8 (RFC 5321 path limit)`,
    )
  }
  if (LONE_SURROGATE.test(email)) {
    throw new InvalidOptionError('email contains an unpaired UTF-16 surrogate, which is not Unicode text')
  }
}

const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** HKDF-SHA256 (RFC 5869) through WebCrypto, so the chain has no Node-only step of its own. */
async function hkdf(ikm: Uint8Array, salt: Uint8Array, info: string, length: number): Promise<Uint8Array> {
  // Web Crypto takes views of an ArrayBuffer, never a SharedArrayBuffer (WebIDL BufferSource): copied.
  const key = await crypto.subtle.importKey('raw', new Uint8Array(ikm), 'HKDF', false, ['deriveBits'])
  const params = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(salt), info: utf8.encode(info) }
  return new Uint8Array(await crypto.subtle.deriveBits(params, key, length * 8))
}

/**
 * The onepw chain, exactly as the protocol specifies it:
 *   K1 = PBKDF2-SHA256(password, NS + "first-PBKDF:" + email, 20000, 32)
 *   K2 = scrypt(K1, NS + "scrypt", N=65536, r=8, p=1, 32)
 *   stretchedPW = PBKDF2-SHA256(K2 ‖ password, NS + "second-PBKDF:" + email, 20000, 32)
 *   srpPW ‖ unwrapBKey = HKDF-SHA256(stretchedPW, mainSalt, NS + "mainKDF", 64)
 * with NS = "identity.mozilla.com/picl/v1/" and strings UTF-8 encoded. The expensive step is scrypt,
 * so it is the pluggable one: native, WASM, pure JS or a remote helper (@authlab/stretch-remote).
 */
function chain(scrypt: KeyDerivation, pbkdf2: KeyDerivation): OnepwStretcher {
  requireParams(scrypt, 'scrypt', 'scrypt', SCRYPT_PARAMS)
  requireParams(pbkdf2, 'PBKDF2', 'pbkdf2-sha256', { iterations: PBKDF2_ITERATIONS })
  const runsOn: RunsOn = [scrypt, pbkdf2].some((s) => s.info.runsOn === 'main-thread')
    ? 'main-thread'
    : scrypt.info.runsOn
  const info: PasswordHasherInfo = Object.freeze({
    name: '@authlab/stretch-onepw',
    displayName: `onepw (scrypt: ${scrypt.info.displayName})`,
    wraps: `PBKDF2 ${pbkdf2.info.wraps} → scrypt ${scrypt.info.wraps} → PBKDF2 → HKDF (WebCrypto)`,
    algorithm: 'onepw',
    runsOn,
    params: Object.freeze({ iterations: PBKDF2_ITERATIONS, ...SCRYPT_PARAMS }),
  })

  return Object.freeze({
    info,
    async stretch(email: string, password: Password, mainSalt: Uint8Array): Promise<OnepwKeys> {
      checkEmail(email)
      if (!(mainSalt instanceof Uint8Array) || mainSalt.length !== MAIN_SALT_BYTES) {
        throw new InvalidOptionError(`mainSalt must be a ${MAIN_SALT_BYTES}-byte Uint8Array`)
      }
      const passwordBytes = checkPassword(password, DEFAULT_PASSWORD_POLICY)
      const k1 = await pbkdf2.derive(passwordBytes, `${NAMESPACE}first-PBKDF:${email}`, KEY_BYTES)
      const k2 = await scrypt.derive(k1, `${NAMESPACE}scrypt`, KEY_BYTES)
      const stretchedPW = await pbkdf2.derive(
        concat(k2, passwordBytes),
        `${NAMESPACE}second-PBKDF:${email}`,
        KEY_BYTES,
      )
      const main = await hkdf(stretchedPW, mainSalt, `${NAMESPACE}mainKDF`, 2 * KEY_BYTES)
      return { k1, k2, stretchedPW, srpPW: main.slice(0, KEY_BYTES), unwrapBKey: main.slice(KEY_BYTES) }
    },
  })
}

/** The steps a stretcher uses where the caller passes none: each entry point supplies its platform's. */
export interface DefaultSteps {
  scrypt(): KeyDerivation
  pbkdf2(): KeyDerivation
}

/**
 * `createStretcher` for one platform: steps the caller leaves out come from `defaults`, created only
 * when needed, so a caller who passes both never creates the platform's own.
 */
export function stretcherFactory(defaults: DefaultSteps): (options?: OnepwOptions) => OnepwStretcher {
  return (options) => {
    const checked = checkOptions('@authlab/stretch-onepw', options, {
      scrypt: { type: 'object' },
      pbkdf2: { type: 'object' },
    }) as OnepwOptions
    return chain(checked.scrypt ?? defaults.scrypt(), checked.pbkdf2 ?? defaults.pbkdf2())
  }
}
