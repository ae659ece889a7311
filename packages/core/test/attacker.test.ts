import { describe, expect, test } from 'vitest'
import {
  attackerEstimate,
  formatGuessRate,
  GUESS_RATE_REFERENCES,
  InvalidOptionError,
  parseAttackedSetting,
  WORD_LIST_SIZE,
} from '../src/index.js'

describe('attacker estimate: published GPU rate scaled to a setting', () => {
  test('at each reference setting the estimate is the published figure, linear', () => {
    for (const ref of Object.values(GUESS_RATE_REFERENCES)) {
      const e = attackerEstimate(ref.setting)
      expect(e.guessesPerSecond).toBeCloseTo(ref.guessesPerSecond, 6)
      expect(e.linear).toBe(true)
      expect(ref.source).toMatch(/^https:\/\//)
    }
  })

  test('bcrypt halves per cost step: cost 10 is 2^5 times slower than cost 5', () => {
    const e = attackerEstimate({ algorithm: 'bcrypt', cost: 10 })
    expect(e.guessesPerSecond).toBeCloseTo(184_000 / 32, 6)
    expect(e.memoryPerGuess).toBe(0)
    expect(e.note).toMatch(/compute, not its memory/)
  })

  test('PBKDF2 scales by iterations', () => {
    const e = attackerEstimate({ algorithm: 'pbkdf2-sha256', iterations: 600_000 })
    expect(e.guessesPerSecond).toBeCloseTo((8_865_700 * 999) / 600_000, 6)
  })

  test('GPU-days for a 10^10-word list follow from the rate', () => {
    const e = attackerEstimate({ algorithm: 'bcrypt', cost: 12 })
    expect(e.gpuDaysPerWordList).toBeCloseTo(WORD_LIST_SIZE / e.guessesPerSecond / 86_400, 9)
  })

  test('scrypt scales by N·r·p; above the reference memory it says memory bounds the card', () => {
    const e = attackerEstimate({ algorithm: 'scrypt', ln: 17, r: 8, p: 1 })
    expect(e.guessesPerSecond).toBeCloseTo(7_126 / 8, 6)
    expect(e.memoryPerGuess).toBe(128 * 8 * 2 ** 17)
    expect(e.linear).toBe(false)
    expect(e.note).toMatch(/at most 192 guesses at once .*at or below/)
  })

  test('argon2id scales by m·t; below the reference memory the real rate may be above the estimate', () => {
    const e = attackerEstimate({ algorithm: 'argon2id', m: 19456, t: 2, p: 1 })
    expect(e.guessesPerSecond).toBeCloseTo((1_703 * 65536 * 3) / (19456 * 2), 6)
    expect(e.linear).toBe(false)
    expect(e.note).toMatch(/above this estimate/)
  })

  test('bad parameters are a typed error, not NaN', () => {
    expect(() => attackerEstimate({ algorithm: 'bcrypt', cost: Number.NaN })).toThrow(InvalidOptionError)
    expect(() => attackerEstimate({ algorithm: 'argon2id', m: 0, t: 1, p: 1 })).toThrow(InvalidOptionError)
    // @ts-expect-error an algorithm with no reference
    expect(() => attackerEstimate({ algorithm: 'md5' })).toThrow(InvalidOptionError)
  })

  test('the bench’s params strings parse; anything else is undefined', () => {
    expect(parseAttackedSetting('argon2id m=19456 t=2 p=1')).toEqual({
      algorithm: 'argon2id',
      m: 19456,
      t: 2,
      p: 1,
    })
    expect(parseAttackedSetting('bcrypt cost=10')).toEqual({ algorithm: 'bcrypt', cost: 10 })
    expect(parseAttackedSetting('scrypt ln=14 r=16 p=1')).toEqual({
      algorithm: 'scrypt',
      ln: 14,
      r: 16,
      p: 1,
    })
    expect(parseAttackedSetting('pbkdf2-sha256 iterations=600000')).toEqual({
      algorithm: 'pbkdf2-sha256',
      iterations: 600000,
    })
    expect(parseAttackedSetting('pbkdf2-sha512 iterations=1')).toBeUndefined()
    expect(parseAttackedSetting('bcrypt')).toBeUndefined()
  })

  test('rates print with an SI prefix', () => {
    expect(formatGuessRate(184_000)).toBe('184 kH/s')
    expect(formatGuessRate(8_865_700)).toBe('8.87 MH/s')
    expect(formatGuessRate(24)).toBe('24 H/s')
  })
})
