import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import SlowFirstSequencer from './scripts/slow-first-sequencer.ts'

const TEST_FILES = [
  'packages/*/test/**/*.test.ts',
  'apps/*/test/**/*.test.ts',
  'benchmarks/test/**/*.test.ts',
  'tools/*/test/**/*.test.ts',
]

/**
 * Test files that get a process of their own, as every file once did: those that change what other files
 * in their process would see (a vi.mock of node:crypto, the working directory), the one that times
 * ID generators against each other in-process, which the bench does only in a fresh child process (in a
 * worker that had run other files, two identical generators once read 1.46 against each other), and the
 * one that compares the README's chart byte for byte with a fresh rendering, as `npm run figures` makes
 * it in a process of its own (after other files' charts in the same worker, vega placed its labels
 * differently).
 */
const ISOLATED = [
  'packages/id-random-int/test/no-codegen.test.ts',
  'packages/calibrate/test/calibrate.test.ts',
  'benchmarks/test/ids-measure.test.ts',
  'benchmarks/test/advice.test.ts',
]

/** What both projects share: each lists its own files. */
const project = (test: TestProjectInlineConfiguration['test']): TestProjectInlineConfiguration => ({
  test: {
    pool: 'forks',
    // The workspace's built JavaScript runs as Node loads it, as it does for a user: transformed, each
    // imported binding becomes a property read, and the conformance checks' hot loops (millions of
    // IDs, thousands of hashes) ran two to three times slower.
    server: { deps: { external: [/\/(packages|apps|tools)\/[^/]+\/dist\//, /\/benchmarks\/dist\//] } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...test,
  },
})

// One Vitest run over every workspace, so `npm test` reports a single total; each package can
// still be tested alone with `npx turbo run test --filter <name>`.
export default defineConfig({
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    sequence: { sequencer: SlowFirstSequencer },
    // Both cores: the suites are CPU-bound and independent; timing-sensitive checks judge by
    // event-loop utilization, which another process on the other core does not disturb.
    maxWorkers: 2,
    projects: [
      // A worker process runs file after file with its loaded modules kept (isolate: false): starting
      // a process and importing Vitest, express, fastify and the workspace again for each of 134 files
      // took 120 s of the files' summed time, 42 s without. No file keeps state in a shared module;
      // the ISOLATED files keep a process each.
      project({
        name: 'shared',
        include: TEST_FILES,
        exclude: [...configDefaults.exclude, ...ISOLATED],
        isolate: false,
        // Prints, once per run, why the browser tests are skipped on a machine without browsers.
        globalSetup: ['./tools/runtimes/src/vitest-notice.mjs'],
      }),
      project({ name: 'isolated', include: ISOLATED, isolate: true }),
    ],
  },
})
