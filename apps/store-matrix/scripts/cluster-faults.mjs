#!/usr/bin/env node
// The cluster's fault column, too long for `npm test` (about 25 s per run): every fault (kill, pause,
// reshard, partition) × save pattern (framework default, save-before-reply, WAIT 1) across 4 server
// processes, kill and pause again with the client's slot-map rebuild turned off (what node-redis does
// on its own), the cost of WAIT through the store API, and the logout race across the 4 processes.
// Writes .last-run/cluster/cluster.json; `npm run publish-results` copies it into results/cluster/.
// Needs a build (npx turbo run build --filter=@authlab/benchmarks...) and redis-server 7 installed;
// starts the cluster itself (scripts/redis-cluster.sh) and leaves it healthy.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { captureEnvironment } from '../../../benchmarks/dist/results/env.js'
import {
  CLUSTER_FAULTS,
  CLUSTER_PATTERNS,
  ensureCluster,
  openClusterStore,
  REDIS_CLUSTER_PORTS,
  runClusterFault,
  runCrossProcessRace,
  WAIT_TIMEOUT_MS,
} from '../dist/esm/index.js'

const root = join(import.meta.dirname, '..')
const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
const hasherModule = '@authlab/hash-bcryptjs'
const log = (line) => process.stderr.write(`${line}\n`)

await ensureCluster()
const environment = captureEnvironment(join(root, '../..'), [], 'full', packageJson.dependencies)
const redisServer = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim()

const faults = []
for (const fault of CLUSTER_FAULTS)
  for (const pattern of CLUSTER_PATTERNS) {
    const report = await runClusterFault({ fault, pattern, hasherModule })
    log(`${fault} · ${pattern}: ${JSON.stringify(report)}`)
    faults.push(report)
  }
// What node-redis does on its own (no slot-map rebuild on failures), beside the store's rebuild; the
// killed master also kept down for 10 s, so no MOVED reply can come from its address meanwhile.
for (const [fault, keepDownMs] of [
  ['kill', 0],
  ['pause', 0],
  ['kill', 10_000],
])
  for (const refreshOnFailure of keepDownMs > 0 ? [true, false] : [false]) {
    const report = await runClusterFault({
      fault,
      pattern: 'save-before-reply',
      hasherModule,
      refreshOnFailure,
      keepDownMs,
      observeMs: 12_000 + keepDownMs,
    })
    log(`${fault} · kept down ${keepDownMs} ms · rebuild ${refreshOnFailure}: ${JSON.stringify(report)}`)
    faults.push(report)
  }

// WAIT's price: sequential store.set of a small session, without and with WAIT 1, in alternating
// rounds (without, then with, every round), so both see the same machine load.
const waitCost = { rounds: 5, setsPerRound: 400, waitTimeoutMs: WAIT_TIMEOUT_MS, without: [], with: [] }
const session = () => ({
  cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) },
  visits: 1,
})
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
for (let round = 0; round < waitCost.rounds; round++)
  for (const mode of ['without', 'with']) {
    const opened = await openClusterStore(`cluster_waitcost_${round}_${mode}`, {
      ...(mode === 'with' ? { wait: { replicas: 1, timeoutMs: WAIT_TIMEOUT_MS } } : {}),
    })
    const times = []
    for (let i = 0; i < waitCost.setsPerRound; i++) {
      const started = performance.now()
      await new Promise((resolve, reject) =>
        opened.store.set(`s${i}`, session(), (error) => (error ? reject(error) : resolve())),
      )
      times.push(performance.now() - started)
    }
    await opened.close()
    times.sort((a, b) => a - b)
    waitCost[mode].push({ p50Ms: quantile(times, 0.5), p99Ms: quantile(times, 0.99) })
  }
log(`WAIT cost: ${JSON.stringify(waitCost)}`)

const races = [
  ...(await runCrossProcessRace({ hasherModule, guard: false })),
  ...(await runCrossProcessRace({ hasherModule, guard: true })),
]
log(`logout across processes: ${JSON.stringify(races)}`)

const folder = join(root, '.last-run/cluster')
await mkdir(folder, { recursive: true })
// Which cluster it ran on (AUTHLAB_CLUSTER_PORTS), so a run on a second checkout's cluster says so.
const cluster = { ports: REDIS_CLUSTER_PORTS }
const results = {
  format: 'authlab-store-cluster/1',
  environment,
  redisServer,
  cluster,
  faults,
  waitCost,
  races,
}
await writeFile(join(folder, 'cluster.json'), `${JSON.stringify(results, null, 2)}\n`)
log(`wrote ${join(folder, 'cluster.json')}`)
process.exit(0)
