import {
  ARGON2ID,
  type Argon2idOptions,
  defineKdfHasher,
  type KdfHasher,
  UnsupportedRuntimeError,
} from '@authlab/core'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { Argon2idOptions as WebCryptoArgon2Options }

const NAME = '@authlab/hash-webcrypto-argon2'

/** Where Web Crypto derives Argon2id, as found by running it (the draft "Modern Algorithms in the Web Cryptography API", WICG). */
export const WHERE = 'Node >= 24.8 or Deno 2.9'

const DESCRIPTION = {
  name: NAME,
  displayName: 'argon2id (Web Crypto)',
  wraps: 'crypto.subtle.deriveBits Argon2id',
  runsOn: 'threadpool',
} as const

/** The draft's Argon2 parameters (RFC 9106 §3.1 names: nonce = salt, memory in KiB, passes = t). */
interface Argon2Params {
  readonly name: 'Argon2id'
  readonly nonce: Uint8Array<ArrayBuffer>
  readonly parallelism: number
  readonly memory: number
  readonly passes: number
}

/**
 * A runtime whose Web Crypto lacks Argon2id refuses the key format "raw-secret" (Node 22: TypeError;
 * Firefox: SyntaxError) or the algorithm (Chromium, Bun: NotSupportedError): each becomes the typed
 * error, never a raw DOMException.
 */
const REFUSALS = new Set(['NotSupportedError', 'TypeError', 'SyntaxError'])

function unsupported(error: unknown): never {
  if (REFUSALS.has((error as { name?: string } | undefined)?.name ?? '')) {
    throw new UnsupportedRuntimeError(
      `${NAME}: this runtime's Web Crypto has no Argon2id (${(error as Error).message}); it needs ${WHERE}`,
      { cause: error },
      WHERE,
    )
  }
  throw error
}

/**
 * argon2id (RFC 9106) through Web Crypto's `crypto.subtle.deriveBits`, with no dependency and no native
 * addon: the same code in Node and Deno (and any browser that ships the algorithm). The runtime runs the
 * derivation off the main thread (Node: a libuv threadpool job, like crypto.scrypt). Core writes and
 * reads the PHC strings, so hashes move both ways with @authlab/hash-argon2 and the other argon2id
 * packages. Creating it needs `crypto.subtle`; a runtime whose Web Crypto lacks Argon2id rejects the
 * first hash or verify with UnsupportedRuntimeError (`ERR_AUTHLAB_UNSUPPORTED_RUNTIME`): support is
 * only known by asking Web Crypto, which answers asynchronously (`isSupported()` asks ahead).
 * Node prints one ExperimentalWarning on the first use: the algorithm is experimental there.
 */
export function createHasher(options?: Argon2idOptions): KdfHasher {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) {
    throw new UnsupportedRuntimeError(`${NAME}: this runtime has no crypto.subtle`, undefined, WHERE)
  }
  return defineKdfHasher({
    algorithm: ARGON2ID,
    describe: DESCRIPTION,
    async kdf(password, salt, params, length) {
      // Web Crypto takes views of an ArrayBuffer, never a SharedArrayBuffer (WebIDL BufferSource): copied.
      const key = await subtle
        .importKey('raw-secret', new Uint8Array(password), 'Argon2id', false, ['deriveBits'])
        .catch(unsupported)
      const algorithm: Argon2Params = {
        name: 'Argon2id',
        nonce: new Uint8Array(salt),
        parallelism: params.p as number,
        memory: params.m as number,
        passes: params.t as number,
      }
      return new Uint8Array(await subtle.deriveBits(algorithm, key, length * 8))
    },
    options,
  })
}

/** Whether this runtime's Web Crypto derives Argon2id: one cheap derivation (m = 8 KiB, t = 1). */
export async function isSupported(): Promise<boolean> {
  try {
    await createHasher({ m: 8, t: 1, p: 1 }).derive('probe', 'probe-salt', 16)
    return true
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME') return false
    throw error
  }
}

/** argon2id at OWASP's m=19456 KiB, t=2, p=1: `await hasher.hash(password)`. */
export const hasher: KdfHasher = createHasher()
