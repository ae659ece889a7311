import { retainedHeapBytes } from '@authlab/conformance'
import type { IdGenerator } from '@authlab/core'

export interface SurvivorHeap {
  readonly survivors: number
  /** Heap bytes kept alive by the survivors. */
  readonly retained: number
  /** Heap bytes of the same number of standalone flat strings of the same length. */
  readonly standalone: number
}

/**
 * The conformance suite's memory measurement, as a figure: keep one ID in `keepEvery` (long-lived
 * sessions among short ones) and compare with standalone strings. A pool served as substrings shows
 * up here as hundreds of times the standalone cost (V8 sliced strings keep their parent alive).
 */
export function sparseSurvivorHeap(generate: IdGenerator, total: number, keepEvery: number): SurvivorHeap {
  const survivors = Math.floor(total / keepEvery)
  const retained = retainedHeapBytes(() => {
    const kept: string[] = []
    for (let i = 0; i < total; i++) {
      const id = generate()
      if (i % keepEvery === 0) kept.push(id)
    }
    return kept
  })
  const template = generate()
  const standalone = retainedHeapBytes(() =>
    // A latin1 Buffer round trip yields a fresh flat string: the cheapest a survivor can be.
    Array.from({ length: survivors }, () => Buffer.from(template, 'latin1').toString('latin1')),
  )
  return { survivors, retained, standalone }
}
