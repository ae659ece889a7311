import { Bench } from 'tinybench'

/** Per-operation statistics of one sampling run, in milliseconds, as tinybench computes them. */
export interface Measurement {
  readonly mean: number
  readonly p50: number
  readonly p99: number
  readonly min: number
  readonly max: number
  /** Relative margin of error of the mean in percent (95 % CI half-width, Student's t). */
  readonly rme: number
  readonly samples: number
}

export interface MeasureOptions {
  /** Time budget in ms; sampling continues until both it and `minSamples` are met. */
  readonly timeMs: number
  readonly minSamples: number
  readonly warmupMs: number
  readonly warmupSamples: number
  /** Operations each call of `fn` performs: statistics are divided by it (per-ID figures from batches). */
  readonly batch?: number
  /** Clock override for tests (synthetic workloads with a known cost). */
  readonly now?: () => number
}

let sink: unknown

/**
 * Stores a result where the JIT cannot prove it unused, so the work that produced it is not dropped
 * (the idea of mitata's `do_not_optimize`).
 */
export function consume(value: unknown): void {
  sink = value
}

/** The last consumed value; tests read it to check the work really reached the sink. */
export function lastConsumed(): unknown {
  return sink
}

/** Measures synchronous work (no await per sample, which would add a microtask turn to each). */
export function measureSync(fn: () => unknown, options: MeasureOptions): Promise<Measurement> {
  return run(options, (bench) => bench.add('task', () => consume(fn()), { async: false }))
}

/** Measures asynchronous work: each sample awaits one call. */
export function measureAsync(fn: () => Promise<unknown>, options: MeasureOptions): Promise<Measurement> {
  return run(options, (bench) => bench.add('task', async () => consume(await fn()), { async: true }))
}

async function run(options: MeasureOptions, addTask: (bench: Bench) => void): Promise<Measurement> {
  const bench = new Bench({
    time: options.timeMs,
    iterations: options.minSamples,
    warmup: options.warmupMs > 0 || options.warmupSamples > 0,
    warmupTime: options.warmupMs,
    warmupIterations: options.warmupSamples,
    throws: true,
    ...(options.now ? { now: options.now } : {}),
  })
  addTask(bench)
  const [task] = await bench.run()
  const result = task?.result
  if (!result || (result.state !== 'completed' && result.state !== 'aborted-with-statistics')) {
    const cause = result?.state === 'errored' ? result.error : undefined
    throw new Error(`benchmark task did not complete (${result?.state ?? 'no result'})`, { cause })
  }
  const batch = options.batch ?? 1
  const { latency } = result
  return {
    mean: latency.mean / batch,
    p50: latency.p50 / batch,
    p99: latency.p99 / batch,
    min: latency.min / batch,
    max: latency.max / batch,
    rme: latency.rme,
    samples: latency.samplesCount,
  }
}
