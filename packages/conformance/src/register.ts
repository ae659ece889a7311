import type { TestFunction } from './test-function.js'

/** One conformance check: the test title it registers under, and the assertion run. */
export interface Check<Options> {
  readonly title: string
  readonly run: (options: Options) => void | Promise<void>
  /** Whether the check applies to these options (a declared capability); default always. */
  readonly applies?: (options: Options) => boolean
}

export interface Registration {
  /** The runner's test function, e.g. Vitest's `test`. */
  test: TestFunction
  /** Prefix for test names (default: the package name the implementation declares). */
  name?: string
  /** Per-test timeout in ms (default 120 s: the checks take seconds on a slow 2-core CI box). */
  timeout?: number
}

/**
 * Registers each applicable check as one test named `<prefix>: <title>` (the pattern of
 * Level/abstract-level's exported suite): shared by every suite, so they name and time checks alike.
 */
export function registerChecks<Options>(
  { test, timeout = 120_000 }: Registration,
  prefix: string,
  checks: Readonly<Record<string, Check<Options>>>,
  options: Options,
): void {
  for (const check of Object.values(checks)) {
    if (check.applies && !check.applies(options)) continue
    test(`${prefix}: ${check.title}`, () => check.run(options), timeout)
  }
}
