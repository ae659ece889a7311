import { OverloadError } from './errors.js'
import type { RawKdf } from './kdf-hasher.js'

/** Resolves after a full garbage collection that started when it was called. */
export type CollectGarbage = () => Promise<void>

interface HostGlobals {
  readonly gc?: () => void
  readonly Bun?: { gc?: (force: boolean) => void }
  readonly process?: { getBuiltinModule?: (id: string) => unknown }
}

/**
 * The runtime's way to run a full collection, or undefined where it has none. `gc()` where a flag
 * exposed it (`node --expose-gc`, `deno run --v8-flags=--expose-gc`). Bun: `Bun.gc(true)`, synchronous.
 * Node: `vm.measureMemory({ execution: 'eager' })` starts a full collection at once and resolves after
 * it (Node's vm docs; V8 `MemoryMeasurement`) with no flag; Node marks it experimental and prints one
 * ExperimentalWarning on first use. `process.getBuiltinModule` (Node ≥ 20.16) reaches node:vm without
 * an import a browser bundle would choke on. Deno's node:vm throws "Not implemented": the bound then
 * falls back to counting derivations in flight.
 */
export function hostCollectGarbage(
  host: HostGlobals = globalThis as HostGlobals,
): CollectGarbage | undefined {
  const exposedGc = host.gc
  if (typeof exposedGc === 'function') return async () => exposedGc()
  const bunGc = host.Bun?.gc
  if (typeof bunGc === 'function') return async () => bunGc(true)
  const vm = host.process?.getBuiltinModule?.('node:vm') as
    | { measureMemory?: (options: { execution: 'eager' }) => Promise<unknown> }
    | undefined
  const measureMemory = vm?.measureMemory
  if (typeof measureMemory !== 'function') return undefined
  return async () => {
    await measureMemory({ execution: 'eager' })
  }
}

/**
 * `kdf` with at most `max` derivations' memory at once, refusing one more with an OverloadError (no
 * queue: shed load). A pure-JS scrypt allocates V (128·N·r bytes, RFC 7914 §5) per call and drops it at
 * the end, where it stays as garbage until the engine's next full collection: freeing the slot when the
 * derivation returns let callers that kept retrying hold several times the bound. So a slot frees only
 * once a full collection has run since its derivation ended. A caller that finds every slot running is
 * refused at once; one that finds a slot waiting for collection starts one (shared by every such
 * caller) and takes the slot after it.
 */
export function boundKdf(
  kdf: RawKdf,
  max: number,
  owner: string,
  collectGarbage: CollectGarbage | undefined = hostCollectGarbage(),
): RawKdf {
  let collect = collectGarbage
  let running = 0
  // For each derivation that ended and whose memory may not be collected yet: how many collections
  // had started when it ended. A collection frees the ones that ended before it started.
  let uncollected: number[] = []
  let started = 0
  let collecting: Promise<void> | undefined

  const runCollection = async (run: CollectGarbage): Promise<void> => {
    const generation = ++started
    try {
      await run()
      uncollected = uncollected.filter((endedAt) => endedAt >= generation)
    } catch {
      // The runtime refused (Deno's node:vm): count derivations in flight only, as where there is none.
      collect = undefined
      uncollected = []
    } finally {
      collecting = undefined
    }
  }
  const leave = () => {
    running--
    if (collect) uncollected.push(started)
  }
  const enter = async (): Promise<void> => {
    // Two collections at most: the one in progress may have started before the slot's derivation ended.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (running + uncollected.length < max) {
        running++
        return
      }
      if (uncollected.length === 0 || !collect || attempt === 2) break
      collecting ??= runCollection(collect)
      await collecting
    }
    throw new OverloadError(`${owner}: ${max} derivations are in flight (maxConcurrent), refused another`)
  }

  return async (password, salt, params, length) => {
    await enter()
    try {
      return await kdf(password, salt, params, length)
    } finally {
      leave()
    }
  }
}
