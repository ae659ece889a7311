import { listAlgorithms } from '@authlab/core'

/**
 * Which candidates others are divided by (ratios to a baseline measured in the same run cancel
 * the machine's speed and load). A policy choice, kept in one place; candidates themselves are discovered.
 */
export const ID_BASELINES: readonly string[] = [
  'ref:randomUUID',
  'ref:fastify-session',
  'ref:express-session',
  'ref:better-auth',
  'ref:hono-session',
  // What apps that use it as a token pay, for the defaults table (absent on Node 22: no ratio there).
  'ref:randomUUIDv7',
]

/** The flat-string floor (references.ts): the cheapest 32-character string, so no generator can beat it. */
export const ID_CEILING = 'ref:flat-string'

/**
 * The http suite's ceiling, the insecure unique counter: a constant ID would keep the session store at
 * one entry and be unfairly cheap downstream, so the ceiling there must be unique per request.
 */
export const HTTP_CEILING = 'ref:counter'

/**
 * The native implementation of each algorithm family, the yardstick for its other implementations, as
 * its profile names it. Read at call time: a package outside core registers its algorithm when loaded.
 */
export function nativeHashers(): Readonly<Record<string, string>> {
  return Object.fromEntries(
    listAlgorithms().flatMap((profile) => (profile.baseline ? [[profile.id, profile.baseline]] : [])),
  )
}

/** Baselines and the ceiling survive `--filter`: the ratios of the kept candidates are taken to them. */
export function isBaseline(candidate: string): boolean {
  return (
    ID_BASELINES.includes(candidate) ||
    candidate === ID_CEILING ||
    candidate === HTTP_CEILING ||
    Object.values(nativeHashers()).includes(candidate)
  )
}
