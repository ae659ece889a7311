import { statSync } from 'node:fs'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The test files that take longest (each tens of seconds: real installs, builds, databases, browsers),
 * longest first. With two workers a long file started last leaves one worker idle until it ends, so
 * these start first and the short files fill the gaps. Vitest orders by its cache's durations when it
 * has one; a fresh clone has none, and falls back to file size, which put the short store-matrix files
 * (a few lines each, a minute of real stores each) last.
 */
const SLOW_FIRST = [
  'tools/packaging/test/scaffold.test.ts',
  'tools/packaging/test/pack-install.test.ts',
  'apps/store-matrix/test/cluster/',
  'apps/store-matrix/test/stores/',
  'apps/store-matrix/test/faults/',
  'apps/store-matrix/test/races/',
  'tools/runtimes/test/conformance-node24.test.ts',
  'tools/runtimes/test/runtimes.test.ts',
  'benchmarks/test/report-browser.test.ts',
  'benchmarks/test/suites.test.ts',
  'benchmarks/test/cli.test.ts',
  'tools/packaging/test/publish-lint.test.ts',
  'packages/conformance/test/id-suite.test.ts',
  'tools/runtimes/test/conformance-',
  'packages/id-random-int/test/',
  'packages/id-uid-safe/test/',
  'packages/id-random-bytes/test/',
]

const rank = (file: string) => {
  const i = SLOW_FIRST.findIndex((prefix) => file.startsWith(prefix))
  return i === -1 ? SLOW_FIRST.length : i
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size
    return [...files].sort((a, b) => {
      const [ra, rb] = [rank(relative(root, a.moduleId)), rank(relative(root, b.moduleId))]
      return ra !== rb ? ra - rb : size(b) - size(a)
    })
  }
}
