import { listAlgorithms } from '@authlab/core'

/** A stored hash an attacker (or a corrupted row) could hand to `verify`, and the error code it must get. */
export interface HostileCase {
  readonly label: string
  readonly encoded: string
  readonly code: 'ERR_AUTHLAB_INVALID_HASH' | 'ERR_AUTHLAB_PARAMETER_LIMIT'
}

const INVALID = 'ERR_AUTHLAB_INVALID_HASH'
const LIMIT = 'ERR_AUTHLAB_PARAMETER_LIMIT'

/** Malformed variants of a genuine hash `h`: every one must be an InvalidHashError. */
export function malformedCases(h: string): HostileCase[] {
  const lastField = h.lastIndexOf('$')
  return [
    { label: 'empty string', encoded: '' },
    { label: 'a lone "$"', encoded: '$' },
    { label: 'truncated to 7 characters', encoded: h.slice(0, 7) },
    { label: 'hash field removed', encoded: h.slice(0, lastField) },
    { label: 'hash field cut to 10 characters', encoded: h.slice(0, lastField + 11) },
    { label: 'wrong prefix', encoded: h.replace(/^\$[^$]*\$/, '$md5$') },
    { label: 'bad base64 in the hash field', encoded: `${h.slice(0, -3)}*${h.slice(-2)}` },
    { label: 'leading space', encoded: ` ${h}` },
    { label: '100 kB of trailing base64', encoded: h + 'A'.repeat(100_000) },
    { label: 'not a string', encoded: 42 as unknown as string },
  ].map((c) => ({ ...c, code: INVALID }))
}

/**
 * The over-cap and over-budget cases of the hasher's algorithm profile (bcrypt cost 31, scrypt N=2^30,
 * argon2 m=4 GiB, PBKDF2 i=10^10, and in-cap combinations worth a minute and a GiB), or the caller's
 * own: every one must be a ParameterLimitError, answered before any work starts. Undefined when the
 * algorithm has no registered profile and the caller gave none.
 */
export function absurdCases(
  algorithm: string,
  h: string,
  own?: (genuine: string) => readonly { label: string; encoded: string }[],
): HostileCase[] | undefined {
  const profile = listAlgorithms().find((candidate) => candidate.id === algorithm)
  const cases = own ? own(h) : profile?.absurd.map(({ label, edit }) => ({ label, encoded: edit(h) }))
  return cases?.map((c) => ({ ...c, code: LIMIT }))
}
