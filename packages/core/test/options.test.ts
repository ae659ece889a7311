import { describe, expect, test } from 'vitest'
import {
  checkOptions,
  closest,
  getAlgorithm,
  listAlgorithms,
  registerAlgorithm,
  SCRYPT,
} from '../src/index.js'

const specs = {
  iterations: { type: 'integer', min: 1 },
  label: { type: 'string', values: ['a', 'b'] },
  policy: { type: 'object', keys: { allowNul: { type: 'boolean' } } },
} as const
const aliases = { rounds: 'iterations' }
const errorOf = (options: unknown) => {
  try {
    checkOptions('@authlab/x', options, specs, aliases)
  } catch (error) {
    return error as { code?: string; message: string; detail?: unknown }
  }
  return undefined
}

describe('checkOptions', () => {
  test('undefined is no options; undefined values are dropped; valid values pass through', () => {
    expect(checkOptions('x', undefined, specs)).toEqual({})
    expect(checkOptions('x', { iterations: 5, label: undefined }, specs)).toEqual({ iterations: 5 })
  })
  test.each([
    ['null', null, /must be an object, got null/],
    ['an array', [1], /got an array/],
    ['a string', 'iterations', /got string/],
    ['a numeric string', { iterations: '600000' }, /must be an integer, got the string "600000"/],
    ['NaN', { iterations: Number.NaN }, /integer, got NaN/],
    ['Infinity', { iterations: Number.POSITIVE_INFINITY }, /integer, got Infinity/],
    ['a fraction', { iterations: 1.5 }, /integer, got 1.5/],
    ['a negative', { iterations: -3 }, /≥ 1, got -3/],
    ['a string outside its values', { label: 'c' }, /one of "a", "b"/],
    ['a truthy string for a boolean', { policy: { allowNul: 'no' } }, /allowNul" must be a boolean/],
  ])('%s → InvalidOptionError', (_, options, message) => {
    expect(errorOf(options)).toMatchObject({
      code: 'ERR_AUTHLAB_INVALID_OPTION',
      message: expect.stringMatching(message),
    })
  })
  test('an unknown key names the valid ones and suggests the nearest', () => {
    expect(errorOf({ itterations: 5 })).toMatchObject({
      message: expect.stringMatching(
        /unknown option "itterations".*Did you mean "iterations"\?.*Valid options: iterations, label, policy/,
      ),
      detail: {
        option: 'itterations',
        suggestion: 'iterations',
        validOptions: ['iterations', 'label', 'policy'],
      },
    })
    expect(errorOf({ policy: { alowNul: true } })?.message).toMatch(/Did you mean "allowNul"/)
  })
  test('another library’s name maps to ours', () => {
    expect(errorOf({ rounds: 5 })).toMatchObject({
      message: expect.stringMatching(/"rounds" is another library's name: here it is "iterations"/),
      detail: { suggestion: 'iterations' },
    })
  })
  test('closest offers nothing for a name far from every key', () => {
    expect(closest('memoryCost', ['ln', 'r', 'p'])).toBeUndefined()
    expect(closest('thread', ['threads', 'strategy'])).toBe('threads')
  })
})

describe('algorithm registry', () => {
  test('core’s four algorithms are registered; an unknown id is a typed error', () => {
    expect(listAlgorithms().map((profile) => profile.id)).toEqual(
      expect.arrayContaining(['bcrypt', 'scrypt', 'argon2id', 'pbkdf2-sha256']),
    )
    expect(getAlgorithm('scrypt')).toBe(SCRYPT)
    expect(() => getAlgorithm('md5')).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }))
  })
  test('a second profile under a taken id is refused; the same one again is a no-op', () => {
    expect(registerAlgorithm(SCRYPT)).toBe(SCRYPT)
    expect(() => registerAlgorithm({ ...SCRYPT })).toThrow(/already registered/)
  })
  test('every profile’s defaults are within its caps and its budget', () => {
    for (const profile of listAlgorithms()) {
      const work = profile.work(profile.defaults, 32)
      expect(work.units, profile.id).toBeLessThanOrEqual(profile.budget.units)
      expect(work.memoryBytes, profile.id).toBeLessThanOrEqual(profile.budget.memoryBytes)
      for (const [key, cap] of Object.entries(profile.caps)) {
        expect(profile.defaults[key], `${profile.id} ${key}`).toBeLessThanOrEqual(cap)
      }
    }
  })
})
