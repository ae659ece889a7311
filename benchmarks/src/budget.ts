import type { Budget } from './types.js'

/**
 * Quick: every suite in about 3 minutes on a 2-core box, enough to see who wins and by how much,
 * with wide error bars flagged. Full: publication runs, several times longer per figure.
 */
export const QUICK: Budget = {
  idTimeMs: 400,
  idWarmupMs: 100,
  heapIds: 500_000,
  hashTimeMs: 250,
  hashMinSamples: 3,
  allSettings: false,
  lagTimeMs: 600,
  lagMinHashes: 2,
  concurrencyTimeMs: 300,
  concurrencyCapMs: 3_000,
  stretchTimeMs: 500,
  stretchMinSamples: 3,
}

export const FULL: Budget = {
  idTimeMs: 3_000,
  idWarmupMs: 1_000,
  heapIds: 1_000_000,
  hashTimeMs: 3_000,
  hashMinSamples: 10,
  allSettings: true,
  lagTimeMs: 5_000,
  lagMinHashes: 5,
  concurrencyTimeMs: 3_000,
  concurrencyCapMs: Number.POSITIVE_INFINITY,
  stretchTimeMs: 5_000,
  stretchMinSamples: 10,
}
