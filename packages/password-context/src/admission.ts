import { createGate, OverloadError, type PasswordHasher } from '@authlab/core'

/** Runs the context's work within the bound of its hashers (see `createAdmission`). */
export interface Admission {
  run<T>(work: () => Promise<T>): Promise<T>
}

/**
 * One admission for every verify and hash a password context runs, whatever the account: stored in
 * any format, missing, or signing up. A hasher that bounds its work (`maxConcurrent`: pure-JS scrypt
 * holds 128·N·r bytes per derivation, RFC 7914 §5) refuses one too many with an OverloadError; if only
 * the work that reached it were counted, a login to an account stored in its format would be refused
 * under load while a missing account, verified against a dummy of another format, answered "wrong
 * password": the answer would tell the two apart (OWASP Authentication Cheat Sheet: identical
 * responses). So the context counts its own work, each operation one slot whichever hasher it
 * reaches, against the smallest bound among its hashers, and refuses the one too many before any work.
 * Each operation runs one derivation at a time, so a hasher used by this context alone never refuses
 * what the context admitted. With no bounded hasher, everything is admitted.
 *
 * `ownWork` is the context's own work in flight outside any request (its dummy hash, made at creation):
 * an operation that finds every slot taken while it runs waits for it instead of being refused, so
 * a context just made does not fail its first requests.
 */
export function createAdmission(
  hashers: Iterable<PasswordHasher>,
  ownWork: () => Promise<unknown> | undefined,
): Admission {
  const bounds = [...hashers].map((hasher) => hasher.info.maxConcurrent).filter((max) => max !== undefined)
  if (bounds.length === 0) return { run: (work) => work() }
  const slots = Math.min(...bounds)
  const gate = createGate(slots, 0)
  return {
    async run(work) {
      let entered = gate.tryEnter()
      for (let waiting = ownWork(); entered === null && waiting; waiting = ownWork()) {
        await waiting
        entered = gate.tryEnter()
      }
      if (entered === null) {
        throw new OverloadError(
          `password context: ${slots} hashes and verifies are in flight (its hashers' maxConcurrent), refused another`,
        )
      }
      const release = await entered
      try {
        return await work()
      } finally {
        release()
      }
    },
  }
}
