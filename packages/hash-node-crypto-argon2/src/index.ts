import * as nodeCrypto from 'node:crypto'
import {
  ARGON2ID,
  type Argon2idOptions,
  defineKdfHasher,
  type KdfHasher,
  UnsupportedRuntimeError,
} from '@authlab/core'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { Argon2idOptions as NodeCryptoArgon2Options }

/** The first Node with `crypto.argon2` (Node 24.7.0 changelog: "crypto: add argon2() and argon2Sync()"). */
export const MINIMUM_NODE = '24.7'

interface Argon2Parameters {
  message: Uint8Array
  nonce: Uint8Array
  parallelism: number
  tagLength: number
  memory: number
  passes: number
}
type Argon2 = (
  algorithm: 'argon2id',
  parameters: Argon2Parameters,
  callback: (error: Error | null, tag: Buffer) => void,
) => void

/**
 * Node's own argon2, or the typed error naming the Node it needs. Read from the module namespace at
 * call time, not imported by name: a named import of a missing export would fail this module's
 * loading on Node 20, where it must load and only refuse to be created.
 */
function nodeArgon2(): Argon2 {
  const argon2 = (nodeCrypto as unknown as { argon2?: Argon2 }).argon2
  if (typeof argon2 === 'function') return argon2
  throw new UnsupportedRuntimeError(
    `@authlab/hash-node-crypto-argon2 needs Node >= ${MINIMUM_NODE} (node:crypto argon2); this is Node ${process.versions.node}`,
    undefined,
    `Node >= ${MINIMUM_NODE}`,
  )
}

const DESCRIPTION = {
  name: '@authlab/hash-node-crypto-argon2',
  displayName: 'argon2id (node:crypto)',
  wraps: 'node:crypto argon2 (Node >= 24.7, OpenSSL)',
  runsOn: 'threadpool',
} as const

/**
 * argon2id (RFC 9106) through Node's built-in `crypto.argon2` (OpenSSL 3.2's implementation), whose
 * callback form runs on the libuv threadpool like crypto.scrypt. No dependency and no native addon of
 * its own. Core writes and reads the PHC strings, so hashes move both ways with @authlab/hash-argon2
 * and the other argon2id packages. Creating it on a Node without `crypto.argon2` throws
 * UnsupportedRuntimeError (`ERR_AUTHLAB_UNSUPPORTED_RUNTIME`).
 */
export function createHasher(options?: Argon2idOptions): KdfHasher {
  const argon2 = nodeArgon2()
  return defineKdfHasher({
    algorithm: ARGON2ID,
    describe: DESCRIPTION,
    kdf: (password, salt, params, length) =>
      new Promise((resolve, reject) =>
        argon2(
          'argon2id',
          {
            message: password,
            nonce: salt,
            parallelism: params.p as number,
            tagLength: length,
            memory: params.m as number,
            passes: params.t as number,
          },
          (error, tag) => (error ? reject(error) : resolve(new Uint8Array(tag))),
        ),
      ),
    options,
  })
}

/**
 * The OWASP default (m=19456 KiB, t=2, p=1), created on first use, so that importing this package on
 * an older Node never throws: there, its description is readable (the bench and the conformance runs
 * read what a package implements from it) and every use throws or rejects with UnsupportedRuntimeError.
 */
export const hasher: KdfHasher = lazyDefault()

function lazyDefault(): KdfHasher {
  let made: KdfHasher | undefined
  const get = () => {
    made ??= createHasher()
    return made
  }
  // What createHasher() reports, without creating it (checked equal on Node 24 by the test).
  const info = Object.freeze({
    ...DESCRIPTION,
    algorithm: ARGON2ID.id,
    params: Object.freeze({ ...ARGON2ID.defaults }),
  })
  return {
    info,
    get policy() {
      return get().policy
    },
    hash: async (password) => get().hash(password),
    verify: async (encoded, password) => get().verify(encoded, password),
    derive: async (password, salt, length) => get().derive(password, salt, length),
    needsRehash: (encoded) => get().needsRehash(encoded),
  }
}
