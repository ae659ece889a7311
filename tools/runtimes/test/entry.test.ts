import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { requireRuntime, skipReason } from '../src/availability.mjs'
import { writeMeasuringEntry } from '../src/entry.mjs'
import { RUNTIME_IDS, runInRuntime } from '../src/index.mjs'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const entry = writeMeasuringEntry(join(REPO, 'tools/runtimes/generated'), 'entry-test', [
  { id: 'randomUUID', call: 'crypto.randomUUID()' },
  { id: 'nanoid', module: '@authlab/id-nanoid', call: 'm.generateId()' },
  {
    id: 'pbkdf2',
    module: '@authlab/hash-webcrypto',
    // Enough iterations that one call lasts tens of milliseconds: browsers coarsen performance.now to
    // a millisecond, and a sub-millisecond call would time as zero there.
    setup: 'return m.createHasher({ iterations: 100_000 })',
    call: 's.hash("pw")',
  },
])

// A workspace package imported by a generated entry must load and run in a process runtime and in a
// browser bundle alike; the rates come back per candidate and per round.
test.for(RUNTIME_IDS)(
  '%s measures workspace packages from a generated entry',
  { timeout: 120_000 },
  async (id, { skip }) => {
    const reason = skipReason(id)
    skip(reason !== undefined, reason)
    const result = await runInRuntime(requireRuntime(id), entry, { rounds: 2, minBatchMs: 5, lagProbe: true })
    for (const name of ['randomUUID', 'nanoid', 'pbkdf2']) {
      expect(result.rates[name]).toHaveLength(2)
      expect(result.rates[name].every((rate: number) => rate > 0)).toBe(true)
    }
    expect(result.opMs.pbkdf2).toBeGreaterThan(1)
    // Batches are timed by wall clock, except in workerd, where the host reads the process's CPU time.
    expect(result.clock.name).toBe(id === 'workerd' ? 'process-cpu' : 'performance.now')
    // Each batch again per call: wall ms everywhere, CPU ms wherever the process's CPU can be read.
    const browser = id === 'chromium' || id === 'firefox'
    for (const name of ['randomUUID', 'nanoid', 'pbkdf2']) {
      expect(result.perCall.wallMs[name]).toHaveLength(2)
      if (browser) expect(result.perCall.cpuMs).toBeUndefined()
      else expect(result.perCall.cpuMs[name].every((ms: number) => ms > 0)).toBe(true)
    }
  },
)
