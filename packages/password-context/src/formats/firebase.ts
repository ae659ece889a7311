import { createCipheriv } from 'node:crypto'
import { checkOptions, InvalidHashError, InvalidOptionError, SCRYPT } from '@authlab/core'
import { decodePaddedBase64, encodePaddedBase64, randomBytes } from './encoding.js'
import { defineForeignHasher, type ForeignFormat, type ForeignHasher, within } from './foreign.js'
import { checkWork, type ScryptParams, sameBytes, scrypt } from './kdf.js'

/**
 * A Firebase Authentication user's password as this package stores it: the export's (`firebase
 * auth:export`) `salt` and `passwordHash` fields, verbatim, after a `$firebase-scrypt$` marker:
 * `$firebase-scrypt$<salt>$<passwordHash>`. Both are padded standard base64, as exported.
 */
export const FIREBASE_FORMAT = /^\$firebase-scrypt\$/

/**
 * The project's password hash parameters (Firebase console, Authentication → Users → "Password hash
 * parameters"): `base64_signer_key`, `base64_salt_separator`, `rounds`, `mem_cost`, as shown there.
 */
export interface FirebaseHashConfig {
  /** `base64_signer_key`. */
  signerKey: string
  /** `base64_salt_separator`. */
  saltSeparator: string
  /** `rounds`: scrypt's block size r. */
  rounds: number
  /** `mem_cost`: log2 of scrypt's N. */
  memCost: number
}

export type FirebaseScryptOptions = FirebaseHashConfig

interface FirebaseHash {
  readonly salt: Uint8Array
  readonly hash: Uint8Array
}

interface Project {
  readonly signerKey: Uint8Array
  readonly saltSeparator: Uint8Array
  readonly params: ScryptParams
}

// firebase/scrypt lib/scryptenc/scryptenc.c, scryptenc_buf_saltlen: a 64-byte scrypt key, p = 1.
const DERIVED_BYTES = 64

/**
 * Firebase's modified scrypt (firebase/scrypt, scryptenc_buf_saltlen): scrypt of the password with the
 * user's salt followed by the project's salt separator, N = 2^mem_cost, r = rounds, p = 1, 64 bytes;
 * its first 32 bytes are an AES-256 key that encrypts the project's signer key in CTR mode from a zero
 * counter. The ciphertext is the user's password hash.
 */
async function firebaseHash(project: Project, salt: Uint8Array, password: Uint8Array): Promise<Uint8Array> {
  const derived = await scrypt(
    password,
    Uint8Array.of(...salt, ...project.saltSeparator),
    project.params,
    DERIVED_BYTES,
  )
  const cipher = createCipheriv('aes-256-ctr', derived.subarray(0, 32), new Uint8Array(16))
  return new Uint8Array(Buffer.concat([cipher.update(project.signerKey), cipher.final()]))
}

function parseFirebase(project: Project, encoded: string): FirebaseHash {
  return within('firebase-scrypt', () => {
    const fields = encoded.split('$')
    if (fields.length !== 4 || fields[0] !== '' || fields[1] !== 'firebase-scrypt') {
      throw new InvalidHashError('expected "$firebase-scrypt$<salt>$<passwordHash>"')
    }
    const salt = decodePaddedBase64(fields[2] as string, 'salt')
    const hash = decodePaddedBase64(fields[3] as string, 'passwordHash')
    if (salt.length < 1 || salt.length > 64) throw new InvalidHashError('salt is not 1-64 bytes')
    if (hash.length !== project.signerKey.length) {
      throw new InvalidHashError(
        `passwordHash is ${hash.length} bytes where the project's signer key is ${project.signerKey.length}: is this the project's hash config?`,
      )
    }
    return { salt, hash }
  })
}

const firebaseFormat = (project: Project): ForeignFormat<FirebaseHash> => ({
  family: 'firebase-scrypt',
  displayName: "Firebase Authentication's modified scrypt",
  wraps: 'node:crypto scrypt and AES-256-CTR',
  runsOn: 'threadpool',
  maxLength: 512,
  parse: (encoded) => parseFirebase(project, encoded),
  verify: async ({ salt, hash }, password) => sameBytes(await firebaseHash(project, salt, password), hash),
  async write(_like, password) {
    const salt = randomBytes(16)
    const hash = await firebaseHash(project, salt, password)
    return `$firebase-scrypt$${encodePaddedBase64(salt)}$${encodePaddedBase64(hash)}`
  },
  setting: () => ({
    variant: 'firebase-scrypt',
    params: { rounds: project.params.r, memCost: project.params.ln },
  }),
})

/** The checked hash config: InvalidOptionError for a malformed one or one over scrypt's caps. */
function projectOf(config: FirebaseHashConfig): Project {
  const owner = 'firebaseScrypt'
  const checked = checkOptions(owner, config, {
    signerKey: { type: 'string' },
    saltSeparator: { type: 'string' },
    rounds: { type: 'integer', min: 1, max: 255 },
    memCost: { type: 'integer', min: 1, max: 63 },
  }) as Partial<FirebaseHashConfig>
  const missing = ['signerKey', 'saltSeparator', 'rounds', 'memCost'].filter((key) => !(key in checked))
  if (missing.length > 0)
    throw new InvalidOptionError(`${owner}: the hash config needs ${missing.join(', ')}`)
  try {
    const signerKey = decodePaddedBase64(checked.signerKey as string, 'signerKey')
    if (signerKey.length < 16 || signerKey.length > 256)
      throw new InvalidHashError('signerKey is not 16-256 bytes')
    const params = { ln: checked.memCost as number, r: checked.rounds as number, p: 1 }
    checkWork(SCRYPT, params, DERIVED_BYTES)
    return {
      signerKey,
      saltSeparator: decodePaddedBase64(checked.saltSeparator as string, 'saltSeparator'),
      params,
    }
  } catch (error) {
    throw new InvalidOptionError(`${owner}: ${(error as Error).message}`, { cause: error })
  }
}

/**
 * Reads users exported from Firebase Authentication, given the project's hash config (one project
 * per hasher: its signer key is part of every hash).
 */
export function firebaseScrypt(config: FirebaseScryptOptions): ForeignHasher {
  const format = firebaseFormat(projectOf(config))
  return defineForeignHasher(format, { salt: new Uint8Array(16), hash: new Uint8Array(0) })
}
