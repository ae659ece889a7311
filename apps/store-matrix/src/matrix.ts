import { randomBytes } from 'node:crypto'
import type { Framework, UserDirectory } from '@authlab/servers'
import { checkCell } from './cell.js'
import type { Outcome } from './check.js'
import { CHART_LENGTHS } from './fixed-length.js'
import { type GeneratorUnderTest, openHarness } from './harness.js'
import { type Latency, measureLatency } from './latency.js'
import { addLengthGenerators, chartLength, checkHostile } from './limits.js'
import { isReachable, unreachableMessage } from './services.js'
import type { StoreBackend } from './stores/backend.js'

export interface MatrixOptions {
  readonly generators: readonly GeneratorUnderTest[]
  readonly users: UserDirectory
  readonly secret: string
  readonly frameworks?: readonly Framework[]
  /** Concurrent sessions per cell under load (default 1,000: enough to fill a small store's pool and index). */
  readonly sessionsUnderLoad?: number
  /** Requests in flight per cell in the load check, and sockets per server. */
  readonly loadConcurrency?: number
  /** Max age of the sessions the rolling and expiry checks watch. */
  readonly expiringMaxAgeMs?: number
  readonly lengths?: readonly number[]
  /** Store-API round trips timed per store; 0 skips the latency probe. */
  readonly latencySamples?: number
}

export interface CellReport {
  readonly generator: string
  readonly framework: Framework
  readonly outcome: Outcome
}

export interface LengthReport {
  readonly length: number
  readonly framework: Framework
  readonly outcome: Outcome
}

export interface StoreReport {
  readonly store: string
  readonly label: string
  readonly maxIdLength?: number
  /** `unreachable`: a server-backed store whose service was down; nothing else was run. */
  readonly status: 'ran' | 'unreachable'
  readonly message?: string
  readonly cells: readonly CellReport[]
  readonly lengths: readonly LengthReport[]
  readonly hostile: readonly { readonly framework: Framework; readonly outcome: Outcome }[]
  readonly latency?: Latency
  /** Server-side errors seen during the run, message → count (express-session's late ones included). */
  readonly serverErrors: Readonly<Record<string, number>>
  readonly date: string
  readonly durationMs: number
}

/** The report of a server-backed store whose service is down: nothing ran, and the message says how to start it. */
export function unreachableReport(backend: StoreBackend): StoreReport {
  return {
    store: backend.name,
    label: backend.label,
    maxIdLength: backend.maxIdLength,
    status: 'unreachable',
    message: backend.service ? unreachableMessage(backend.service) : 'unreachable',
    cells: [],
    lengths: [],
    hostile: [],
    serverErrors: {},
    date: new Date().toISOString(),
    durationMs: 0,
  }
}

const DEFAULT_FRAMEWORKS: readonly Framework[] = ['express', 'fastify']

/**
 * Runs every matrix check against one store: one server per framework and namespace, every
 * generator × framework cell at once (the generator is chosen per request), then the length chart
 * and the hostile cookies. Failures are results, not exceptions: the caller decides what is expected.
 */
export async function runStore(backend: StoreBackend, options: MatrixOptions): Promise<StoreReport> {
  const started = Date.now()
  const date = new Date(started).toISOString()
  const base = {
    store: backend.name,
    label: backend.label,
    maxIdLength: backend.maxIdLength,
    date,
    serverErrors: {},
  }
  if (backend.service && !(await isReachable(backend.service))) return unreachableReport(backend)
  const frameworks = options.frameworks ?? DEFAULT_FRAMEWORKS
  const loadConcurrency = options.loadConcurrency ?? 16
  const harness = await openHarness(backend, {
    scope: `${backend.name}_${randomBytes(4).toString('hex')}`,
    generators: options.generators,
    frameworks,
    users: options.users,
    secret: options.secret,
    expiringMaxAgeMs: options.expiringMaxAgeMs ?? 2400,
    maxSockets: loadConcurrency * 4,
  })
  try {
    const samples = options.latencySamples ?? 200
    // Timed first and alone, before the servers carry any traffic.
    const latency = samples > 0 ? await measureLatency(harness.main, samples) : undefined
    const lengthKeys = addLengthGenerators(harness, options.lengths ?? CHART_LENGTHS)
    const cellOptions = { sessionsUnderLoad: options.sessionsUnderLoad ?? 1000, loadConcurrency }
    const fallback = options.generators[0]?.key ?? ''
    const [cells, lengths, hostile] = await Promise.all([
      Promise.all(
        options.generators.flatMap((generator) =>
          frameworks.map(async (framework) => ({
            generator: generator.key,
            framework,
            outcome: await checkCell(harness, generator, framework, cellOptions),
          })),
        ),
      ),
      Promise.all(
        [...lengthKeys].flatMap(([length, key]) =>
          frameworks.map(async (framework) => ({
            length,
            framework,
            outcome: await chartLength(harness, framework, key),
          })),
        ),
      ),
      Promise.all(
        frameworks.map(async (framework) => ({
          framework,
          outcome: await checkHostile(harness, framework, fallback),
        })),
      ),
    ])
    const serverErrors = Object.fromEntries(harness.serverErrors)
    return {
      ...base,
      status: 'ran',
      cells,
      lengths,
      hostile,
      latency,
      serverErrors,
      durationMs: Date.now() - started,
    }
  } finally {
    await harness.close()
  }
}
