import { checkOptions, InvalidHashError } from '@authlab/core'
import { decodePaddedBase64, encodePaddedBase64, randomBytes } from './encoding.js'
import {
  decimalField,
  defineForeignHasher,
  type ForeignFormat,
  type ForeignHasher,
  likeOption,
  within,
} from './foreign.js'
import {
  type Argon2Engine,
  type Argon2Params,
  type Argon2Variant,
  argon2,
  argon2Option,
  type Pbkdf2Digest,
  pbkdf2,
  sameBytes,
} from './kdf.js'

/**
 * A Keycloak password credential as a realm export writes it (`users[].credentials[]` with
 * `"type": "password"`), stored as its JSON text: `credentialData` and `secretData` are themselves
 * JSON strings, as exported. Recognised by its opening brace and quote; parsed only within bounds.
 */
export const KEYCLOAK_FORMAT = /^\{\s*"/

/** Keycloak's PBKDF2 providers (server-spi-private …/credential/hash/Pbkdf2*PasswordHashProviderFactory). */
const PBKDF2_PROVIDERS: Readonly<Record<string, Pbkdf2Digest>> = {
  pbkdf2: 'sha1',
  'pbkdf2-sha256': 'sha256',
  'pbkdf2-sha512': 'sha512',
}
// The argon2 provider's `type` and `version` parameters (Keycloak 25+'s default outside FIPS).
const ARGON2_TYPES: Readonly<Record<string, Argon2Variant>> = { id: 'argon2id', i: 'argon2i', d: 'argon2d' }

type KeycloakHash =
  | {
      kind: 'pbkdf2'
      algorithm: string
      digest: Pbkdf2Digest
      iterations: number
      salt: Uint8Array
      value: Uint8Array
    }
  | { kind: 'argon2'; variant: Argon2Variant; params: Argon2Params; salt: Uint8Array; value: Uint8Array }

// CredentialRepresentation's fields in an export; anything else is not a password credential.
const CREDENTIAL_KEYS = new Set([
  'id',
  'type',
  'userLabel',
  'createdDate',
  'priority',
  'temporary',
  'secretData',
  'credentialData',
])

function jsonObject(text: unknown, what: string): Record<string, unknown> {
  if (typeof text !== 'string') throw new InvalidHashError(`${what} is not a JSON string`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new InvalidHashError(`${what} is not valid JSON`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InvalidHashError(`${what} is not a JSON object`)
  return value as Record<string, unknown>
}

function onlyKeys(object: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const extra = Object.keys(object).find((key) => !allowed.includes(key))
  if (extra !== undefined)
    throw new InvalidHashError(`${what} has an unexpected field "${extra.slice(0, 32)}"`)
}

/** One of argon2's `additionalParameters`: Keycloak stores each as a one-string list, `"memory": ["7168"]`. */
function argon2Parameter(parameters: Record<string, unknown>, name: string): string {
  const value = parameters[name]
  if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string') {
    throw new InvalidHashError(`credentialData.additionalParameters.${name} is not a one-string list`)
  }
  return value[0]
}

function parseArgon2(
  credential: Record<string, unknown>,
  iterations: number,
  salt: Uint8Array,
  value: Uint8Array,
): KeycloakHash {
  const parameters = (credential.additionalParameters ?? {}) as Record<string, unknown>
  onlyKeys(
    parameters,
    ['hashLength', 'memory', 'type', 'version', 'parallelism'],
    'credentialData.additionalParameters',
  )
  const variant = ARGON2_TYPES[argon2Parameter(parameters, 'type')]
  if (variant === undefined) throw new InvalidHashError('argon2 type is not id, i or d')
  // Version "1.3" is 0x13, the only one node:crypto computes.
  if (argon2Parameter(parameters, 'version') !== '1.3')
    throw new InvalidHashError('argon2 version is not 1.3')
  const hashLength = decimalField(argon2Parameter(parameters, 'hashLength'), 'argon2 hashLength')
  if (hashLength !== value.length)
    throw new InvalidHashError('argon2 hashLength does not match the stored value')
  const params = {
    m: decimalField(argon2Parameter(parameters, 'memory'), 'argon2 memory'),
    t: iterations,
    p: decimalField(argon2Parameter(parameters, 'parallelism'), 'argon2 parallelism'),
  }
  return { kind: 'argon2', variant, params, salt, value }
}

function parseKeycloak(encoded: string): KeycloakHash {
  return within('keycloak', () => {
    const credential = jsonObject(encoded, 'credential')
    const unknown = Object.keys(credential).find((key) => !CREDENTIAL_KEYS.has(key))
    if (unknown !== undefined)
      throw new InvalidHashError(`credential has an unexpected field "${unknown.slice(0, 32)}"`)
    if (credential.type !== undefined && credential.type !== 'password')
      throw new InvalidHashError('credential type is not "password"')
    const secret = jsonObject(credential.secretData, 'secretData')
    const data = jsonObject(credential.credentialData, 'credentialData')
    onlyKeys(secret, ['value', 'salt', 'additionalParameters'], 'secretData')
    onlyKeys(data, ['hashIterations', 'algorithm', 'additionalParameters'], 'credentialData')
    if (typeof secret.value !== 'string' || typeof secret.salt !== 'string')
      throw new InvalidHashError('secretData needs value and salt strings')
    const value = decodePaddedBase64(secret.value, 'secretData.value')
    const salt = decodePaddedBase64(secret.salt, 'secretData.salt')
    if (salt.length < 8 || salt.length > 64) throw new InvalidHashError('secretData.salt is not 8-64 bytes')
    if (value.length < 16 || value.length > 512)
      throw new InvalidHashError('secretData.value is not 16-512 bytes')
    const iterations = typeof data.hashIterations === 'number' ? data.hashIterations : Number.NaN
    if (!Number.isSafeInteger(iterations) || iterations < 1)
      throw new InvalidHashError('credentialData.hashIterations is not a positive integer')
    if (data.algorithm === 'argon2') return parseArgon2(data, iterations, salt, value)
    const digest = PBKDF2_PROVIDERS[String(data.algorithm)]
    if (digest === undefined)
      throw new InvalidHashError(
        'credentialData.algorithm is not pbkdf2, pbkdf2-sha256, pbkdf2-sha512 or argon2',
      )
    const extra = data.additionalParameters as Record<string, unknown> | undefined
    if (
      extra !== undefined &&
      (typeof extra !== 'object' || extra === null || Object.keys(extra).length > 0)
    ) {
      throw new InvalidHashError('credentialData.additionalParameters must be empty for PBKDF2')
    }
    return { kind: 'pbkdf2', algorithm: String(data.algorithm), digest, iterations, salt, value }
  })
}

/**
 * Pbkdf2PasswordHashProvider: PBKDF2 of the password with the stored salt and iteration count, as long
 * as the stored value. Keycloak pads passwords under 14 characters with NULs for FIPS providers; that
 * changes no HMAC, whose key is zero-padded to the block size anyway (RFC 2104 §2), so it is not repeated.
 */
async function compute(
  engine: Argon2Engine | undefined,
  stored: KeycloakHash,
  password: Uint8Array,
  salt: Uint8Array,
) {
  if (stored.kind === 'pbkdf2')
    return pbkdf2(stored.digest, password, salt, stored.iterations, stored.value.length)
  return argon2(engine, stored.variant, password, salt, stored.params, stored.value.length)
}

function encodeCredential(stored: KeycloakHash, salt: Uint8Array, value: Uint8Array): string {
  const secretData = JSON.stringify({
    value: encodePaddedBase64(value),
    salt: encodePaddedBase64(salt),
    additionalParameters: {},
  })
  const credentialData = JSON.stringify(
    stored.kind === 'pbkdf2'
      ? { hashIterations: stored.iterations, algorithm: stored.algorithm, additionalParameters: {} }
      : {
          hashIterations: stored.params.t,
          algorithm: 'argon2',
          additionalParameters: {
            hashLength: [String(value.length)],
            memory: [String(stored.params.m)],
            type: [stored.variant.slice('argon2'.length)],
            version: ['1.3'],
            parallelism: [String(stored.params.p)],
          },
        },
  )
  return JSON.stringify({ type: 'password', secretData, credentialData })
}

const keycloakFormat = (engine: Argon2Engine | undefined): ForeignFormat<KeycloakHash> => ({
  family: 'keycloak',
  displayName: 'Keycloak password credentials (PBKDF2, argon2)',
  wraps: 'node:crypto pbkdf2, argon2',
  runsOn: 'threadpool',
  maxLength: 4096,
  parse: parseKeycloak,
  verify: async (stored, password) =>
    sameBytes(await compute(engine, stored, password, stored.salt), stored.value),
  async write(like, password) {
    const salt = randomBytes(16)
    return encodeCredential(like, salt, await compute(engine, like, password, salt))
  },
  setting: (stored) =>
    stored.kind === 'pbkdf2'
      ? { variant: stored.algorithm, params: { iterations: stored.iterations } }
      : { variant: `argon2 ${stored.variant}`, params: stored.params },
})

// Keycloak 24's default outside argon2 (and its FIPS default since): pbkdf2-sha512 at 210,000
// iterations, a 16-byte salt and a 512-bit key.
const KEYCLOAK_PBKDF2: KeycloakHash = {
  kind: 'pbkdf2',
  algorithm: 'pbkdf2-sha512',
  digest: 'sha512',
  iterations: 210_000,
  salt: new Uint8Array(16),
  value: new Uint8Array(64),
}

export interface KeycloakOptions {
  /** The argon2 engine for argon2 credentials; defaults to Node's `crypto.argon2` (Node ≥ 24.7). */
  argon2?: Argon2Engine
  /** A stored credential whose algorithm and parameters `hash` copies; defaults to pbkdf2-sha512, 210,000 iterations. */
  writeLike?: string
}

/** Reads Keycloak password credentials: pbkdf2, pbkdf2-sha256, pbkdf2-sha512 and argon2. */
export function keycloak(options?: KeycloakOptions): ForeignHasher {
  const checked = checkOptions('keycloak', options, {
    argon2: { type: 'function' },
    writeLike: { type: 'string' },
  }) as KeycloakOptions
  const format = keycloakFormat(argon2Option('keycloak', checked.argon2))
  return defineForeignHasher(format, likeOption(format, checked.writeLike) ?? KEYCLOAK_PBKDF2)
}
