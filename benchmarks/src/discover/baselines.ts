/**
 * Which candidates others are divided by (ratios to a baseline measured in the same run cancel
 * the machine's speed and load). A policy choice, kept in one place; candidates themselves are discovered.
 */
export const ID_BASELINES: readonly string[] = ['ref:randomUUID', '@authlab/id-uid-safe']

/** The insecure unique counter (references.ts): what the harness reaches when an ID costs next to nothing. */
export const ID_CEILING = 'ref:counter'

/** The native implementation of each algorithm family, the yardstick for its other implementations. */
export const NATIVE_HASHERS: Readonly<Record<string, string>> = {
  bcrypt: '@authlab/hash-bcrypt',
  argon2id: '@authlab/hash-argon2',
  scrypt: '@authlab/hash-scrypt',
  'pbkdf2-sha256': '@authlab/hash-pbkdf2',
}

/** Baselines and the ceiling survive `--filter`: the ratios of the kept candidates are taken to them. */
export function isBaseline(candidate: string): boolean {
  return (
    ID_BASELINES.includes(candidate) ||
    candidate === ID_CEILING ||
    Object.values(NATIVE_HASHERS).includes(candidate)
  )
}
