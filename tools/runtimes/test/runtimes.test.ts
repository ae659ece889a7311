import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'
import { requireRuntime, skipReason } from '../src/availability.mjs'
import { RUNTIME_IDS, resolveRuntime, runInRuntime } from '../src/index.mjs'

const SMOKE = fileURLToPath(new URL('./fixtures/smoke.mjs', import.meta.url))
const RFC7914_PBKDF2 =
  '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783'
const EXPECTED_NAME: Record<string, string> = {
  node: 'node',
  node24: 'node',
  node22: 'node',
  bun: 'bun',
  deno: 'deno',
  chromium: 'chromium',
  firefox: 'firefox',
  workerd: 'workerd',
}

// Every runtime must start where it is installed by the project's own files (.ci/run installs the
// browsers, tools/runtimes installs the rest from the registry). Outside CI a missing browser is a
// skip with its reason (src/availability.mjs); with CI set it fails.
test.for(RUNTIME_IDS)(
  '%s starts, names itself, and runs Web Crypto and the loop-lag probe',
  { timeout: 180_000 },
  async (id, { skip }) => {
    const reason = skipReason(id)
    skip(reason !== undefined, reason)
    const result = await runInRuntime(requireRuntime(id), SMOKE, { ids: 1000 })
    expect(result.runtime.name).toBe(EXPECTED_NAME[id])
    if (id === 'node') expect(result.runtime.version).toBe(process.versions.node)
    if (id === 'node24') expect(result.runtime.version).toMatch(/^24\./)
    if (id === 'node22') expect(result.runtime.version).toMatch(/^22\./)
    // workerd names itself by build date: the host's `workerd --version`.
    if (id === 'workerd') expect(result.runtime.version).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(result.uniqueIds).toBe(1000)
    expect(result.idLength).toBe(32)
    expect(result.pbkdf2).toBe(RFC7914_PBKDF2)
    // A 60 ms synchronous loop must show as at least 40 ms of timer lateness, or the probe is blind.
    expect(result.blockedLagMs).toBeGreaterThanOrEqual(40)
    // Firefox gives pages no GC call; every other runtime must, or memory figures would be guesses.
    if (id === 'firefox') expect(result.gc).toMatchObject({ collected: false, reason: expect.any(String) })
    else expect(result.gc).toEqual({ collected: true })
  },
)

test('an unknown runtime is a reason, not a crash', () => {
  expect(resolveRuntime('netscape')).toMatchObject({
    ok: false,
    reason: expect.stringMatching(/unknown runtime/),
  })
})
