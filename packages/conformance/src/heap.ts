import { createHmac, randomBytes } from 'node:crypto'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let gcFunction: (() => void) | undefined

/**
 * A full garbage collection without requiring the caller to start Node with --expose-gc: the flag
 * is set at run time and the `gc` global of a fresh context is borrowed (it is per-isolate).
 */
export function collectGarbage(): void {
  if (!gcFunction) {
    setFlagsFromString('--expose-gc')
    gcFunction = runInNewContext('gc') as () => void
  }
  gcFunction()
  gcFunction()
}

/**
 * Heap bytes in use outside the code spaces: machine code that V8's compiler threads install while
 * a measurement runs (late, on a busy machine) is not data the measured objects keep alive.
 */
function dataHeapUsed(): number {
  let used = 0
  for (const space of getHeapSpaceStatistics())
    if (!space.space_name.startsWith('code')) used += space.space_used_size
  return used
}

/**
 * Bytes of heap data kept alive by what `build` returns: the data heap after a full GC with the
 * result held, minus the data heap after a full GC before building it.
 */
export function retainedHeapBytes(build: () => unknown): number {
  collectGarbage()
  const before = dataHeapUsed()
  const kept = [build()]
  collectGarbage()
  const after = dataHeapUsed()
  // Reading `kept` after the measurement keeps it reachable until here.
  if (kept.length !== 1) throw new Error('unreachable')
  return after - before
}

const signingKey = randomBytes(32)

/**
 * Uses an ID the way a server uses a session ID: HMAC-SHA256 over it for the signed cookie
 * (cookie-signature, @fastify/cookie). Handing the string to C++ makes V8 flatten a concatenated
 * (cons) string in place, as happens to every real session ID; a sliced substring stays a slice.
 */
export function signAsSessionCookie(id: string): void {
  createHmac('sha256', signingKey).update(id).digest()
}

export interface SurvivorHeapOptions {
  /** IDs generated, of which every `keepEvery`-th survives (long-lived sessions among short ones). */
  total: number
  keepEvery: number
  /** Applied to every survivor (and every standalone string) before measuring, e.g. signAsSessionCookie. */
  use?: (id: string) => void
  /** Measurements of the survivors; the smallest is reported (default 3). Standalone strings are cheap: always 3. */
  repeats?: number
  /**
   * IDs generated (and used) before measuring, so lazy pools and compiled code are in place first
   * (default: `total`, at most 100,000). A caller whose generator is already warm may ask for fewer.
   */
  warmup?: number
  /**
   * A pass mark for a check: the repeats stop at the first measurement it accepts. The least of the
   * repeats passes exactly when one of them does, so a check needs no more than that one; what is
   * reported is then the least measured so far.
   */
  enough?: (retained: number, standalone: number) => boolean
}

export interface SurvivorHeap {
  readonly survivors: number
  /** Heap bytes kept alive by the survivors (the smallest of `repeats` measurements). */
  readonly retained: number
  /** Heap bytes of as many standalone flat strings of the same length (median of 3, measured at 100× scale). */
  readonly standalone: number
}

const STANDALONE_SCALE = 100

/** A single heap measurement can be off by a few hundred KB, so each figure is a median, after a warm-up. */
function medianOf(times: number, measure: () => number): number {
  const values = Array.from({ length: times }, measure).sort((a, b) => a - b)
  return values[Math.floor(times / 2)] as number
}

/**
 * What survivors retain, measured up to `times` times: the smallest. What else lands on the heap while
 * they are built (a stray heap page, metadata of code the JIT tiers up meanwhile) only ever adds bytes,
 * and on a busy machine did so in two of three runs of a correct generator (90 KB for 200 survivors
 * whose standalone strings need 11 KB); a sliced pool retains many times the standalone cost in every
 * run. Stops early once `enough` accepts the least so far.
 */
function leastOf(times: number, measure: () => number, enough: (least: number) => boolean): number {
  let least = measure()
  for (let i = 1; i < times && !enough(least); i++) least = Math.min(least, measure())
  return least
}

/**
 * What sparse survivors of a generator cost against standalone strings. A pool served as substrings
 * shows up as many times the standalone cost (V8 sliced strings keep their parent pool alive), and so
 * do IDs built by concatenation until something flattens them (V8 cons strings keep every piece).
 */
export function sparseSurvivorHeap(generate: () => string, options: SurvivorHeapOptions): SurvivorHeap {
  const {
    total,
    keepEvery,
    use = () => {},
    repeats = 3,
    warmup = Math.min(total, 100_000),
    enough = () => false,
  } = options
  const survivors = Math.floor(total / keepEvery)
  for (let i = 0; i < warmup; i++) use(generate())
  const codes = Array.from(generate(), (c) => c.charCodeAt(0))
  // String.fromCharCode builds a fresh flat (sequential) string, the cheapest a survivor can be.
  // Measured on 100× as many strings and scaled down, so a stray heap page (~256 KB) is noise, not signal.
  const standalone =
    medianOf(3, () =>
      retainedHeapBytes(() => {
        const strings = Array.from({ length: survivors * STANDALONE_SCALE }, () =>
          String.fromCharCode(...codes),
        )
        strings.forEach(use)
        return strings
      }),
    ) / STANDALONE_SCALE
  const retained = leastOf(
    repeats,
    () =>
      retainedHeapBytes(() => {
        const kept: string[] = []
        for (let i = 0; i < total; i++) {
          const id = generate()
          if (i % keepEvery === 0) kept.push(id)
        }
        kept.forEach(use)
        return kept
      }),
    (least) => enough(least, standalone),
  )
  return { survivors, retained, standalone }
}
