import { InvalidOptionError } from '../errors.js'
import {
  ATTACKER_CARDS,
  type AttackedAlgorithm,
  type AttackedSetting,
  GUESS_RATE_REFERENCES,
  type GuessRateReference,
  type RentalPrice,
} from './references.js'

/** The size of the word list the GPU-days figure is for: a large leaked-password list with rules. */
export const WORD_LIST_SIZE = 1e10

export interface AttackerEstimate {
  readonly setting: AttackedSetting
  readonly reference: GuessRateReference
  /** Guesses per second on the reference card at `setting`, scaled from the reference figure. */
  readonly guessesPerSecond: number
  /** Days for one card to try every word of a 10^10-word list against one hash. */
  readonly gpuDaysPerWordList: number
  /** Memory one guess holds, bytes; 0 where the algorithm's memory is a few KiB (bcrypt, PBKDF2). */
  readonly memoryPerGuess: number
  /**
   * False where the card's memory, not its compute, bounds how many guesses run at once at this setting,
   * so the linear scaling stops holding; `note` says which way the real rate lies.
   */
  readonly linear: boolean
  readonly note: string
}

function work(setting: AttackedSetting): number {
  switch (setting.algorithm) {
    // bcrypt's EksBlowfish runs 2^cost key-schedule rounds (Provos & Mazières 1999, §5).
    case 'bcrypt':
      return 2 ** setting.cost
    // RFC 8018 §5.2: c iterations of the PRF per output block.
    case 'pbkdf2-sha256':
      return setting.iterations
    // RFC 7914 §2: p lanes, each filling and reading 128·r·N bytes: memory per lane × lanes.
    case 'scrypt':
      return 2 ** setting.ln * setting.r * setting.p
    // RFC 9106 §3.2: m KiB filled and passed over t times; memory × passes.
    case 'argon2id':
      return setting.m * 1024 * setting.t
  }
}

function memoryOf(setting: AttackedSetting): number {
  if (setting.algorithm === 'scrypt') return 128 * setting.r * 2 ** setting.ln
  if (setting.algorithm === 'argon2id') return setting.m * 1024
  return 0
}

type References = Readonly<Partial<Record<AttackedAlgorithm, GuessRateReference>>>

function checkSetting(setting: AttackedSetting, references: References): GuessRateReference {
  const values = Object.entries(setting).filter(([key]) => key !== 'algorithm')
  const bad = values.find(([, v]) => typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
  const reference = references[setting.algorithm]
  if (bad || !reference) {
    throw new InvalidOptionError(
      `an attacker estimate needs a known algorithm with positive parameters, got ${JSON.stringify(setting)}`,
    )
  }
  return reference
}

const MiB = 1024 * 1024
const mib = (bytes: number) => `${Number((bytes / MiB).toFixed(1))} MiB`

/**
 * The reference card's guess rate at `setting`: the published rate scaled by the work per guess
 * (bcrypt by 2^cost, PBKDF2 by iterations, scrypt by N·r·p and argon2id by m·t: memory × passes). For the memory-hard
 * two the scaling is linear only at the reference's memory per guess: above it the card holds fewer
 * guesses at once (its memory ÷ memory per guess), so the real rate is at or below the estimate; below
 * it the card may hold more at once than at the reference, so the real rate may be above it.
 */
export function attackerEstimate(
  setting: AttackedSetting,
  references: References = GUESS_RATE_REFERENCES,
): AttackerEstimate {
  const reference = checkSetting(setting, references)
  const guessesPerSecond = (reference.guessesPerSecond * work(reference.setting)) / work(setting)
  const memory = memoryOf(setting)
  const refMemory = memoryOf(reference.setting)
  const inFlight = memory > 0 ? Math.floor(reference.cardMemory / memory) : 0
  const refInFlight = refMemory > 0 ? Math.floor(reference.cardMemory / refMemory) : 0
  const linear = memory === refMemory
  const note =
    memory === 0
      ? `scaled linearly from ${reference.settingText}: ${setting.algorithm} needs a few KiB per guess, so the card's compute, not its memory, bounds it`
      : linear
        ? `scaled linearly in time from ${reference.settingText}, at the reference's ${mib(memory)} per guess`
        : memory > refMemory
          ? `not linear: at ${mib(memory)} per guess the card's memory holds at most ${inFlight} guesses at once (${refInFlight} at the reference's ${mib(refMemory)}), so memory bounds its parallelism and the real rate is at or below this estimate`
          : `not linear: at ${mib(memory)} per guess the card holds up to ${inFlight} guesses at once (${refInFlight} at the reference's ${mib(refMemory)}); where the reference was bound by memory the real rate is above this estimate`
  return {
    setting,
    reference,
    guessesPerSecond,
    gpuDaysPerWordList: WORD_LIST_SIZE / guessesPerSecond / 86_400,
    memoryPerGuess: memory,
    linear: memory === 0 || linear,
    note,
  }
}

/** Dollars to try every word of the WORD_LIST_SIZE list against one hash on a card rented at `perHour`. */
export function dollarsPerWordList(estimate: AttackerEstimate, perHour: number): number {
  return (WORD_LIST_SIZE / estimate.guessesPerSecond / 3600) * perHour
}

/** One card's estimate at a setting and what the word list costs on it rented, spot and on demand. */
export interface CardEstimate {
  readonly card: string
  readonly estimate: AttackerEstimate
  readonly rental: RentalPrice
  readonly dollarsSpot: number
  readonly dollarsOnDemand: number
}

/**
 * Every referenced card that has a published figure for the setting's algorithm (ATTACKER_CARDS), in
 * their order: a card without one is left out, never given an invented rate.
 */
export function cardEstimates(setting: AttackedSetting): CardEstimate[] {
  return ATTACKER_CARDS.flatMap(({ card, references, rental }) => {
    if (!references[setting.algorithm]) return []
    const estimate = attackerEstimate(setting, references)
    return [
      {
        card,
        estimate,
        rental,
        dollarsSpot: dollarsPerWordList(estimate, rental.spotPerHour),
        dollarsOnDemand: dollarsPerWordList(estimate, rental.onDemandPerHour),
      },
    ]
  })
}

/**
 * A hash's parameters as the bench records them (`argon2id m=19456 t=2 p=1`, `bcrypt cost=10`,
 * `scrypt ln=14 r=16 p=1`, `pbkdf2-sha256 iterations=600000`); undefined for anything else.
 */
export function parseAttackedSetting(text: string): AttackedSetting | undefined {
  const [name, ...pairs] = text.trim().split(/\s+/)
  const p: Record<string, number> = {}
  for (const pair of pairs) {
    const [key, value] = pair.split('=')
    if (key && value !== undefined && /^\d+$/.test(value)) p[key] = Number(value)
  }
  const has = (...keys: string[]) => keys.every((k) => p[k] !== undefined && p[k] > 0)
  if (name === 'bcrypt' && has('cost')) return { algorithm: 'bcrypt', cost: p.cost as number }
  if (name === 'pbkdf2-sha256' && has('iterations'))
    return { algorithm: 'pbkdf2-sha256', iterations: p.iterations as number }
  if (name === 'scrypt' && has('ln', 'r', 'p'))
    return { algorithm: 'scrypt', ln: p.ln as number, r: p.r as number, p: p.p as number }
  if (name === 'argon2id' && has('m', 't', 'p'))
    return { algorithm: 'argon2id', m: p.m as number, t: p.t as number, p: p.p as number }
  return undefined
}

/** "184 kH/s", "8.87 MH/s", "1.70 kH/s", "24 H/s": three significant figures, SI prefix. */
export function formatGuessRate(perSecond: number): string {
  const [div, unit] =
    perSecond >= 1e9
      ? [1e9, 'GH/s']
      : perSecond >= 1e6
        ? [1e6, 'MH/s']
        : perSecond >= 1e3
          ? [1e3, 'kH/s']
          : [1, 'H/s']
  return `${Number((perSecond / div).toPrecision(3))} ${unit}`
}
