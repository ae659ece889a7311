import type { KeyDerivation, PasswordHasher } from '@authlab/core'
import { nativeHashers } from '../../discover/baselines.js'
import { BENCH_PASSWORD, type CostSetting, instantiate } from '../../discover/settings.js'
import { message } from '../../harness/rows.js'
import type { RoundsBudget, SuiteContext } from '../../harness/suite.js'
import type { Candidates, HashCandidate, StretchCandidate } from '../../model/candidates.js'
import type { RemoteHelper } from './remote.js'

/** The time each stretch job is repeated for within a round (at least one call). */
export interface StretchBudget extends RoundsBudget {
  readonly roundMs: number
}

/** Settings of the stretch suite: the rows of Mozilla's onepw table they reproduce. */
export const STRETCH_SETTINGS = {
  pbkdf2: 'onepw:[1]',
  chain: 'onepw:chain',
  remote: 'onepw:[2]-vs-[3]',
} as const

/** The parameters the onepw protocol fixes (KeyServerProtocol "stretch-KDF"): not ours to choose. */
export const PBKDF2_20K: CostSetting = {
  label: 'PBKDF2-SHA256 20,000',
  family: 'pbkdf2-sha256',
  options: { iterations: 20_000 },
  quick: true,
}
export const ONEPW_SCRYPT: CostSetting = {
  label: 'scrypt N=2^16',
  family: 'scrypt',
  options: { ln: 16, r: 8, p: 1 },
  quick: true,
}
export const EMAIL = 'bench@example.com'
const MAIN_SALT = new Uint8Array(32).fill(0x5a)
const KEY_BYTES = 32

/** A chain the suite times: a discovered stretch candidate. */
export type Chain = Pick<StretchCandidate, 'id' | 'create'>

const isKdf = (h: PasswordHasher): h is PasswordHasher & KeyDerivation =>
  typeof (h as Partial<KeyDerivation>).derive === 'function'

/** Every discovered hasher that can serve as a KDF with the given parameters (native, WASM, pure JS...). */
function backends(hashers: readonly HashCandidate[], setting: CostSetting) {
  return hashers.flatMap((candidate) => {
    const kdf = instantiate(candidate, setting)
    return kdf && isKdf(kdf) ? [{ candidate, kdf }] : []
  })
}

export interface Job {
  readonly group: string
  /** Which row of the onepw table it reproduces, as data (src/keys.ts). */
  readonly setting: string
  readonly id: string
  readonly label: string
  readonly native: boolean
  readonly run: () => Promise<unknown>
  /** Row [2]: its scrypt runs in another process, so its rounds and figure are wall time, not our CPU. */
  readonly wall?: boolean
  /** The chain's native job, whose keys this one must reproduce (checked once, after the warm-up). */
  readonly sameKeysAs?: Job
  /** The margin in percent its ratio is judged at, when not the suites' own. */
  readonly margin?: number
}

/**
 * Row [1]'s margin: Web Crypto's extra cost is a fixed 0.1–0.4 ms a call (importKey, the promise), 3–5 %
 * of a 20,000-iteration call, a ratio on the ±5 % margin's end, where no number of rounds decides it. The
 * question is whether a client keeps up with native code, which pure JS misses by a multiple (row [4]).
 */
const ROW_1_MARGIN_PCT = 10

const chainGroup = (chain: Chain) => `${chain.id} chain (scrypt N=2^16 r=8 p=1)`
const wallGroup = (chain: Chain) => `${chain.id} chain, wall time: [2] remote helper vs [3] local`

/** A stretch's keys as comparable text: byte arrays (Buffer or Uint8Array alike) in hex, fields sorted. */
export function keysOf(value: unknown): string {
  if (ArrayBuffer.isView(value))
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${key}:${keysOf(record[key])}`)
      .join(',')}}`
  }
  return String(value)
}

/** One stretch of `chain` with `scrypt` as its scrypt step, or undefined (and a note) when it cannot be built. */
function stretchWith(chain: Chain, scrypt: KeyDerivation, name: string, notes: string[]) {
  try {
    const stretcher = chain.create({ scrypt })
    return () => stretcher.stretch(EMAIL, BENCH_PASSWORD, MAIN_SALT)
  } catch (error) {
    notes.push(`${chain.id} with ${name}: ${message(error)}`)
    return undefined
  }
}

/** Rows [1], [3] and [4]: everything that runs in this process. */
export function localJobs(candidates: Candidates, chains: readonly Chain[], notes: string[]): Job[] {
  const jobs: Job[] = []
  for (const { candidate, kdf } of backends(candidates.hashers, PBKDF2_20K)) {
    jobs.push({
      group: '[1] PBKDF2-SHA256 20,000 iterations',
      setting: STRETCH_SETTINGS.pbkdf2,
      id: candidate.id,
      label: kdf.info.displayName,
      native: candidate.id === nativeHashers()['pbkdf2-sha256'],
      run: () => kdf.derive(BENCH_PASSWORD, EMAIL, KEY_BYTES),
      ...(candidate.id === nativeHashers()['pbkdf2-sha256'] ? {} : { margin: ROW_1_MARGIN_PCT }),
    })
  }
  const scrypt = backends(candidates.hashers, ONEPW_SCRYPT)
  // The native backend first, so the others can name it as the keys they must reproduce.
  scrypt.sort(
    (a, b) =>
      Number(b.candidate.id === nativeHashers().scrypt) - Number(a.candidate.id === nativeHashers().scrypt),
  )
  for (const chain of chains) {
    let nativeJob: Job | undefined
    for (const { candidate, kdf } of scrypt) {
      const native = candidate.id === nativeHashers().scrypt
      const run = stretchWith(chain, kdf, candidate.id, notes)
      if (!run) continue
      const job: Job = {
        group: chainGroup(chain),
        setting: STRETCH_SETTINGS.chain,
        id: `${chain.id}+${candidate.id}`,
        label: `${native ? '[3]' : '[4]'} scrypt: ${kdf.info.displayName}`,
        native,
        run,
        ...(nativeJob ? { sameKeysAs: nativeJob } : {}),
      }
      if (native) nativeJob = job
      jobs.push(job)
    }
  }
  return jobs
}

/** Row [2] per chain: the same chain with the helper's scrypt, checked against the chain's native job. */
export function remoteJobs(
  chains: readonly Chain[],
  local: readonly Job[],
  remote: RemoteHelper,
  notes: string[],
) {
  const suffix = remote.network === 'loopback' ? '' : ` (${remote.network})`
  return chains.flatMap((chain): Job[] => {
    const run = stretchWith(chain, remote.setup.scrypt, 'the remote helper', notes)
    if (!run) return []
    const nativeJob = local.find((j) => j.group === chainGroup(chain) && j.native)
    return [
      {
        group: wallGroup(chain),
        setting: STRETCH_SETTINGS.remote,
        id: `${chain.id}+remote-helper${suffix}`,
        label: `[2] scrypt: remote helper (${remote.network})`,
        native: false,
        wall: true,
        run,
        ...(nativeJob ? { sameKeysAs: nativeJob } : {}),
      },
    ]
  })
}

/** One discarded run per job; a job that fails, or whose keys differ from its native job's, is dropped. */
export async function warmUp(jobs: readonly Job[], ctx: SuiteContext, notes: string[]): Promise<Job[]> {
  const keys = new Map<Job, string>()
  for (const job of jobs) {
    ctx.progress.step(`warm-up · ${job.label}`)
    try {
      keys.set(job, keysOf(await job.run()))
    } catch (error) {
      notes.push(`${job.id} failed: ${message(error)}`)
    }
  }
  return jobs.filter((job) => {
    const own = keys.get(job)
    if (own === undefined) return false
    if (!job.sameKeysAs) return true
    const expected = keys.get(job.sameKeysAs)
    if (expected === undefined) notes.push(`${job.id}: keys not checked (${job.sameKeysAs.id} failed).`)
    else if (own !== expected) {
      notes.push(`${job.id} dropped: its keys differ from ${job.sameKeysAs.label}'s.`)
      return false
    }
    return true
  })
}
