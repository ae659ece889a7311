/**
 * χ² survival function P(X ≥ statistic) for `degreesOfFreedom`, i.e. the regularized upper incomplete
 * gamma function Q(k/2, x/2). Series for x < a + 1, Lentz's continued fraction otherwise
 * (Numerical Recipes, 3rd ed., §6.2), accurate to ~1e-14 relative — far below the 1e-6 rejection level.
 */
export function chiSquareSurvival(statistic: number, degreesOfFreedom: number): number {
  if (statistic <= 0) return 1
  return upperRegularizedGamma(degreesOfFreedom / 2, statistic / 2)
}

/** Pearson's χ² statistic of observed counts against a uniform expectation over the bins. */
export function chiSquareUniform(counts: ArrayLike<number>): number {
  let total = 0
  for (let i = 0; i < counts.length; i++) total += counts[i] ?? 0
  const expected = total / counts.length
  let statistic = 0
  for (let i = 0; i < counts.length; i++) {
    const d = (counts[i] ?? 0) - expected
    statistic += (d * d) / expected
  }
  return statistic
}

const EPSILON = 1e-15
const TINY = 1e-300

function upperRegularizedGamma(a: number, x: number): number {
  if (x < a + 1) return 1 - lowerSeries(a, x)
  return upperContinuedFraction(a, x)
}

function lowerSeries(a: number, x: number): number {
  let term = 1 / a
  let sum = term
  for (let n = 1; n < 10_000; n++) {
    term *= x / (a + n)
    sum += term
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a))
}

function upperContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a
  let c = 1 / TINY
  let d = 1 / b
  let h = d
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < TINY) d = TINY
    c = b + an / c
    if (Math.abs(c) < TINY) c = TINY
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < EPSILON) break
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h
}

// Lanczos approximation (g = 7, n = 9), good to ~15 significant digits for a > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
]

function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - logGamma(1 - z)
  const x = z - 1
  let sum = LANCZOS[0] as number
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (x + i)
  const t = x + 7.5
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum)
}
