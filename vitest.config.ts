import { defineConfig } from 'vitest/config'
import SlowFirstSequencer from './scripts/slow-first-sequencer.ts'

// One Vitest run over every workspace, so `npm test` reports a single total; each package can
// still be tested alone with `npx turbo run test --filter <name>`.
export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'benchmarks/test/**/*.test.ts',
      'tools/*/test/**/*.test.ts',
    ],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Prints, once per run, why the browser tests are skipped on a machine without browsers.
    globalSetup: ['./tools/runtimes/src/vitest-notice.mjs'],
    pool: 'forks',
    sequence: { sequencer: SlowFirstSequencer },
    // Both cores: the suites are CPU-bound and independent; timing-sensitive checks judge by
    // event-loop utilization, which another process on the other core does not disturb.
    maxWorkers: 2,
    // The workspace's built JavaScript runs as Node loads it, as it does for a user: transformed, each
    // imported binding becomes a property read, and the conformance checks' hot loops (millions of
    // IDs, thousands of hashes) ran two to three times slower.
    server: { deps: { external: [/\/(packages|apps|tools)\/[^/]+\/dist\//, /\/benchmarks\/dist\//] } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
})
