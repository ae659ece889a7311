/**
 * The way out where a platform's CPU limit is below any hash at OWASP's floor (Cloudflare Workers Free:
 * 10 ms of CPU a request): a Worker hands the scrypt to `apps/stretch-helper` through
 * `@authlab/stretch-remote` and waits. Measured inside workerd against the floor's scrypt done by the
 * Worker itself: the ratio is the Worker's CPU saved; the local call's wall time is the scrypt a login
 * waits for wherever it runs, the remote call's the round trip added to it.
 *
 * The remote call asks the helper for a cheap scrypt (N=2^10 r=8 p=1, about a millisecond): the
 * Worker's CPU per call is the request, its signature and the answer, the same whatever the helper
 * derives, and workerd's CPU clock needs batches of 50 ms of the Worker's CPU, which at the floor's
 * scrypt on the helper would take minutes of waiting per batch.
 */
import { EDGE_REMOTE, EDGE_SCRYPT } from '../../discover/settings.js'
import type { PreparedGroup } from '../../harness/suite.js'
import { settingKey } from '../../model/keys.js'
import { PASSWORD, type RuntimeCandidate, type RuntimeGroup, runtimeControl } from '../../runtimes/group.js'
import { loopbackRoundTripMs } from './remote.js'

/** The scrypt the edge runs at OWASP's floor (discover/settings.ts): the Worker's own, or the helper's. */
const EDGE_REMOTE_PARAMS = EDGE_SCRYPT.params

/** The runtime whose CPU limit the remote helper answers: Workers, measured in workerd. */
const RUNTIME = EDGE_REMOTE.runtime
const KEY_BYTES = 32

const local: RuntimeCandidate = {
  id: EDGE_REMOTE.local,
  label: 'scrypt in the Worker (node:crypto)',
  module: EDGE_REMOTE.local,
  setup: `return { kdf: m.createHasher(${JSON.stringify(EDGE_REMOTE_PARAMS)}), salt: crypto.randomUUID(), n: 0 }`,
  call: `s.kdf.derive(${PASSWORD}, s.salt + s.n++, ${KEY_BYTES})`,
}

/** What the remote call asks the helper to derive: cheap, so a batch of calls is quick to wait for. */
const HELPER_PARAMS = { ln: 10, r: 8, p: 1 } as const

/** The remote client, pointed at a running helper; a salt of its own per call, as every derivation here. */
function remote(url: string, secret: string): RuntimeCandidate {
  const options = JSON.stringify({ url, secret, ...HELPER_PARAMS })
  return {
    id: EDGE_REMOTE.remote,
    label: "the remote helper's call (loopback): the Worker's part",
    module: EDGE_REMOTE.remote,
    setup: `return { kdf: m.createRemoteScrypt(${options}), salt: crypto.randomUUID(), n: 0 }`,
    call: `s.kdf.derive(${PASSWORD}, s.salt + s.n++, ${KEY_BYTES})`,
  }
}

/** Starts the helper, allowed HELPER_PARAMS beside onepw's, and points the remote candidate at it. */
async function prepare(): Promise<PreparedGroup> {
  // The helper loads when this group runs, not when the bench lists its suites.
  const { startHelperProcess } = await import('@authlab/stretch-helper')
  const { ln, r, p } = HELPER_PARAMS
  const helper = await startHelperProcess({ extraParams: [{ N: 2 ** ln, r, p, buflen: KEY_BYTES }] })
  try {
    const probeMs = await loopbackRoundTripMs(helper.url)
    return {
      candidates: [local, runtimeControl(local), remote(helper.url, helper.secret)],
      notes: [
        `workerd: the remote helper ran in its own Node process on loopback (127.0.0.1), where a GET /health round trip took ${probeMs.toFixed(2)} ms (median); a real deployment adds its network's round trip to every login.`,
      ],
      close: async () => void (await helper.stop()),
    }
  } catch (error) {
    await helper.stop()
    throw error
  }
}

/** workerd only: elsewhere a login's CPU has no limit this low, and the Node suite's row [2] measures the helper. */
export function edgeRemoteGroup(runtime: string, claiming: readonly { name: string }[]): RuntimeGroup[] {
  if (runtime !== RUNTIME || !claiming.some((p) => p.name === local.id)) return []
  return [
    {
      group: `a login's ${EDGE_SCRYPT.label} from a Worker: in the Worker, or on the remote helper`,
      key: { setting: settingKey('scrypt', EDGE_REMOTE_PARAMS), operation: 'derive' },
      unit: 'ops/s',
      baseline: local.id,
      candidates: [local, runtimeControl(local)],
      prepare,
    },
  ]
}
