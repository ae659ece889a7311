import type { Password, PasswordHasher } from '@authlab/core'
import type { Admission } from './admission.js'
import { asMadeBy, formOfUnmarked } from './made-from.js'

/** A dummy hash for the missing-user verify, and the secret it was made from. */
interface Dummy {
  readonly encoded: string
  readonly secret: string
}

export interface MissingUser {
  /**
   * One verify of the dummy hash: with `password`, or with the dummy's own secret when `password` is
   * undefined or refused by the dummy's policy, so the cost is that verify's either way. Errors other
   * than a refusal (an overload, a timeout) are a real user's verify's errors too, and propagate.
   */
  verify(password: Password | undefined): Promise<void>
  /** Makes the dummy now, within `admission`, so even the first missing-user verify costs one verify. */
  start(admission: Admission): void
  /** The making started by `start` while it is in flight; it never rejects. */
  starting(): Promise<void> | undefined
}

export const isPolicyError = (error: unknown) =>
  (error as { code?: unknown })?.code === 'ERR_AUTHLAB_PASSWORD_POLICY'

/** What a login for an account that does not exist costs: one verify of a dummy hash made by `hasher`. */
export function missingUser(hasher: PasswordHasher): MissingUser {
  let dummy: Promise<Dummy> | undefined
  let starting: Promise<void> | undefined
  // As an unmarked stored hash of its format is read: the cost is one verify in any form.
  const made = { family: hasher.info.algorithm, form: formOfUnmarked(hasher.info.algorithm) }

  /**
   * The dummy, made once. Its secret is random and never leaves the context: nobody can log in to it.
   * A failed hash (an overloaded pool, a worker timeout) is not kept, so the next missing-user verify
   * makes it again instead of failing for the life of the process.
   */
  function dummyHash(): Promise<Dummy> {
    if (dummy) return dummy
    const secret = crypto.randomUUID()
    const making = hasher.hash(secret).then((encoded) => ({ encoded, secret }))
    dummy = making
    making.catch(() => {
      if (dummy === making) dummy = undefined
    })
    return making
  }

  return {
    async verify(password) {
      const { encoded, secret } = await dummyHash()
      if (password !== undefined) {
        try {
          await hasher.verify(encoded, asMadeBy(made, password))
          return
        } catch (error) {
          if (!isPolicyError(error)) throw error
        }
      }
      await hasher.verify(encoded, asMadeBy(made, secret))
    },
    start(admission) {
      const done = () => {
        starting = undefined
      }
      starting = admission.run(dummyHash).then(done, done)
    },
    starting: () => starting,
  }
}
