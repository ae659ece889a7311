import { createHasher } from '@authlab/hash-bcryptjs'
import { createUserDirectory } from '@authlab/servers'
import { describe, expect, test } from 'vitest'
import {
  isReachable,
  LOGIN,
  RACE_VARIANTS,
  type RaceReport,
  runRaceColumn,
  type StoreBackend,
  type TombstonePlace,
  unreachableMessage,
} from '../src/index.js'
import { environmentNow, recordColumn } from './record.js'

const FRAMEWORKS = ['express', 'fastify'] as const
// runRaceColumn's two-server cells: the logout on express, the racing requests on fastify.
const ACROSS = 'express→fastify'

/**
 * The logout-race column of one store (runRaceColumn): framework × variant (concurrent writes, or
 * read-only requests) × without and with @authlab/session-logout-guard, 20 trials each, plus the
 * two-server race for a server-backed store.
 */
export function raceSuite(backend: StoreBackend): void {
  describe(`${backend.label}: logout races`, () => {
    let reports: RaceReport[] = []

    test(`every cell runs${backend.service ? ` (${backend.service.name} must be reachable)` : ''}`, async () => {
      if (backend.service && !(await isReachable(backend.service)))
        expect.fail(unreachableMessage(backend.service))
      const environment = environmentNow()
      // Cost 4 (bcrypt's minimum): the race is about the session layer, not the hash.
      const users = await createUserDirectory(createHasher({ cost: 4 }), { [LOGIN.username]: LOGIN.password })
      reports = await runRaceColumn(backend, { users, secret: 'store-matrix-race-secret-of-32+chars' })
      await recordColumn('races', backend.name, environment, reports)
    }, 120_000)

    test('without the guard the race is real: some logout is undone', () => {
      // Proves the setup can see a resurrection, so the guarded zeros below mean something.
      const unguarded = reports.filter((r) => r.guard === 'none' && !r.framework.includes('→'))
      expect(unguarded).toHaveLength(4)
      expect(unguarded.reduce((sum, r) => sum + r.resurrected, 0)).toBeGreaterThan(0)
    })

    test.each(FRAMEWORKS.flatMap((framework) => RACE_VARIANTS.map((variant) => ({ framework, variant }))))(
      'guarded · $framework · $variant: no session comes back after logout',
      ({ framework, variant }) => {
        const cell = reports.find(
          (r) => r.framework === framework && r.variant === variant && r.guard === 'guarded',
        )
        expect(cell).toMatchObject({ resurrected: 0, failed: 0, trials: 20 })
      },
    )

    if (backend.service) {
      const across = (tombstones: TombstonePlace) =>
        reports.find((r) => r.framework === ACROSS && r.tombstones === tombstones)
      // The memory-tombstone cell across two servers is recorded but not asserted either way: since the
      // guard reads the session before it tombstones it (so anonymous logouts cannot fill the registry),
      // its destroy waits behind the other server's queued requests on the pooled connections here, and
      // 20 trials no longer show the resurrection that per-process tombstones allow in principle.
      test('two servers, tombstones in the shared store: no session comes back', () => {
        expect(across('store')).toMatchObject({ resurrected: 0, failed: 0, trials: 20 })
      })
    }
  })
}
