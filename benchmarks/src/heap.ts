import { retainedHeapBytes } from '@authlab/conformance'
import type { IdGenerator } from '@authlab/core'

export interface SurvivorHeap {
  readonly survivors: number
  /** Heap bytes kept alive by the survivors (median of `repeats` measurements). */
  readonly retained: number
  /** Heap bytes of the same number of standalone flat strings of the same length (median of 3, on 100× as many). */
  readonly standalone: number
}

const STANDALONE_SCALE = 100

/**
 * One heap measurement can be off by a few hundred KB when V8 decides to grow or shrink a space in
 * between, so each figure is the median of several.
 */
function medianOf(times: number, measure: () => number): number {
  const values = Array.from({ length: times }, measure).sort((a, b) => a - b)
  return values[Math.floor(times / 2)] ?? Number.NaN
}

/**
 * The conformance suite's memory measurement, as a figure: keep one ID in `keepEvery` (long-lived
 * sessions among short ones) and compare with standalone strings. A pool served as substrings shows
 * up here as many times the standalone cost (V8 sliced strings keep their parent alive), and so do
 * IDs built by concatenation (V8 cons strings keep every piece).
 */
export function sparseSurvivorHeap(
  generate: IdGenerator,
  total: number,
  keepEvery: number,
  repeats = 3,
): SurvivorHeap {
  const survivors = Math.floor(total / keepEvery)
  const retained = medianOf(repeats, () =>
    retainedHeapBytes(() => {
      const kept: string[] = []
      for (let i = 0; i < total; i++) {
        const id = generate()
        if (i % keepEvery === 0) kept.push(id)
      }
      return kept
    }),
  )
  const codes = Array.from(generate(), (c) => c.charCodeAt(0))
  // String.fromCharCode builds a fresh flat (sequential) string, the cheapest a survivor can be,
  // without the Buffer pool slab a Buffer round trip would allocate inside the measurement.
  // Measured on 100× as many strings and scaled down, so a stray heap page (~256 KB) is noise, not signal.
  const standalone =
    medianOf(3, () =>
      retainedHeapBytes(() =>
        Array.from({ length: survivors * STANDALONE_SCALE }, () => String.fromCharCode(...codes)),
      ),
    ) / STANDALONE_SCALE
  return { survivors, retained, standalone }
}
