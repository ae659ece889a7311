import { describe, expect, test } from 'vitest'
import { checkIdGenerator } from '../src/index.js'

const declared = (generate: () => unknown) =>
  Object.assign(generate, { info: { length: 36, alphabet: '0123456789abcdef-' } })

describe('checkIdGenerator', () => {
  test('passes a generator whose IDs match what it declares and returns it', () => {
    const generate = declared(() => crypto.randomUUID())
    expect(checkIdGenerator(generate)).toBe(generate)
  })

  test.each([
    ['not a function', 42 as never, /must be a function/],
    ['an empty ID', () => '', /non-empty string, got an empty string/],
    ['a number', () => 42, /non-empty string, got number/],
    ['a repeating ID', () => 'same-id', /same ID twice/],
    ['a short ID', declared(() => crypto.randomUUID().slice(1)), /declared 36 characters and returned 35/],
    [
      'a stray character',
      declared(() => `${crypto.randomUUID().slice(1)}Z`),
      /U\+005A, outside its declared alphabet/,
    ],
  ])('refuses %s with a typed error that never quotes the ID', (_name, generate, message) => {
    expect(() => checkIdGenerator(generate)).toThrow(
      expect.objectContaining({
        code: 'ERR_AUTHLAB_INVALID_OPTION',
        message: expect.stringMatching(message),
      }),
    )
  })

  test('a constant ceiling passes with distinct: false, still held to its declared shape', () => {
    expect(() => checkIdGenerator(() => 'x'.repeat(32), { distinct: false })).not.toThrow()
  })
})
