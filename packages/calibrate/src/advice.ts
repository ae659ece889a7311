import {
  type AttackedSetting,
  type AttackerEstimate,
  attackerEstimate,
  formatGuessRate,
  type GuessRateReference,
} from '@authlab/core'
import type { CalibratedAlgorithm, CalibrationResult } from './index.js'
import type { Measurement } from './measure.js'

type Params = Readonly<Record<string, number>>

/** A calibrated setting in the attacker module's terms (the same parameter names the hashers take). */
export function attackedSetting(algorithm: CalibratedAlgorithm, params: Params): AttackedSetting | undefined {
  const n = (key: string) => params[key] as number
  switch (algorithm) {
    case 'bcrypt':
      return { algorithm, cost: n('cost') }
    case 'pbkdf2-sha256':
      return { algorithm, iterations: n('iterations') }
    case 'scrypt':
      return { algorithm, ln: n('ln'), r: n('r'), p: n('p') }
    case 'argon2id':
      return { algorithm, m: n('m'), t: n('t'), p: n('p') }
  }
  return undefined
}

export function attackerFor(
  result: Pick<CalibrationResult, 'algorithm' | 'params'>,
): AttackerEstimate | undefined {
  const setting = attackedSetting(result.algorithm, result.params)
  return setting ? attackerEstimate(setting) : undefined
}

/**
 * Logins per second per core the measured latency implies: `concurrency` logins in flight, each taking
 * the median, complete concurrency ÷ median per ms, shared by the cores busy with them.
 */
export function loginsPerSecondPerCore(medianMs: number, concurrency: number, cores: number): number {
  return (concurrency * 1000) / medianMs / Math.min(concurrency, cores)
}

export function describeReference(r: GuessRateReference): string {
  return `${r.tool} mode ${r.hashcatMode} on one ${r.card}: ${formatGuessRate(r.guessesPerSecond)} at ${r.settingText}, ${r.source}`
}

/**
 * The algorithm to use among those calibrated: at about the same server time per login (each is tuned to
 * the same target), the one against which an attacker's card makes the fewest guesses per second. A
 * result that missed its target by more than the others is compared by its guesses per ms of its own
 * latency, so a slower setting does not win by being slower.
 */
export function recommend<T extends CalibrationResult>(
  results: readonly T[],
): { best: T; why: string } | undefined {
  const rated = results.flatMap((r) => {
    const a = attackerFor(r)
    return a ? [{ r, a, perLogin: a.guessesPerSecond * (r.medianMs / 1000) }] : []
  })
  if (rated.length === 0) return undefined
  rated.sort((x, y) => x.perLogin - y.perLogin)
  const [first, ...rest] = rated as [(typeof rated)[number], ...typeof rated]
  const others = rest
    .map(
      (o) =>
        `${formatGuessRate(o.a.guessesPerSecond)} against ${o.r.algorithm} (${o.r.medianMs.toFixed(0)} ms)`,
    )
    .join(', ')
  const why =
    `at ${first.r.medianMs.toFixed(0)} ms per login an RTX 4090 makes ${formatGuessRate(first.a.guessesPerSecond)} against it` +
    (others ? `, against ${others}: the fewest guesses per ms the server spends` : '') +
    (first.r.algorithm === 'argon2id' || first.r.algorithm === 'scrypt'
      ? '; memory-hard, so a GPU holds fewer guesses at once as the memory grows'
      : '')
  return { best: first.r, why }
}

export type LoadVerdict = { readonly kind: 'ok' | 'warn' | 'refuse'; readonly message?: string }

/**
 * A busy machine makes every hash look slower, so the search settles on weaker parameters than the
 * deployment can afford: refuse at a 1-minute load average of the core count or more, warn above half.
 */
export function checkLoad(load1: number, cores: number): LoadVerdict {
  const at = `load average ${load1.toFixed(2)} on ${cores} cores`
  if (load1 >= cores)
    return {
      kind: 'refuse',
      message: `too loaded to measure (${at}): other work would make each hash look slower and the parameters too weak; run it on an idle machine, or pass --allow-load to measure anyway`,
    }
  if (load1 > cores / 2)
    return {
      kind: 'warn',
      message: `${at}: other work may inflate the times, so the parameters may be weaker than this machine can afford idle`,
    }
  return { kind: 'ok' }
}

/** Work per hash in the algorithm's own terms, for ordering settings of one algorithm. */
function workOf(algorithm: CalibratedAlgorithm, params: Params): number | undefined {
  const a = attackerFor({ algorithm, params })
  return a ? 1 / a.guessesPerSecond : undefined
}

/**
 * Measurements that contradict each other: a setting with more work that measured more than 10 % faster
 * than one with less (PBKDF2 at 809,000 iterations faster than at 600,000), or a p99 over twice the
 * median. Either means something else ran on the cores while it measured.
 */
export function inconsistencies(algorithm: CalibratedAlgorithm, tried: readonly Measurement[]): string[] {
  const out: string[] = []
  const fmt = (m: Measurement) =>
    `${Object.entries(m.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')} ${m.medianMs.toFixed(0)} ms`
  for (const a of tried)
    for (const b of tried) {
      const [wa, wb] = [workOf(algorithm, a.params), workOf(algorithm, b.params)]
      if (wa === undefined || wb === undefined) continue
      if (wa > wb * 1.05 && a.medianMs < b.medianMs * 0.9)
        out.push(`more work measured faster: ${fmt(a)} against ${fmt(b)}`)
    }
  for (const m of tried)
    if (m.p99Ms > 2 * m.medianMs)
      out.push(`p99 over twice the median: ${fmt(m)}, p99 ${m.p99Ms.toFixed(0)} ms`)
  return out
}
