import type { Figure, Ratio } from '../types.js'

/**
 * A candidate's figure relative to a baseline from the same run, oriented so that > 1 is better.
 * The ratio's relative error combines both inputs' relative errors in quadrature (first-order
 * propagation for a quotient of independent estimates; Taylor, An Introduction to Error Analysis §3.8).
 */
export function ratioTo(baseline: string, candidate: Figure, base: Figure, higherIsBetter: boolean): Ratio {
  const value = higherIsBetter ? candidate.value / base.value : base.value / candidate.value
  return { baseline, value, rme: Math.hypot(candidate.rme ?? 0, base.rme ?? 0) }
}

/** Flags that keep a noisy figure from being read as fact. */
export function noiseFlags(rme: number | undefined, maxRme: number): string[] {
  return rme !== undefined && rme > maxRme ? [`noisy: rme ${rme.toFixed(1)}% > ${maxRme}%`] : []
}
