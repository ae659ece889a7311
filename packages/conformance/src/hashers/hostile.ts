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
 * Absurd cost parameters written into a genuine hash of each algorithm (the list: bcrypt cost
 * 31, scrypt N=2^30, argon2 m=4 GiB or t=10^6, PBKDF2 i=10^10): every one must be a ParameterLimitError,
 * answered before any work starts.
 */
const ABSURD: Record<string, readonly [label: string, edit: (h: string) => string][]> = {
  bcrypt: [['cost 31', (h) => h.replace(/^\$(2[aby]?)\$\d\d\$/, '$$$1$$31$$')]],
  scrypt: [
    ['N=2^30', (h) => h.replace(/ln=\d+/, 'ln=30')],
    ['r=2^20 (128·N·r memory)', (h) => h.replace(/r=\d+/, 'r=1048576')],
  ],
  argon2id: [
    ['m=4 GiB', (h) => h.replace(/m=\d+/, 'm=4194304')],
    ['t=10^6', (h) => h.replace(/t=\d+/, 't=1000000')],
  ],
  'pbkdf2-sha256': [['i=10^10', (h) => h.replace(/i=\d+/, 'i=10000000000')]],
}

/** The built-in over-cap cases for `algorithm`, or the caller's own; undefined when neither exists. */
export function absurdCases(
  algorithm: string,
  h: string,
  own?: (genuine: string) => readonly { label: string; encoded: string }[],
): HostileCase[] | undefined {
  const cases = own ? own(h) : ABSURD[algorithm]?.map(([label, edit]) => ({ label, encoded: edit(h) }))
  return cases?.map((c) => ({ ...c, code: LIMIT }))
}
