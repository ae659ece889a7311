import {
  base64urlIdShape,
  checkIdOptions,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
} from '@authlab/core'
import uid from 'uid-safe'

export interface UidSafeIdOptions {
  /** Random bytes per ID, a multiple of 3 (default 24, as express-session uses). */
  bytes?: number
}

/**
 * express-session's default `genid`: `uid(24)` synchronously. uid-safe calls `crypto.randomBytes`
 * per ID and turns standard base64 into base64url with string replaces, so every ID costs a
 * buffer, an encode and two regex passes.
 */
export function createIdGenerator(options?: UidSafeIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES } = checkIdOptions('@authlab/id-uid-safe', options)
  const shape = base64urlIdShape(bytes)
  return defineIdGenerator({
    info: {
      ...shape,
      name: '@authlab/id-uid-safe',
      displayName: 'uid-safe (express-session)',
      wraps: `uid-safe sync(${bytes})`,
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), one call per ID',
      poolBytes: 0,
    },
    generate: () => uid.sync(bytes),
  })
}

/** A ready 24-byte generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()
