import type { KeyDerivation, PasswordHasher } from '@authlab/core'
import { NATIVE_HASHERS } from '../discover/baselines.js'
import { BENCH_PASSWORD, type CostSetting, instantiate } from '../discover/settings.js'
import { type Measurement, measureAsync } from '../measure/measure.js'
import { noiseFlags, ratioTo } from '../measure/ratio.js'
import type { Budget, HashCandidate, Suite, SuiteRow } from '../types.js'

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

/**
 * Benchmark.js's one-line summary, "x ops/sec ±rme% (n runs sampled)", so the figures read like
 * Mozilla's 2013 table next to the modern statistics (hz printed with 2 decimals below 100, as Benchmark.js does).
 */
export function benchmarkJsLine(m: Measurement): string {
  const hz = 1000 / m.mean
  const ops = hz < 100 ? hz.toFixed(2) : Math.round(hz).toLocaleString('en-US')
  return `${ops} ops/sec ±${m.rme.toFixed(2)}% (${m.samples} runs sampled)`
}

interface Timed {
  readonly group: string
  readonly id: string
  readonly label: string
  readonly native: boolean
  readonly m: Measurement
}

function rowsOf(timed: readonly Timed[], maxRme: number): SuiteRow[] {
  return timed.map((t) => {
    const base = timed.find((x) => x.group === t.group && x.native)
    const figure = { value: 1000 / t.m.mean, rme: t.m.rme }
    const flags = noiseFlags(t.m.rme, maxRme)
    if (t === base) flags.push('baseline')
    return {
      group: t.group,
      candidate: t.id,
      label: t.label,
      value: figure.value,
      unit: 'ops/s',
      higherIsBetter: true,
      rme: t.m.rme,
      samples: t.m.samples,
      ratios: base ? [ratioTo(base.label, figure, { value: 1000 / base.m.mean, rme: base.m.rme }, true)] : [],
      details: {
        'Benchmark.js': benchmarkJsLine(t.m),
        'mean ms': t.m.mean,
        'p50 ms': t.m.p50,
        'p99 ms': t.m.p99,
      },
      flags,
    }
  })
}

function options(budget: Budget) {
  return { timeMs: budget.stretchTimeMs, minSamples: budget.stretchMinSamples, warmupMs: 0, warmupSamples: 1 }
}

export const stretchSuite: Suite = {
  name: 'stretch',
  description:
    "Mozilla's 2013 onepw key-stretching table on this machine: [1] 20,000 PBKDF2-SHA256 iterations; [3] the whole chain with local native scrypt; [4] the chain with WASM and pure-JS scrypt.",
  async run(candidates, ctx) {
    const pbkdf2 = backends(candidates.hashers, PBKDF2_20K)
    const scrypt = backends(candidates.hashers, ONEPW_SCRYPT)
    const chains = candidates.stretch.flatMap((s) =>
      typeof s.exports.createStretcher === 'function'
        ? [{ pkg: s, create: s.exports.createStretcher as StretcherFactory }]
        : [],
    )
    ctx.progress.plan(pbkdf2.length + chains.length * scrypt.length)
    const timed: Timed[] = []
    const notes: string[] = []
    for (const { candidate, kdf } of pbkdf2) {
      ctx.progress.step(`[1] ${kdf.info.displayName}`)
      const m = await measureAsync(() => kdf.derive(BENCH_PASSWORD, EMAIL, KEY_BYTES), options(ctx.budget))
      const native = candidate.id === NATIVE_HASHERS['pbkdf2-sha256']
      timed.push({
        group: '[1] PBKDF2-SHA256 20,000 iterations',
        id: candidate.id,
        label: kdf.info.displayName,
        native,
        m,
      })
    }
    for (const chain of chains) {
      for (const { candidate, kdf } of scrypt) {
        const native = candidate.id === NATIVE_HASHERS.scrypt
        const tag = native ? '[3]' : '[4]'
        let stretcher: Stretcher
        try {
          stretcher = chain.create({ scrypt: kdf })
        } catch (error) {
          notes.push(`${chain.pkg.id} with ${candidate.id}: ${(error as Error).message}`)
          continue
        }
        ctx.progress.step(`${tag} ${stretcher.info.displayName}`)
        const m = await measureAsync(
          () => stretcher.stretch(EMAIL, BENCH_PASSWORD, MAIN_SALT),
          options(ctx.budget),
        )
        const label = `${tag} scrypt: ${kdf.info.displayName}`
        timed.push({
          group: `${chain.pkg.id} chain (scrypt N=2^16 r=8 p=1)`,
          id: `${chain.pkg.id}+${candidate.id}`,
          label,
          native,
          m,
        })
      }
    }
    if (chains.length === 0) notes.push('No stretch package with a createStretcher export was discovered.')
    notes.push(
      "Rows [1], [3], [4] follow the numbering of Mozilla's 2013 table (row [2], the remote scrypt helper, is not reproduced). Ratios: to the native implementation in the same run.",
    )
    return { rows: rowsOf(timed, ctx.maxRme), notes }
  },
}
