#!/usr/bin/env node
// The cluster's fault column, too long for `npm test` (about 25 s per run): every fault (kill, pause,
// reshard, partition) × save pattern (framework default, save-before-reply, WAIT 1) across 4 server
// processes, once per client (node-redis 6 as shipped, node-redis 6 with the store's slot-map rebuild,
// ioredis 6), the killed master kept down 10 s per client, the cost of WAIT through the store API, and
// the logout race across the 4 processes.
// Each part can run on its own (so a run fits a short CPU slot) and is kept in .last-run/cluster/parts/:
//   node scripts/cluster-faults.mjs faults <client> <fault>[,<fault>…]   one client's rows for those faults
//   node scripts/cluster-faults.mjs kept-down [<client>…]               the killed master kept down 10 s
//   node scripts/cluster-faults.mjs extras                              WAIT cost, reads during WAIT, logout race
//   node scripts/cluster-faults.mjs merge                               parts → .last-run/cluster/cluster.json
// Without arguments it runs every part, then merges. `npm run publish-results` copies cluster.json into
// results/cluster/. Needs a build (npx turbo run build --filter=@authlab/benchmarks...) and redis-server 7
// installed; starts the cluster itself (scripts/redis-cluster.sh) and leaves it healthy.
import { execFileSync } from 'node:child_process'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { captureEnvironment } from '@authlab/workspace'
import {
  CLUSTER_FAULTS,
  CLUSTER_PATTERNS,
  ensureCluster,
  openClusterStore,
  openIoredisClusterStore,
  REDIS_CLUSTER_PORTS,
  readDuringWait,
  runClusterFault,
  runCrossProcessRace,
  WAIT_TIMEOUT_MS,
} from '../dist/esm/index.js'

const root = join(import.meta.dirname, '..')
const packageJson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
const hasherModule = '@authlab/hash-bcryptjs'
const log = (line) => process.stderr.write(`${line}\n`)

const folder = join(root, '.last-run/cluster')
const parts = join(folder, 'parts')
await mkdir(parts, { recursive: true })
// Each part keeps when it started and the machine's load then (1-minute load average): a merge of parts
// run at different times reports their range. Parts run one after another, so the next part starts
// when one is written.
const partStart = () => ({ startedAt: new Date().toISOString(), loadAverage: loadavg()[0] })
let started = partStart()
const writePart = async (name, value) => {
  const part = { ...started, value }
  await writeFile(join(parts, `${name}.json`), `${JSON.stringify(part, null, 2)}\n`)
  log(`wrote ${join(parts, `${name}.json`)}`)
  started = partStart()
}

/** The three client row sets: what the fault runner and the store need to run each. */
const CLIENTS = {
  'node-redis': { client: 'node-redis', refreshOnFailure: false },
  'node-redis-rebuild': { client: 'node-redis', refreshOnFailure: true },
  ioredis: { client: 'ioredis' },
}

async function faultPart(clientName, faultNames) {
  const client = CLIENTS[clientName]
  if (client === undefined)
    throw new Error(`unknown client ${clientName}: ${Object.keys(CLIENTS).join(', ')}`)
  for (const fault of faultNames) {
    if (!CLUSTER_FAULTS.includes(fault))
      throw new Error(`unknown fault ${fault}: ${CLUSTER_FAULTS.join(', ')}`)
    const reports = []
    for (const pattern of CLUSTER_PATTERNS) {
      const report = await runClusterFault({ fault, pattern, hasherModule, ...client })
      log(`${clientName} · ${fault} · ${pattern}: ${JSON.stringify(report)}`)
      reports.push(report)
    }
    await writePart(`faults-${clientName}-${fault}`, reports)
  }
}

// The killed master kept down for 10 s: no MOVED reply can come from its address meanwhile, so a client
// learns of the promoted replica only by reading the slot map again on its own.
async function keptDownPart(clientName) {
  const keepDownMs = 10_000
  const report = await runClusterFault({
    fault: 'kill',
    pattern: 'save-before-reply',
    hasherModule,
    keepDownMs,
    observeMs: 12_000 + keepDownMs,
    ...CLIENTS[clientName],
  })
  log(`${clientName} · kill, kept down ${keepDownMs} ms: ${JSON.stringify(report)}`)
  await writePart(`kept-down-${clientName}`, [report])
}

// WAIT's price: sequential store.set of a small session, without and with WAIT 1, in alternating
// rounds (without, then with, every round), so both see the same machine load.
async function waitCostPart() {
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
  await writePart('wait-cost', waitCost)
}

// A read while two writes to its master wait for a WAIT that runs to its timeout (1,500 ms), per client:
// with writes and their WAIT on a client of their own, the read does not queue behind them.
async function waitReadPart() {
  const trials = 5
  const waitReads = {}
  for (const [name, open] of [
    ['node-redis', openClusterStore],
    ['ioredis', openIoredisClusterStore],
  ]) {
    waitReads[name] = []
    for (let trial = 0; trial < trials; trial++) waitReads[name].push(await readDuringWait(open))
  }
  log(`reads during WAIT: ${JSON.stringify(waitReads)}`)
  await writePart('wait-reads', waitReads)
}

async function racePart() {
  const races = [
    ...(await runCrossProcessRace({ hasherModule, guard: false })),
    ...(await runCrossProcessRace({ hasherModule, guard: true })),
  ]
  log(`logout across processes: ${JSON.stringify(races)}`)
  await writePart('races', races)
}

/** Every part in .last-run/cluster/parts/ → cluster.json, with the environment of this merge. */
async function merge() {
  const names = (await readdir(parts)).filter((name) => name.endsWith('.json')).sort()
  const runs = []
  const read = async (name) => {
    const part = JSON.parse(await readFile(join(parts, name), 'utf8'))
    runs.push({ part: name.replace(/\.json$/, ''), startedAt: part.startedAt, loadAverage: part.loadAverage })
    return part.value
  }
  const faults = []
  // Client by client, in the order of CLIENTS; within a client, in the order of CLUSTER_FAULTS.
  for (const clientName of Object.keys(CLIENTS))
    for (const fault of CLUSTER_FAULTS)
      if (names.includes(`faults-${clientName}-${fault}.json`))
        faults.push(...(await read(`faults-${clientName}-${fault}.json`)))
  for (const clientName of Object.keys(CLIENTS))
    if (names.includes(`kept-down-${clientName}.json`))
      faults.push(...(await read(`kept-down-${clientName}.json`)))
  const environment = captureEnvironment(join(root, '../..'), [], 'full', packageJson.dependencies)
  const redisServer = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).trim()
  const results = {
    format: 'authlab-store-cluster/2',
    environment,
    redisServer,
    // Which cluster it ran on (AUTHLAB_CLUSTER_PORTS), so a run on a second checkout's cluster says so.
    cluster: { ports: REDIS_CLUSTER_PORTS },
    faults,
    waitCost: await read('wait-cost.json'),
    races: await read('races.json'),
    waitReads: await read('wait-reads.json'),
    parts: runs,
  }
  await writeFile(join(folder, 'cluster.json'), `${JSON.stringify(results, null, 2)}\n`)
  log(`wrote ${join(folder, 'cluster.json')} from ${names.length} parts`)
}

const [command, ...args] = process.argv.slice(2)
await ensureCluster()
if (command === 'faults') await faultPart(args[0], (args[1] ?? CLUSTER_FAULTS.join(',')).split(','))
else if (command === 'kept-down')
  for (const name of args.length ? args : Object.keys(CLIENTS)) await keptDownPart(name)
else if (command === 'extras') {
  await waitCostPart()
  await waitReadPart()
  await racePart()
} else if (command === 'merge') await merge()
else if (command === undefined) {
  for (const name of Object.keys(CLIENTS)) await faultPart(name, CLUSTER_FAULTS)
  for (const name of Object.keys(CLIENTS)) await keptDownPart(name)
  await waitCostPart()
  await waitReadPart()
  await racePart()
  await merge()
} else throw new Error(`unknown command ${command}: faults, kept-down, extras, merge or none`)
process.exit(0)
