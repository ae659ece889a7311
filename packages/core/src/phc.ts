import { decodeBase64, encodeBase64 } from './encoding.js'
import { InvalidHashError } from './errors.js'

/**
 * A parsed PHC string (https://github.com/P-H-C/phc-string-format):
 * `$<id>[$v=<version>][$<param>=<value>(,<param>=<value>)*][$<salt>[$<hash>]]`, salt and hash in
 * standard base64 without padding — the form passlib, argon2's reference code and the argon2 bindings emit.
 */
export interface PhcString {
  readonly id: string
  readonly version?: number
  /** Raw parameter values in their written order; read numbers with `phcDecimal`. */
  readonly params: Readonly<Record<string, string>>
  readonly salt?: Uint8Array
  readonly hash?: Uint8Array
}

/** Upper bounds checked before any decoding, so a hostile string costs O(bound) at most. */
export interface PhcBounds {
  readonly maxLength: number
  readonly maxParams: number
  readonly maxSaltBytes: number
  readonly maxHashBytes: number
}

export const DEFAULT_PHC_BOUNDS: PhcBounds = Object.freeze({
  maxLength: 512,
  maxParams: 8,
  maxSaltBytes: 64,
  maxHashBytes: 128,
})

// The spec's character classes: function symbolic names and parameter names are [a-z0-9-]{1,32};
// parameter values are [a-zA-Z0-9/+.-]+ (the spec lets each function cap their length; 64 is ours).
const ID = /^[a-z0-9-]{1,32}$/
const PARAM = /^([a-z0-9-]{1,32})=([a-zA-Z0-9/+.-]{1,64})$/
const B64_FIELD = /^[A-Za-z0-9+/]+$/
// Decimal per the spec: no sign for our purposes, no leading zero, no exponent, within 2^53.
const DECIMAL = /^(0|[1-9][0-9]{0,14})$/

/** Parses and bounds-checks a PHC string; every defect is an InvalidHashError naming the field. */
export function parsePhc(encoded: string, bounds: PhcBounds = DEFAULT_PHC_BOUNDS): PhcString {
  if (typeof encoded !== 'string')
    throw new InvalidHashError(`encoded hash must be a string, got ${typeof encoded}`)
  if (encoded.length > bounds.maxLength) {
    throw new InvalidHashError(`encoded hash of ${encoded.length} characters exceeds ${bounds.maxLength}`)
  }
  if (!encoded.startsWith('$')) throw new InvalidHashError('encoded hash must start with "$"')
  const fields = encoded.slice(1).split('$')
  const id = fields.shift() as string
  if (!ID.test(id)) throw new InvalidHashError('invalid algorithm identifier (not 1-32 of [a-z0-9-])')

  let version: number | undefined
  if (fields[0]?.startsWith('v=')) version = phcDecimal((fields.shift() as string).slice(2), 'version')

  const params: Record<string, string> = {}
  if (fields[0]?.includes('=')) {
    const pairs = (fields.shift() as string).split(',')
    if (pairs.length > bounds.maxParams)
      throw new InvalidHashError(`more than ${bounds.maxParams} parameters`)
    for (const pair of pairs) {
      const match = PARAM.exec(pair)
      if (!match) throw new InvalidHashError('malformed parameter (not name=value in the PHC alphabet)')
      const [, name, value] = match as unknown as [string, string, string]
      if (Object.hasOwn(params, name)) throw new InvalidHashError(`duplicate parameter "${name}"`)
      params[name] = value
    }
  }

  if (fields.length > 2) throw new InvalidHashError('too many "$"-separated fields')
  const [saltText, hashText] = fields
  const salt = saltText === undefined ? undefined : readB64(saltText, 'salt', bounds.maxSaltBytes)
  const hash = hashText === undefined ? undefined : readB64(hashText, 'hash', bounds.maxHashBytes)
  return {
    id,
    ...(version === undefined ? {} : { version }),
    params,
    ...(salt && { salt }),
    ...(hash && { hash }),
  }
}

function readB64(text: string, what: string, maxBytes: number): Uint8Array {
  if (!B64_FIELD.test(text)) throw new InvalidHashError(`${what} is empty or not unpadded standard base64`)
  if (text.length > Math.ceil((maxBytes * 4) / 3))
    throw new InvalidHashError(`${what} longer than ${maxBytes} bytes`)
  return decodeBase64(text, undefined, what)
}

/** A strict PHC decimal: "0" or digits without a leading zero, sign, exponent or whitespace. */
export function phcDecimal(value: string | undefined, name: string): number {
  if (value === undefined) throw new InvalidHashError(`missing parameter "${name}"`)
  if (!DECIMAL.test(value)) throw new InvalidHashError(`parameter "${name}" is not a decimal integer`)
  return Number(value)
}

export interface PhcFields {
  readonly id: string
  readonly version?: number
  readonly params: Readonly<Record<string, number | string>>
  readonly salt: Uint8Array
  readonly hash: Uint8Array
}

/** Formats a PHC string; parameters are written in the object's key order. */
export function formatPhc({ id, version, params, salt, hash }: PhcFields): string {
  const pairs = Object.entries(params).map(([name, value]) => `${name}=${value}`)
  return [
    '',
    id,
    ...(version === undefined ? [] : [`v=${version}`]),
    ...(pairs.length ? [pairs.join(',')] : []),
    encodeBase64(salt),
    encodeBase64(hash),
  ].join('$')
}
