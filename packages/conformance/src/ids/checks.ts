import assert from 'node:assert/strict'
import type { IdGenerator } from '@authlab/core'
import { signAsSessionCookie, sparseSurvivorHeap } from '../heap.js'
import type { Check } from '../register.js'
import { chiSquareSurvival, chiSquareUniform } from '../stats.js'
import { type ResolvedIdCheckOptions, SAFE_ID_CHARACTERS, SIGNIFICANCE, uniqueSize } from './options.js'
import { idsFromWorker } from './worker.js'

/**
 * Each check builds its own generator, draws its own IDs and throws an AssertionError naming what
 * broke. They are exported so a self-test can prove each one fails on a deliberately broken generator.
 */
export type IdCheck = Check<ResolvedIdCheckOptions>['run']

function draw(generate: IdGenerator, count: number): string[] {
  const ids = new Array<string>(count)
  for (let i = 0; i < count; i++) ids[i] = generate()
  return ids
}

function assertWellFormed(generate: IdGenerator, ids: readonly string[]): void {
  const { length, alphabet } = generate.info
  const allowed = new Uint8Array(128)
  for (const c of alphabet)
    if (c.charCodeAt(0) < 128 && SAFE_ID_CHARACTERS.test(c)) allowed[c.charCodeAt(0)] = 1
  for (const id of ids) {
    // The messages are built only for an ID that fails: building them for each of 100,000 good IDs
    // cost more than the checks.
    if (typeof id === 'string' && id.length === length && everyCharIn(id, allowed)) continue
    assert.equal(typeof id, 'string', `${generate.info.name} returned ${typeof id}, not a string`)
    assert.equal(id.length, length, `ID ${JSON.stringify(id)} has length ${id.length}, declared ${length}`)
    assert.ok(SAFE_ID_CHARACTERS.test(id), `ID ${JSON.stringify(id)} has characters outside [A-Za-z0-9_-]`)
    const c = [...id].find((ch) => !alphabet.includes(ch))
    assert.fail(`ID ${JSON.stringify(id)} has ${JSON.stringify(c)}, not in its alphabet`)
  }
}

/** Whether every character of `id` is marked in `allowed` (ASCII only: the safe set is ASCII). */
function everyCharIn(id: string, allowed: Uint8Array): boolean {
  for (let i = 0; i < id.length; i++) if (allowed[id.charCodeAt(i)] !== 1) return false
  return true
}

/** Declared metadata is honest and every ID has the declared length and alphabet. */
export const format: IdCheck = ({ factory, minEntropyBits, sizes }) => {
  const generate = factory()
  const { info } = generate
  assert.ok(
    info.name.length > 0 && info.displayName.length > 0,
    'info.name and info.displayName are required',
  )
  assert.equal(info.runsOn, 'main-thread')
  assert.ok(
    info.entropyBits >= minEntropyBits,
    `declares ${info.entropyBits} bits, minimum is ${minEntropyBits}`,
  )
  const capacity = info.length * Math.log2(new Set(info.alphabet).size)
  assert.ok(
    info.entropyBits <= capacity + 1e-9,
    `declares ${info.entropyBits} bits; ${info.length} characters hold ${capacity}`,
  )
  // express-session calls genid(req) and @fastify/session idGenerator(request): the argument must not matter.
  const request = { headers: { cookie: 'x' }, url: '/', method: 'GET' }
  const ids = [generate(request), generate(undefined), ...draw(generate, sizes.sample)]
  assertWellFormed(generate, ids)
}

/**
 * No duplicates among `uniqueSize` IDs (344,492 by default: enough to catch a generator with only
 * 2^32 possible IDs, see DEFAULT_UNIQUE), spanning at least ten refills of any declared pool.
 */
export const uniqueness: IdCheck = ({ factory, sizes }) => {
  const generate = factory()
  const count = uniqueSize(generate.info, sizes.unique)
  const seen = new Set<string>()
  for (let i = 0; i < count; i++) {
    const id = generate()
    assert.ok(!seen.has(id), `duplicate ID ${JSON.stringify(id)} after ${i} IDs`)
    seen.add(id)
  }
}

/**
 * No 64-bit run of random data appears twice among the sample, at any byte offset of the decoded IDs
 * or any symbol offset of their characters. This catches pools that hand out overlapping bytes (an
 * off-by-N offset, a refill that keeps a tail) which the duplicate check misses because the IDs still
 * differ. For a correct generator a false alarm needs a 64-bit collision: p ≈ 1e-7.
 */
export const noByteReuse: IdCheck = ({ factory, decode, symbolsAt, sizes }) => {
  const generate = factory()
  const ids = draw(generate, sizes.sample)
  const byteCount = decode(ids[0] as string).length
  const byteRuns = Array.from({ length: byteCount }, (_, s) => (s + 8 <= byteCount ? 8 : 0))
  assertNoRepeatedRun(ids, decode, byteRuns, 'an 8-byte sequence of decoded random bytes')
  const { valuesOf, runs } = symbolRuns(generate.info.length, symbolsAt)
  assertNoRepeatedRun(ids, valuesOf, runs, 'a 64-bit run of characters')
}

/**
 * Fails if two runs of values are equal: the run of `runs[s]` values starting at `s` (0 = no run
 * there) of each ID's `valuesOf`. Runs are compared by a 53-bit fingerprint in one sorted
 * Float64Array, and only equal fingerprints are compared value by value, so a fingerprint collision
 * never fails a correct generator and a million runs cost one native sort.
 */
function assertNoRepeatedRun(
  ids: readonly string[],
  valuesOf: (id: string) => ArrayLike<number>,
  runs: readonly number[],
  what: string,
): void {
  const starts = runs.flatMap((length, s) => (length > 0 ? [s] : []))
  assert.ok(starts.length > 0, 'no windows to compare: IDs are shorter than 64 bits of random data')
  const prints = new Float64Array(ids.length * starts.length)
  ids.forEach((id, owner) => {
    const values = valuesOf(id)
    starts.forEach((s, j) => {
      prints[owner * starts.length + j] = fingerprint(values, s, s + (runs[s] as number))
    })
  })
  const sorted = prints.slice().sort()
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] !== sorted[i - 1]) continue
    const holders: { id: string; values: number[] }[] = []
    prints.forEach((print, k) => {
      if (print !== sorted[i]) return
      const id = ids[Math.floor(k / starts.length)] as string
      const s = starts[k % starts.length] as number
      holders.push({ id, values: Array.from(valuesOf(id)).slice(s, s + (runs[s] as number)) })
    })
    for (const [a, b] of holders.flatMap((x, n) => holders.slice(n + 1).map((y) => [x, y] as const)))
      if (a.values.join() === b.values.join())
        assert.fail(`${what} appears more than once: in ${JSON.stringify(a.id)} and ${JSON.stringify(b.id)}`)
  }
}

/** Two 32-bit multiplicative hashes (FNV-1a and a MurmurHash2 step) of values[start..end), joined to 53 bits. */
function fingerprint(values: ArrayLike<number>, start: number, end: number): number {
  let a = 0x811c9dc5
  let b = 0x9747b28c
  for (let k = start; k < end; k++) {
    const v = values[k] as number
    a = Math.imul(a ^ v, 0x01000193)
    b = Math.imul(b ^ v, 0x5bd1e995)
    b ^= b >>> 15
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11)
}

/**
 * Each ID's symbol indices at its random positions (a position with a single allowed symbol, a fixed
 * character, carries no randomness and is skipped), and from each position the number of positions
 * that together hold ≥ 64 bits (0 where too few remain).
 */
function symbolRuns(
  length: number,
  symbolsAt: (position: number) => string,
): { valuesOf: (id: string) => number[]; runs: number[] } {
  const positions: { position: number; index: Map<string, number>; bits: number }[] = []
  for (let p = 0; p < length; p++) {
    const symbols = symbolsAt(p)
    if (symbols.length > 1)
      positions.push({
        position: p,
        index: new Map([...symbols].map((c, i) => [c, i])),
        bits: Math.log2(symbols.length),
      })
  }
  const runs = positions.map((_, start) => {
    let bits = 0
    for (let k = start; k < positions.length; k++) {
      bits += (positions[k] as (typeof positions)[number]).bits
      if (bits >= 64) return k - start + 1
    }
    return 0
  })
  const valuesOf = (id: string) =>
    positions.map(({ position, index }) => index.get(id[position] as string) ?? 0)
  return { valuesOf, runs }
}

/** Each character position is uniform over its symbols (χ², Bonferroni over positions, p < 1e-6). */
export const uniformity: IdCheck = ({ factory, symbolsAt, sizes }) => {
  const generate = factory()
  const ids = draw(generate, sizes.sample)
  const { length } = generate.info
  for (let p = 0; p < length; p++) {
    const symbols = symbolsAt(p)
    const index = new Map([...symbols].map((c, i) => [c, i]))
    const counts = new Float64Array(symbols.length)
    for (const id of ids) {
      const i = index.get(id[p] as string)
      if (i === undefined)
        assert.fail(`position ${p} of ${JSON.stringify(id)} is not one of ${JSON.stringify(symbols)}`)
      counts[i] = (counts[i] as number) + 1
    }
    if (symbols.length === 1) continue
    const pValue = chiSquareSurvival(chiSquareUniform(counts), symbols.length - 1)
    assert.ok(
      pValue >= SIGNIFICANCE / length,
      `position ${p} is not uniform over ${symbols.length} symbols (χ² p = ${pValue.toExponential(2)})`,
    )
  }
}

/**
 * Consecutive IDs are independent: at every random position, the difference (mod alphabet size)
 * between a character and the same position of the next ID is uniform. A counter, a rotating pool or
 * a weak PRNG stepping each character passes the per-position test but fails this one.
 */
export const independence: IdCheck = ({ factory, symbolsAt, sizes }) => {
  const generate = factory()
  const ids = draw(generate, sizes.sample)
  const bySize = new Map<number, Float64Array>()
  for (let p = 0; p < generate.info.length; p++) {
    const symbols = symbolsAt(p)
    if (symbols.length === 1) continue
    const index = new Map([...symbols].map((c, i) => [c, i]))
    const counts = bySize.get(symbols.length) ?? new Float64Array(symbols.length)
    bySize.set(symbols.length, counts)
    for (let n = 1; n < ids.length; n++) {
      const a = index.get((ids[n - 1] as string)[p] as string) ?? 0
      const b = index.get((ids[n] as string)[p] as string) ?? 0
      const d = (b - a + symbols.length) % symbols.length
      counts[d] = (counts[d] as number) + 1
    }
  }
  for (const [size, counts] of bySize) {
    const pValue = chiSquareSurvival(chiSquareUniform(counts), size - 1)
    assert.ok(
      pValue >= SIGNIFICANCE / bySize.size,
      `consecutive IDs are correlated: character differences are not uniform (χ² p = ${pValue.toExponential(2)})`,
    )
  }
}

/** The allowance retainedMemory states below. */
const limitFor = (standalone: number) => 2 * standalone + 16 * 1024

/**
 * When one ID in a thousand survives (long-lived sessions among short ones), the survivors must cost
 * about what the same number of standalone strings costs. A pool served as substrings fails: each V8
 * sliced string keeps its whole parent pool alive. Survivors are first used the way a session ID is
 * used — signed into a cookie — because that makes V8 flatten an ID built by concatenation (a rope)
 * in place, as it would in a real server; a slice stays a slice. Allowed: 2× plus 16 KiB of slack.
 */
export const retainedMemory: IdCheck = ({ factory, sizes }) => {
  const { survivors, retained, standalone } = sparseSurvivorHeap(factory(), {
    total: sizes.memory,
    keepEvery: sizes.keepEvery,
    use: signAsSessionCookie,
    // The least of up to three runs: a run occasionally reads stray heap bytes as retained (seen in CI
    // on a correct generator); a sliced pool retains far more in every run.
    repeats: 3,
    enough: (retained, standalone) => retained <= limitFor(standalone),
  })
  const limit = limitFor(standalone)
  assert.ok(
    retained <= limit,
    `${survivors} surviving IDs retain ${retained} bytes; as standalone strings they need ${Math.round(standalone)} (limit ${Math.round(limit)})`,
  )
}

/** The generator loads and works in a worker thread, and the worker's IDs never collide with ours. */
export const worksInWorker: IdCheck = async ({ factory, workerModule, workerExport, sizes }) => {
  assert.ok(workerModule, 'declare workerModule (the built module a worker can import) to run this check')
  const generate = factory()
  const [fromWorker, local] = [
    await idsFromWorker(workerModule, workerExport, sizes.worker),
    draw(generate, sizes.sample),
  ]
  assertWellFormed(generate, fromWorker)
  const all = new Set([...local, ...fromWorker])
  assert.equal(
    all.size,
    local.length + fromWorker.length,
    'the worker produced IDs that collide with the main thread or each other',
  )
}

/** Many async tasks interleaving calls across awaits, microtasks and timers get unique, well-formed IDs. */
export const asyncInterleaving: IdCheck = async ({ factory, sizes }) => {
  const generate = factory()
  const yields = [
    () => Promise.resolve(),
    () => new Promise<void>((r) => setImmediate(r)),
    () => new Promise<void>((r) => setTimeout(r, 0)),
  ]
  const task = async (t: number): Promise<string[]> => {
    const ids: string[] = []
    for (let i = 0; i < sizes.idsPerTask; i++) {
      ids.push(generate())
      if ((i + t) % 7 === 0) await (yields[(i + t) % yields.length] as () => Promise<void>)()
    }
    return ids
  }
  const ids = (await Promise.all(Array.from({ length: sizes.asyncTasks }, (_, t) => task(t)))).flat()
  assertWellFormed(generate, ids)
  assert.equal(new Set(ids).size, ids.length, 'interleaved async callers received duplicate IDs')
}

/** The checks `idGeneratorSuite` registers, each with its test title. */
export const idChecks = {
  format: {
    title: 'declares honest metadata; every ID has its length and [A-Za-z0-9_-] alphabet',
    run: format,
  },
  uniqueness: {
    title: 'no duplicates among enough IDs to catch a 2^32-valued generator, across ≥ 10 pool refills',
    run: uniqueness,
  },
  noByteReuse: { title: 'no 64-bit run of random data is reused between IDs', run: noByteReuse },
  uniformity: { title: 'every character position is uniform (χ², p < 1e-6)', run: uniformity },
  independence: { title: 'consecutive IDs are uncorrelated (χ², p < 1e-6)', run: independence },
  retainedMemory: {
    title: 'sparse survivors retain ≤ 2× the heap of standalone strings',
    run: retainedMemory,
  },
  worksInWorker: {
    title: 'works inside worker_threads without colliding with the main thread',
    run: worksInWorker,
  },
  asyncInterleaving: { title: 'interleaved async callers get unique IDs', run: asyncInterleaving },
} as const satisfies Record<string, Check<ResolvedIdCheckOptions>>
