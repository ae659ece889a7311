import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createHasher } from '@authlab/hash-bcryptjs'
import { createUserDirectory } from '@authlab/servers'
import { captureEnvironment } from '@authlab/workspace'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import packageJson from '../package.json' with { type: 'json' }
import {
  CHART_LENGTHS,
  cellText,
  isReachable,
  LOGIN,
  type MatrixResults,
  runStore,
  STORES,
  type StoreBackend,
  type StoreReport,
  toMarkdown,
  unreachableReport,
} from '../src/index.js'
import { discoverGenerators, ONLY_IDS, ROOT } from './generators.js'

const FRAMEWORKS = ['express', 'fastify'] as const
// Server-backed stores run whenever reachable, and are required when CI is set.
const REQUIRED = Boolean(process.env.CI)
const STORE_TIMEOUT_MS = 10 * 60_000
/**
 * Sessions per cell in the "nothing lost under load" check, and requests in flight per cell. Every
 * generator × framework cell of a store runs at once, so 200 per cell with 8 in flight is 2,800 sessions
 * written, read and destroyed through one store with 112 requests in flight: eleven times a 10-connection
 * pool (the stores' default), so every pool is full and queued, and the loss test/engine.test.ts plants
 * (one write in 50) shows tens of times. 1,000 per cell repeats the same interleavings five times over at
 * five times the cost (`authlab-bench --suite stores --full` still runs 1,000). More in flight only
 * lengthens the queue: node-postgres fails a request that waited for a pooled connection longer than its
 * 2 s connect timeout (pg-pool `connectionTimeoutMillis` covers the wait), which 224 in flight on a
 * loaded machine did.
 */
const SESSIONS_PER_CELL = 200
const LOAD_CONCURRENCY = 8
/**
 * Test runs write here (git-ignored), so testing never dirties the checkout; `npm run publish-results`
 * copies the last run into the committed results/ and the README.
 */
const RESULTS = join(import.meta.dirname, '../.last-run')

/**
 * The whole matrix for one store: one test per generator × framework cell, per hostile-cookie run and per
 * length-chart point. Each store has its own test file so Vitest spreads stores over the cores; each
 * file records its store in .last-run/stores/ and rebuilds the combined matrix from every recorded store.
 */
export async function storeMatrixSuite(backend: StoreBackend): Promise<void> {
  const generators = await discoverGenerators()
  const reachable = backend.service === undefined || (await isReachable(backend.service))

  describe(backend.label, () => {
    test('every ID package of the workspace is a row', () => {
      expect(generators.map((g) => g.key)).toEqual(
        expect.arrayContaining(ONLY_IDS ?? ['@authlab/id-random-bytes']),
      )
    })

    let report: StoreReport
    afterAll(() => recordReport(report, generators))

    if (!reachable) {
      report = unreachableReport(backend)
      if (REQUIRED)
        test(`${backend.service?.name} is reachable (required when CI is set)`, () =>
          expect.fail(report.message))
      return
    }

    beforeAll(async () => {
      report = await runStore(backend, {
        generators,
        // Cost 4 (bcrypt's minimum): the matrix tests the session layer, not the hash cost.
        users: await createUserDirectory(createHasher({ cost: 4 }), { [LOGIN.username]: LOGIN.password }),
        secret: 'store-matrix-secret-of-at-least-32-chars',
        frameworks: FRAMEWORKS,
        sessionsUnderLoad: SESSIONS_PER_CELL,
        loadConcurrency: LOAD_CONCURRENCY,
      })
    }, STORE_TIMEOUT_MS)

    const limit = backend.maxIdLength ?? Number.POSITIVE_INFINITY
    const cells = generators.flatMap((generator) => FRAMEWORKS.map((framework) => ({ generator, framework })))
    test.each(cells)('$generator.key · $framework', ({ generator, framework }) => {
      const outcome = report.cells.find(
        (c) => c.generator === generator.key && c.framework === framework,
      )?.outcome
      // A generator longer than the store's documented limit must fail at creation, not pass by luck.
      if (generator.generate.info.length > limit) expect(outcome).toMatchObject({ ok: false, step: 'create' })
      else expect(cellText(outcome)).toBe('✓')
    })

    test.each(FRAMEWORKS)('hostile cookies · %s', (framework) => {
      expect(cellText(report.hostile.find((h) => h.framework === framework)?.outcome)).toBe('✓')
    })

    const points = CHART_LENGTHS.flatMap((length) => FRAMEWORKS.map((framework) => ({ length, framework })))
    test.each(points)('ID length $length · $framework', ({ length, framework }) => {
      const outcome = report.lengths.find((p) => p.length === length && p.framework === framework)?.outcome
      if (length <= limit) expect(cellText(outcome)).toBe('✓')
      // Past the limit the session must not survive in any form: never stored, never truncated.
      else expect(outcome).toMatchObject({ ok: false, reason: expect.not.stringContaining('truncated') })
    })
  })
}

async function recordReport(
  report: StoreReport | undefined,
  generators: Awaited<ReturnType<typeof discoverGenerators>>,
) {
  // A run limited to some rows is not the matrix: the recorded one stays whole.
  if (report === undefined || ONLY_IDS !== undefined) return
  const stores = join(RESULTS, 'stores')
  await mkdir(stores, { recursive: true })
  await writeFile(join(stores, `${report.store}.json`), `${JSON.stringify(report, null, 2)}\n`)
  const recorded = await Promise.all(
    (await readdir(stores))
      .filter((name) => name.endsWith('.json'))
      .map(async (name) => JSON.parse(await readFile(join(stores, name), 'utf8')) as StoreReport),
  )
  const order = (name: string) => STORES.findIndex((store) => store.name === name)
  const results: MatrixResults = {
    format: 'authlab-store-matrix/1',
    generators: Object.fromEntries(generators.map((g) => [g.key, g.label])),
    stores: recorded.sort((a, b) => order(a.store) - order(b.store)),
    environment: captureEnvironment(ROOT, [], 'full', packageJson.dependencies),
  }
  await writeFile(join(RESULTS, 'store-matrix.json'), `${JSON.stringify(results, null, 2)}\n`)
  const markdown = toMarkdown(results)
  await writeFile(join(RESULTS, 'store-matrix.md'), markdown)
}
