import type { KeyDerivation, PasswordHasher } from '@authlab/core'
import { NATIVE_HASHERS } from '../discover/baselines.js'
import { BENCH_PASSWORD, type CostSetting, instantiate } from '../discover/settings.js'
import { noiseFloorPct, perRoundRatios, runRounds, summarizeRatio } from '../measure/rounds.js'
import { timeRound } from '../measure/sample.js'
import { median } from '../measure/stats.js'
import type { HashCandidate, Suite, SuiteRow } from '../types.js'

/** The parameters the onepw protocol fixes (KeyServerProtocol "stretch-KDF"): not ours to choose. */
const PBKDF2_20K: CostSetting = {
  label: 'PBKDF2-SHA256 20,000',
  family: 'pbkdf2-sha256',
  options: { iterations: 20_000 },
  quick: true,
}
const ONEPW_SCRYPT: CostSetting = {
  label: 'scrypt N=2^16',
  family: 'scrypt',
  options: { ln: 16, r: 8, p: 1 },
  quick: true,
}
const EMAIL = 'bench@example.com'
const MAIN_SALT = new Uint8Array(32).fill(0x5a)
const KEY_BYTES = 32

type Stretcher = {
  info: { displayName: string }
  stretch(email: string, password: string, salt: Uint8Array): Promise<unknown>
}
type StretcherFactory = (options: { scrypt?: KeyDerivation }) => Stretcher

const isKdf = (h: PasswordHasher): h is PasswordHasher & KeyDerivation =>
  typeof (h as Partial<KeyDerivation>).derive === 'function'

/** Every discovered hasher that can serve as a KDF with the given parameters (native, WASM, pure JS...). */
function backends(hashers: readonly HashCandidate[], setting: CostSetting) {
  return hashers.flatMap((candidate) => {
    const kdf = instantiate(candidate, setting)
    return kdf && isKdf(kdf) ? [{ candidate, kdf }] : []
  })
}

interface Job {
  readonly group: string
  readonly id: string
  readonly label: string
  readonly native: boolean
  readonly run: () => Promise<unknown>
}

export const stretchSuite: Suite = {
  name: 'stretch',
  description:
    "Mozilla's 2013 onepw key-stretching table on this machine: [1] 20,000 PBKDF2-SHA256 iterations; [3] the whole chain with local native scrypt; [4] the chain with WASM and pure-JS scrypt. Interleaved rounds, CPU time, per-round ratios to the native implementation.",
  async run(candidates, ctx) {
    const pbkdf2 = backends(candidates.hashers, PBKDF2_20K)
    const scrypt = backends(candidates.hashers, ONEPW_SCRYPT)
    const chains = candidates.stretch.flatMap((s) =>
      typeof s.exports.createStretcher === 'function'
        ? [{ pkg: s, create: s.exports.createStretcher as StretcherFactory }]
        : [],
    )
    const jobs: Job[] = []
    const notes: string[] = []
    for (const { candidate, kdf } of pbkdf2) {
      jobs.push({
        group: '[1] PBKDF2-SHA256 20,000 iterations',
        id: candidate.id,
        label: kdf.info.displayName,
        native: candidate.id === NATIVE_HASHERS['pbkdf2-sha256'],
        run: () => kdf.derive(BENCH_PASSWORD, EMAIL, KEY_BYTES),
      })
    }
    for (const chain of chains) {
      for (const { candidate, kdf } of scrypt) {
        const native = candidate.id === NATIVE_HASHERS.scrypt
        let stretcher: Stretcher
        try {
          stretcher = chain.create({ scrypt: kdf })
        } catch (error) {
          notes.push(`${chain.pkg.id} with ${candidate.id}: ${(error as Error).message}`)
          continue
        }
        jobs.push({
          group: `${chain.pkg.id} chain (scrypt N=2^16 r=8 p=1)`,
          id: `${chain.pkg.id}+${candidate.id}`,
          label: `${native ? '[3]' : '[4]'} scrypt: ${kdf.info.displayName}`,
          native,
          run: () => stretcher.stretch(EMAIL, BENCH_PASSWORD, MAIN_SALT),
        })
      }
    }
    // The A/A control: the first native job again, as a separate job.
    const base = jobs.find((j) => j.native)
    if (base)
      jobs.push({ ...base, id: `${base.id} (A/A)`, label: `${base.label} [A/A control]`, native: false })
    const rounds = ctx.budget.stretchRounds
    ctx.progress.plan(jobs.length * (rounds + 1))
    const live: Job[] = []
    for (const job of jobs) {
      ctx.progress.step(`warm-up · ${job.label}`)
      try {
        await job.run()
        live.push(job)
      } catch (error) {
        notes.push(`${job.id} failed: ${(error as Error).message}`)
      }
    }
    const measured = await runRounds(
      live,
      rounds,
      ctx.seed,
      (job, round) => {
        ctx.progress.step(`round ${round + 1} · ${job.label}`)
        return timeRound(job.run, ctx.budget.hashRoundMs)
      },
      (job, error) => notes.push(`${job.id}: a round failed (${(error as Error).message})`),
    )
    const cpuOf = (job: Job | undefined) => (job ? (measured.get(job) ?? []) : []).map((t) => t?.cpuMs)
    const control = live.find((j) => j.id.endsWith(' (A/A)'))
    const floor =
      control && base
        ? noiseFloorPct(summarizeRatio('', perRoundRatios(cpuOf(control), cpuOf(base), false)))
        : undefined
    const rows: SuiteRow[] = live.map((job) => {
      const nativeJob = job === control ? base : live.find((j) => j.group === job.group && j.native)
      const cpu = cpuOf(job)
      const clean = cpu.filter((v): v is number => v !== undefined)
      const flags = job.native ? ['baseline'] : job === control ? ['A/A control'] : []
      return {
        group: job.group,
        candidate: job.id,
        label: job.label,
        value: 1000 / median(clean),
        unit: 'ops/CPU-s',
        higherIsBetter: true,
        rounds: clean.map((ms) => 1000 / ms),
        ratios: nativeJob
          ? [
              // The control is judged by its own interval: against the floor it sets, it could never fail.
              summarizeRatio(
                nativeJob.label,
                perRoundRatios(cpu, cpuOf(nativeJob), false),
                job === control ? undefined : floor,
              ),
            ]
          : [],
        details: {
          'CPU ms (median)': median(clean),
          'wall ms (median)': median((measured.get(job) ?? []).flatMap((t) => (t ? [t.wallMs] : []))),
        },
        flags,
      }
    })
    if (chains.length === 0) notes.push('No stretch package with a createStretcher export was discovered.')
    notes.push(
      "Rows [1], [3], [4] follow the numbering of Mozilla's 2013 table (row [2], the remote scrypt helper, is not reproduced).",
      `${rounds} rounds after one discarded run each, every job once per round in a fresh random order; ratio = native CPU time ÷ candidate CPU time per round, median with a 95 % bootstrap interval${floor === undefined ? '' : `; A/A noise floor ±${floor.toFixed(1)} %`}.`,
    )
    return { rows, notes }
  },
}
