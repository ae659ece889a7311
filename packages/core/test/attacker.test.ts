import { describe, expect, test } from 'vitest'
import {
  ATTACKER_CARDS,
  attackerEstimate,
  cardEstimates,
  dollarsPerWordList,
  formatGuessRate,
  GUESS_RATE_REFERENCES,
  InvalidOptionError,
  parseAttackedSetting,
  RTX_5090_REFERENCES,
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

describe('a second card and a rented price', () => {
  test('the RTX 5090 rates are the published ones at the same reference settings; no Argon2 figure is made up', () => {
    expect(RTX_5090_REFERENCES.bcrypt?.guessesPerSecond).toBe(304_800)
    expect(RTX_5090_REFERENCES.scrypt?.guessesPerSecond).toBe(7_760)
    expect(RTX_5090_REFERENCES['pbkdf2-sha256']?.guessesPerSecond).toBe(11_157_200)
    expect(RTX_5090_REFERENCES.argon2id).toBeUndefined()
    for (const ref of Object.values(RTX_5090_REFERENCES)) {
      expect(ref.setting).toEqual(GUESS_RATE_REFERENCES[ref.algorithm].setting)
      expect(ref.source).toMatch(/^https:\/\/gist\.github\.com\/Chick3nman\//)
    }
    const e = attackerEstimate({ algorithm: 'bcrypt', cost: 10 }, RTX_5090_REFERENCES)
    expect(e.guessesPerSecond).toBeCloseTo(304_800 / 32, 6)
    expect(() =>
      attackerEstimate({ algorithm: 'argon2id', m: 19456, t: 2, p: 1 }, RTX_5090_REFERENCES),
    ).toThrow(InvalidOptionError)
  })

  test('dollars for the word list are its card-hours times the hourly price, per card that has a figure', () => {
    const cards = cardEstimates({ algorithm: 'bcrypt', cost: 10 })
    expect(cards.map((c) => c.card)).toEqual(ATTACKER_CARDS.map((c) => c.card))
    for (const c of cards) {
      const hours = WORD_LIST_SIZE / c.estimate.guessesPerSecond / 3600
      expect(c.dollarsSpot).toBeCloseTo(hours * c.rental.spotPerHour, 6)
      expect(c.dollarsOnDemand).toBeCloseTo(hours * c.rental.onDemandPerHour, 6)
      expect(c.rental.source).toMatch(/^https:\/\//)
    }
    // The RTX 5090 has no published Argon2 rate: argon2id is priced on the RTX 4090 alone.
    expect(cardEstimates({ algorithm: 'argon2id', m: 19456, t: 2, p: 1 }).map((c) => c.card)).toEqual([
      'NVIDIA GeForce RTX 4090',
    ])
    expect(dollarsPerWordList(attackerEstimate({ algorithm: 'bcrypt', cost: 5 }), 1)).toBeCloseTo(
      WORD_LIST_SIZE / 184_000 / 3600,
      6,
    )
  })
})
