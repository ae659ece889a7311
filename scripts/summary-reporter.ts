import type { Reporter, TestModule } from 'vitest/node'

/**
 * Prints the plain closing line `N passed, N failed[, N skipped]` that CI reads. Errors outside any
 * test — a file that fails to load, a failing beforeAll/afterAll hook, an unhandled rejection — have
 * no test case to carry them, so each counts as one failure rather than vanishing from the total.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0
    let failed = unhandledErrors.length
    let skipped = 0
    for (const testModule of testModules) {
      if (testModule.errors().length > 0) failed += 1
      for (const suite of testModule.children.allSuites()) if (suite.errors().length > 0) failed += 1
      for (const test of testModule.children.allTests()) {
        const { state } = test.result()
        if (state === 'passed') passed += 1
        else if (state === 'failed') failed += 1
        else skipped += 1
      }
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : ''
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`)
  }
}
