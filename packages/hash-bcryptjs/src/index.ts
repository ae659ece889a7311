import {
  type BcryptOptions,
  defineBcryptHasher,
  formatBcryptSetting,
  type PasswordHasher,
  PasswordPolicyError,
} from '@authlab/core'
import bcryptjs from 'bcryptjs'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { BcryptOptions }

// bcryptjs takes only strings and UTF-8-encodes them itself, so bytes go back to the string they came from.
// `ignoreBOM` keeps a leading U+FEFF: by default the WHATWG decoder strips it (Encoding Standard, "UTF-8
// decode"), which would make '\uFEFFhunter2' hash as 'hunter2' and disagree with every other bcrypt.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

function toText(password: Uint8Array): string {
  try {
    return utf8.decode(password)
  } catch (cause) {
    throw new PasswordPolicyError('bcryptjs can only hash passwords that are valid UTF-8 text', { cause })
  }
}

/**
 * bcrypt in pure JavaScript through `bcryptjs`. It runs on the calling thread: the synchronous API is
 * used on purpose, so the benchmarks see the whole hash as event-loop time (bcryptjs's async API only
 * slices the same work into ~100 ms turns). Wrap it in @authlab/hash-worker to move it off the loop.
 */
export function createHasher(options?: BcryptOptions): PasswordHasher {
  return defineBcryptHasher({
    describe: {
      name: '@authlab/hash-bcryptjs',
      displayName: 'bcrypt (pure JS)',
      wraps: 'bcryptjs@3',
      runsOn: 'main-thread',
    },
    engine: async (password, cost, salt) =>
      bcryptjs.hashSync(toText(password), formatBcryptSetting(cost, salt)),
    options,
  })
}

/** bcrypt at cost 10 with the 72-byte policy: `await hasher.hash(password)`. */
export const hasher: PasswordHasher = createHasher()
