import { setFlagsFromString } from 'node:v8'
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
 * Bytes of heap kept alive by what `build` returns: the heap after a full GC with the result held,
 * minus the heap after a full GC before building it.
 */
export function retainedHeapBytes(build: () => unknown): number {
  collectGarbage()
  const before = process.memoryUsage().heapUsed
  const kept = [build()]
  collectGarbage()
  const after = process.memoryUsage().heapUsed
  // Reading `kept` after the measurement keeps it reachable until here.
  if (kept.length !== 1) throw new Error('unreachable')
  return after - before
}
