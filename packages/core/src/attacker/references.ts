/**
 * Published GPU guess rates: what one attacker's card does per second at the cracking tool's own
 * reference setting for each algorithm. Each figure is quoted from its source, never measured here.
 */

export type AttackedAlgorithm = 'bcrypt' | 'pbkdf2-sha256' | 'scrypt' | 'argon2id'

export interface GuessRateReference {
  readonly algorithm: AttackedAlgorithm
  /** Guesses (hashes) per second on `card` at `setting`. */
  readonly guessesPerSecond: number
  readonly card: string
  /** The card's memory in bytes: it bounds how many memory-hard hashes are in flight at once. */
  readonly cardMemory: number
  readonly tool: string
  readonly hashcatMode: number
  /** The reference setting, in the algorithm's own parameters (see `AttackedSetting`). */
  readonly setting: AttackedSetting
  /** The setting as its source writes it. */
  readonly settingText: string
  readonly source: string
}

/** An algorithm's parameters as the hash stores them. */
export type AttackedSetting =
  | { readonly algorithm: 'bcrypt'; readonly cost: number }
  | { readonly algorithm: 'pbkdf2-sha256'; readonly iterations: number }
  | { readonly algorithm: 'scrypt'; readonly ln: number; readonly r: number; readonly p: number }
  | { readonly algorithm: 'argon2id'; readonly m: number; readonly t: number; readonly p: number }

const GiB = 1024 ** 3
const RTX_4090 = 'NVIDIA GeForce RTX 4090'
const RTX_5090 = 'NVIDIA GeForce RTX 5090'
// Chick3nman's published `hashcat -b` run on one RTX 4090, hashcat v6.2.6 (October 2022).
const HASHCAT_626_RTX_4090 = 'https://gist.github.com/Chick3nman/32e662a5bb63bc4f51b847bb422222fd'

export const GUESS_RATE_REFERENCES: Readonly<Record<AttackedAlgorithm, GuessRateReference>> = {
  // hashcat mode 3200 benchmarks bcrypt at "Iterations: 32", i.e. cost 5 (2^5 rounds).
  bcrypt: {
    algorithm: 'bcrypt',
    guessesPerSecond: 184_000,
    card: RTX_4090,
    cardMemory: 24 * GiB,
    tool: 'hashcat v6.2.6',
    hashcatMode: 3200,
    setting: { algorithm: 'bcrypt', cost: 5 },
    settingText: 'cost 5 (Iterations: 32)',
    source: HASHCAT_626_RTX_4090,
  },
  // hashcat mode 10900 benchmarks PBKDF2-HMAC-SHA256 at 999 iterations.
  'pbkdf2-sha256': {
    algorithm: 'pbkdf2-sha256',
    guessesPerSecond: 8_865_700,
    card: RTX_4090,
    cardMemory: 24 * GiB,
    tool: 'hashcat v6.2.6',
    hashcatMode: 10900,
    setting: { algorithm: 'pbkdf2-sha256', iterations: 999 },
    settingText: '999 iterations',
    source: HASHCAT_626_RTX_4090,
  },
  // hashcat mode 8900's self-test hash is SCRYPT:16384:8:1 (src/modules/module_08900.c).
  scrypt: {
    algorithm: 'scrypt',
    guessesPerSecond: 7_126,
    card: RTX_4090,
    cardMemory: 24 * GiB,
    tool: 'hashcat v6.2.6',
    hashcatMode: 8900,
    setting: { algorithm: 'scrypt', ln: 14, r: 8, p: 1 },
    settingText: 'N=16384 r=8 p=1',
    source: HASHCAT_626_RTX_4090,
  },
  // hashcat 7.0.0's release notes, section 2.2: "Argon2id with RFC 9106 recommended settings
  // (m=65536, t=3, p=1): GPU, NVIDIA GeForce RTX 4090: 1703 H/s" (mode 34000).
  argon2id: {
    algorithm: 'argon2id',
    guessesPerSecond: 1_703,
    card: RTX_4090,
    cardMemory: 24 * GiB,
    tool: 'hashcat 7.0.0',
    hashcatMode: 34000,
    setting: { algorithm: 'argon2id', m: 65536, t: 3, p: 1 },
    settingText: 'm=65536 (64 MiB) t=3 p=1',
    source: 'https://github.com/hashcat/hashcat/releases/tag/v7.0.0',
  },
}

// Chick3nman's published `hashcat -b` run on one RTX 5090 Founders Edition, hashcat v6.2.6-851; the same
// three figures appear in an independent transcription (a benchmark survey of February 2026). Read
// December 2026.
const HASHCAT_626_851_RTX_5090 = 'https://gist.github.com/Chick3nman/09bac0775e6393468c2925c1e1363d5c'

const rtx5090 = (reference: GuessRateReference, guessesPerSecond: number): GuessRateReference => ({
  ...reference,
  guessesPerSecond,
  card: RTX_5090,
  cardMemory: 32 * GiB,
  tool: 'hashcat v6.2.6-851',
  source: HASHCAT_626_851_RTX_5090,
})

/**
 * The same three reference settings on an RTX 5090 (modes 3200, 10900, 8900). No Argon2 figure for the
 * card is published (hashcat 7.0.0's release notes give the RTX 4090's only): none is invented here.
 */
export const RTX_5090_REFERENCES: Readonly<Partial<Record<AttackedAlgorithm, GuessRateReference>>> = {
  bcrypt: rtx5090(GUESS_RATE_REFERENCES.bcrypt, 304_800),
  'pbkdf2-sha256': rtx5090(GUESS_RATE_REFERENCES['pbkdf2-sha256'], 11_157_200),
  scrypt: rtx5090(GUESS_RATE_REFERENCES.scrypt, 7_760),
}

/** What renting one card costs an attacker per hour, as a provider listed it on a date. */
export interface RentalPrice {
  readonly card: string
  readonly spotPerHour: number
  readonly onDemandPerHour: number
  readonly provider: string
  readonly date: string
  readonly source: string
}

// RunPod's community-cloud prices as DeployBase listed them on 10 March 2026.
const RUNPOD_MARCH_2026 = {
  provider: 'RunPod',
  date: '2026-03-10',
  source: 'https://deploybase.ai/articles/runpod-gpu-pricing',
} as const

/** The cards whose guess rates are referenced, each with its reference figures and a rented price. */
export const ATTACKER_CARDS: readonly {
  readonly card: string
  readonly references: Readonly<Partial<Record<AttackedAlgorithm, GuessRateReference>>>
  readonly rental: RentalPrice
}[] = [
  {
    card: RTX_4090,
    references: GUESS_RATE_REFERENCES,
    rental: { card: RTX_4090, spotPerHour: 0.34, onDemandPerHour: 0.6, ...RUNPOD_MARCH_2026 },
  },
  {
    card: RTX_5090,
    references: RTX_5090_REFERENCES,
    rental: { card: RTX_5090, spotPerHour: 0.69, onDemandPerHour: 1.22, ...RUNPOD_MARCH_2026 },
  },
]
