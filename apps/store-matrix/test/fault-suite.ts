import { describe, expect, test } from 'vitest'
import {
  FAULT_KINDS,
  type FaultCellReport,
  isReachable,
  runFaultColumn,
  SAVE_PATTERNS,
  type SavePattern,
  type StoreBackend,
  unreachableMessage,
} from '../src/index.js'
import { environmentNow, recordColumn } from './record.js'

const FRAMEWORKS = ['express', 'fastify'] as const

/**
 * The fault column of one server-backed store: for each framework × save pattern, a server process
 * behind a fault proxy takes steady session load while the connection is killed, reset, stalled,
 * refused, dropped and black-holed in turn. The four cells run at once, each with its own proxy.
 */
export function faultSuite(backend: StoreBackend): void {
  const service = backend.service
  if (service === undefined) throw new Error(`${backend.name} has no service to put a proxy in front of`)

  describe(`${backend.label}: faults`, () => {
    let reports: FaultCellReport[] = []

    test(`every cell runs (${service.name} must be reachable)`, async () => {
      // The fault column is part of every run: a missing service is a failure, never a skip.
      if (!(await isReachable(service))) expect.fail(unreachableMessage(service))
      const environment = environmentNow()
      reports = await runFaultColumn(backend, { hasherModule: '@authlab/hash-bcryptjs', holdMs: 300 })
      await recordColumn('faults', backend.name, environment, reports)
    }, 120_000)

    const report = (framework: string, pattern: SavePattern) => {
      const found = reports.find((r) => r.framework === framework && r.pattern === pattern)
      if (found === undefined) expect.fail('the fault run did not complete')
      return found
    }

    describe.each(FRAMEWORKS)('%s', (framework) => {
      test.each(SAVE_PATTERNS)('%s: the server survives every fault and recovers from each', (pattern) => {
        const cell = report(framework, pattern)
        expect(cell.crash).toBeUndefined()
        expect(cell.crashes).toBe(0)
        expect(Object.keys(cell.recoveryMs)).toEqual([...FAULT_KINDS])
        for (const fault of FAULT_KINDS) expect(cell.recoveryMs[fault], fault).not.toBeNull()
        // Decisive only if the load went through: sessions acknowledged before and after the faults.
        expect(cell.acknowledged).toBeGreaterThanOrEqual(10)
      })

      test('save-before-reply: no session is acknowledged and then lost', () => {
        const cell = report(framework, 'save-before-reply')
        const seen = {
          lostAfter: cell.lostAfter,
          lossSamples: cell.lossSamples,
          serverErrors: cell.serverErrors,
          noAnswer: cell.noAnswer,
        }
        expect(cell.lost, JSON.stringify(seen)).toBe(0)
      })
    })

    test('@fastify/session saves before replying by default: nothing acknowledged is lost', () => {
      const cell = report('fastify', 'framework-default')
      expect(cell.lost, JSON.stringify({ lostAfter: cell.lostAfter, serverErrors: cell.serverErrors })).toBe(
        0,
      )
    })
  })
}
