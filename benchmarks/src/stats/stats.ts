/**
 * The statistics of rounds: a figure is repeated over independent rounds, and every interval or test
 * here is taken across rounds (run-to-run variation), never across the samples of one round.
 */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

/** The nearest-rank q-quantile (0 < q ≤ 1): the smallest value with at least q of them at or below it. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] as number
}

/** A small seeded PRNG (mulberry32): round orders and bootstrap resamples are reproducible from a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Fisher–Yates shuffle with the given random source (Knuth, TAOCP vol. 2, §3.4.2, algorithm P). */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

/**
 * The k-th smallest (from 0) of `values`, reordered around it (Hoare, "Algorithm 65: FIND", CACM 1961):
 * linear on average, so a bootstrap costs its resamples, not sorts.
 */
export function selectInPlace(values: Float64Array, k: number): number {
  let [left, right] = [0, values.length - 1]
  while (left < right) {
    const pivot = values[(left + right) >> 1] as number
    let [i, j] = [left, right]
    while (i <= j) {
      while ((values[i] as number) < pivot) i++
      while ((values[j] as number) > pivot) j--
      if (i <= j) {
        const swap = values[i] as number
        values[i++] = values[j] as number
        values[j--] = swap
      }
    }
    if (k <= j) right = j
    else if (k >= i) left = i
    else break
  }
  return values[k] as number
}

/** The median of `values`, which it reorders (see selectInPlace). */
export function medianInPlace(values: Float64Array): number {
  const n = values.length
  const upper = selectInPlace(values, n >> 1)
  if (n % 2 === 1) return upper
  let lower = Number.NEGATIVE_INFINITY
  for (let i = 0; i < n >> 1; i++) lower = Math.max(lower, values[i] as number)
  return (lower + upper) / 2
}

export interface Interval {
  readonly low: number
  readonly high: number
}

/**
 * 95 % percentile-bootstrap interval of the median (Efron & Tibshirani, An Introduction to the Bootstrap,
 * ch. 13), seeded. With 5 rounds it is their range: the honest answer for so few.
 */
export function medianInterval(values: readonly number[], seed = 1): Interval {
  if (values.length <= 1) return { low: values[0] ?? Number.NaN, high: values[0] ?? Number.NaN }
  const random = seededRandom(seed)
  const medians = Array.from({ length: 2000 }, () =>
    median(Array.from(values, () => values[Math.floor(random() * values.length)] as number)),
  ).sort((a, b) => a - b)
  return { low: medians[50] as number, high: medians[1949] as number }
}

/** Above this many orderings the normal approximation replaces the exact null distribution. */
const EXACT_LIMIT = 2500

/** Standard normal upper tail, Abramowitz & Stegun 26.2.17 (absolute error < 7.5e-8). */
function normalUpperTail(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z))
  const poly =
    t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))))
  const upper = (Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI)) * poly
  return z >= 0 ? upper : 1 - upper
}

/** z with normalUpperTail(z) = tail, by bisection (the tail falls monotonically). */
function normalQuantileUpper(tail: number): number {
  let [low, high] = [0, 10]
  for (let i = 0; i < 60; i++)
    [low, high] =
      normalUpperTail((low + high) / 2) > tail ? [(low + high) / 2, high] : [low, (low + high) / 2]
  return (low + high) / 2
}

/**
 * The confidence interval of the shift from a to b that inverts the Mann–Whitney test at level alpha
 * (Hodges & Lehmann 1963; Bauer 1972): the k-th smallest and k-th largest of the m·n differences b − a,
 * k the largest count with P(U < k) ≤ alpha ÷ 2; exact for small samples, normal otherwise. Infinite
 * when the samples are too small for the level.
 */
export function shiftInterval(a: readonly number[], b: readonly number[], alpha: number): Interval {
  const [m, n] = [a.length, b.length]
  let k: number
  if (m * n <= EXACT_LIMIT) {
    const counts = exactCounts(m, n)
    const total = counts.reduce((s, c) => s + c, 0)
    let [tail, u] = [0, 0]
    while (u < counts.length && tail + (counts[u] ?? 0) <= (alpha / 2) * total) tail += counts[u++] ?? 0
    k = u
  } else {
    const sigma = Math.sqrt((m * n * (m + n + 1)) / 12)
    k = Math.max(0, Math.floor((m * n) / 2 - normalQuantileUpper(alpha / 2) * sigma))
  }
  if (k < 1) return { low: Number.NEGATIVE_INFINITY, high: Number.POSITIVE_INFINITY }
  const differences = pairwiseDifferences(a, b)
  return { low: differences.kth(k), high: differences.kth(m * n - k + 1) }
}

/**
 * The m·n differences y − x without listing them: the k-th smallest by bisection over values, counting
 * those at or below a value in O(m + n) on the sorted samples (the sorted matrix X + Y of Frederickson &
 * Johnson 1982, searched by value).
 */
function pairwiseDifferences(a: readonly number[], b: readonly number[]) {
  const xs = [...a].sort((x, y) => x - y)
  const ys = [...b].sort((x, y) => x - y)
  const m = xs.length
  // For each y, y − x falls as x rises, and the first x with y − x ≤ v moves right as y rises: one pass.
  const atOrBelow = (v: number): number => {
    let [count, i] = [0, 0]
    for (const y of ys) {
      while (i < m && y - (xs[i] as number) > v) i++
      count += m - i
    }
    return count
  }
  // The smallest difference above v: for each y, the one with the largest x still above v.
  const nextAbove = (v: number): number => {
    let [next, i] = [Number.POSITIVE_INFINITY, 0]
    for (const y of ys) {
      while (i < m && y - (xs[i] as number) > v) i++
      if (i > 0) next = Math.min(next, y - (xs[i - 1] as number))
    }
    return next
  }
  return {
    /** The k-th smallest difference, 1 ≤ k ≤ m·n. */
    kth(k: number): number {
      let low = (ys[0] as number) - (xs[m - 1] as number)
      if (atOrBelow(low) >= k) return low
      let high = (ys.at(-1) as number) - (xs[0] as number)
      // Halve until no double lies between (about 2,100 steps for the widest finite interval).
      for (let step = 0; step < 2200; step++) {
        const mid = low + (high - low) / 2
        if (mid <= low || mid >= high) break
        if (atOrBelow(mid) >= k) high = mid
        else low = mid
      }
      // The answer is a difference in (low, high]: step through the differences there in order.
      for (;;) {
        const next = nextAbove(low)
        if (atOrBelow(next) >= k) return next
        low = next
      }
    },
  }
}

/** exactCounts by size: the rank test and its shift interval ask for the same sizes row after row. */
const exactTables = new Map<string, number[]>()

/** Orderings of m a's and n b's with each U = 0…mn (the Mann–Whitney null distribution). */
function exactCounts(m: number, n: number): number[] {
  const key = `${m},${n}`
  const known = exactTables.get(key)
  if (known) return known
  // counts[i][j][u] row by row: f(i, j, u) = f(i − 1, j, u − j) + f(i, j − 1, u).
  let previous: number[][] = Array.from({ length: n + 1 }, () => [1])
  for (let i = 1; i <= m; i++) {
    const current: number[][] = [[1]]
    for (let j = 1; j <= n; j++) {
      const [left, up] = [current[j - 1] as number[], previous[j] as number[]]
      current.push(
        Array.from({ length: i * j + 1 }, (_, u) => (left[u] ?? 0) + (u >= j ? (up[u - j] ?? 0) : 0)),
      )
    }
    previous = current
  }
  const counts = previous[n] as number[]
  exactTables.set(key, counts)
  return counts
}

export interface RankTest {
  /** Mann–Whitney U of the first sample: pairs (a, b) with a > b, ties counting ½. */
  readonly u: number
  /** Two-sided p-value: exact for small tie-free samples, normal with tie correction otherwise. */
  readonly p: number
}

/**
 * Mann–Whitney U test (Mann & Whitney 1947), the rank test benchstat applies to per-run figures: it
 * assumes no distribution, so a single wild round cannot make a difference "significant".
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): RankTest {
  const [m, n] = [a.length, b.length]
  if (m === 0 || n === 0) return { u: Number.NaN, p: 1 }
  // U from the rank sum of a (mid-ranks for ties), in O(N log N).
  const all = [...a.map((value) => ({ value, first: true })), ...b.map((value) => ({ value, first: false }))]
  all.sort((x, y) => x.value - y.value)
  const tieGroups: number[] = []
  let rankSum = 0
  for (let i = 0; i < all.length; ) {
    let j = i
    while (j < all.length && all[j]?.value === all[i]?.value) j++
    if (j - i > 1) tieGroups.push(j - i)
    for (let t = i; t < j; t++) if (all[t]?.first) rankSum += (i + 1 + j) / 2
    i = j
  }
  const u = rankSum - (m * (m + 1)) / 2
  if (tieGroups.length === 0 && m * n <= EXACT_LIMIT) {
    const counts = exactCounts(m, n)
    const total = counts.reduce((s, c) => s + c, 0)
    let tail = 0
    for (let k = 0; k <= Math.floor(Math.min(u, m * n - u)); k++) tail += counts[k] ?? 0
    return { u, p: Math.min(1, (2 * tail) / total) }
  }
  const N = m + n
  const tieTerm = tieGroups.reduce((s, t) => s + (t ** 3 - t), 0) / (N * (N - 1))
  const sigma = Math.sqrt(((m * n) / 12) * (N + 1 - tieTerm))
  if (sigma === 0) return { u, p: 1 }
  // Continuity correction of ½ toward the mean.
  const z = (Math.abs(u - (m * n) / 2) - 0.5) / sigma
  return { u, p: Math.min(1, 2 * normalUpperTail(Math.max(0, z))) }
}
