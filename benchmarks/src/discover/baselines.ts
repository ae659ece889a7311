/**
 * Which candidates others are divided by (ratios to a baseline measured in the same run cancel
 * the machine's speed and load). A policy choice, kept in one place; candidates themselves are discovered.
 */
export const ID_BASELINES: readonly string[] = [
  'ref:randomUUID',
  'ref:fastify-session',
  'ref:express-session',
]

/** The flat-string floor (references.ts): the cheapest 32-character string, so no generator can beat it. */
export const ID_CEILING = 'ref:flat-string'

/**
 * The http suite's ceiling, the insecure unique counter: a constant ID would keep the session store at
 * one entry and be unfairly cheap downstream, so the ceiling there must be unique per request.
 */
export const HTTP_CEILING = 'ref:counter'

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
    candidate === HTTP_CEILING ||
    Object.values(NATIVE_HASHERS).includes(candidate)
  )
}
