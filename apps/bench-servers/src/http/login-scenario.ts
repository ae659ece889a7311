import {
  BENCH_PASSWORD,
  type CostSetting,
  costSettings,
  type HashCandidate,
  instantiate,
  limitFlags,
  median,
  type SuiteContext,
  type SuiteRow,
  settingKey,
  shuffledRounds,
  summarizeRatio,
} from '@authlab/benchmarks/harness'
import type { Framework } from '@authlab/servers'
import { type HttpBudget, PROBE_PER_SECOND } from '../budget.js'
import { load } from './load.js'
import { type ProbeLatency, startProbe } from './probe.js'
import { processCpuMs } from './process-cpu.js'
import { finite, type RoundSample, roundFlags, spreadFields, summarizeRounds } from './rounds.js'
import {
  BENCH_USER,
  NO_HASH,
  type Placement,
  type ServerProcess,
  timeVerifyInProcess,
  withServers,
} from './servers.js'

interface LoginEntry {
  readonly candidate: HashCandidate
  readonly setting: CostSetting
  /** The configured hasher's own name: a multi-algorithm package is labelled by what it runs here. */
  readonly label: string
  /** The limit: one verify's ms, and cores ÷ that, the logins/s of a server that does nothing but hash. */
  readonly singleMs: number
  readonly perSec: number
  /** Logins per round. */
  readonly logins: number
}

/**
 * Every hasher at each cost-equalised setting it implements (quick: one per family), with its limit on
 * `placement.serverCores` cores, timed once in a fresh process on the servers' core. The limit sizes each
 * round: about `loginSec` of logins, counted, so a slow hasher still completes several.
 */
export async function loginEntries(
  hashers: readonly HashCandidate[],
  full: boolean,
  generator: string,
  budget: HttpBudget,
  placement: Placement,
): Promise<LoginEntry[]> {
  const entries: LoginEntry[] = []
  for (const setting of costSettings().filter((s) => full || s.quick)) {
    for (const candidate of hashers) {
      const hasher = instantiate(candidate, setting)
      if (!hasher) continue
      // The framework is not used when timing; the process builds the same hasher the servers will.
      const spec = { framework: 'fastify', generator, hasher: candidate.id, setting: setting.label } as const
      // At least 5 calls and 400 ms: a hasher whose verifies alternate between two durations needs
      // several of each in the mean, or servers "beat" their limit.
      const singleMs = await timeVerifyInProcess(spec, placement.serverCpu, {
        warmups: budget.warmupLogins,
        minMs: 400,
        minCalls: 5,
      })
      const perSec = (placement.serverCores * 1000) / singleMs
      const logins = Math.max(4, Math.round(perSec * budget.loginSec))
      entries.push({ candidate, setting, label: hasher.info.displayName, singleMs, perSec, logins })
    }
  }
  return entries
}

/** Logins timed on the no-hash server for the server's own work per login (after as many to warm it). */
const OWN_WORK_LOGINS = 400

/** How long the health checks' own CPU share is read on the no-hash server: 200 checks at 200/s. */
const PROBE_SHARE_MS = 1000

const POST = {
  path: '/login',
  method: 'POST',
  body: JSON.stringify({ username: BENCH_USER, password: BENCH_PASSWORD }),
  connections: 4,
} as const

/** What a login costs the server besides the hash, and what the health checks take of its core. */
interface OwnWork {
  readonly cpuMs: number | undefined
  readonly probeShare: number
}

/**
 * What a login costs the server besides the hash, on the same core: HTTP, JSON, session regenerate, the
 * store. Measured on a server with no hash at all, as its CPU time per login; and the health checks'
 * own share of the core, with nothing else to do: the logins get the rest.
 */
function ownWork(framework: Framework, generator: string, placement: Placement): Promise<OwnWork> {
  return withServers([{ framework, generator, hasher: NO_HASH }], placement.serverCpu, async ([server]) => {
    const { url, pid } = server as ServerProcess
    await load(url, { ...POST, amount: OWN_WORK_LOGINS })
    const run = await load(url, { ...POST, amount: OWN_WORK_LOGINS, serverPid: pid })
    const cpuMs = run.serverCpuMs === undefined ? undefined : run.serverCpuMs / run.total
    const probe = startProbe(url, '/health', PROBE_PER_SECOND)
    const [probeStart, cpuStart] = [performance.now(), processCpuMs(pid)]
    await new Promise((resolve) => setTimeout(resolve, PROBE_SHARE_MS))
    const [probeEnd, cpuEnd] = [performance.now(), processCpuMs(pid)]
    await probe.finish(probeStart, probeEnd)
    const probeShare =
      cpuStart !== undefined && cpuEnd !== undefined ? (cpuEnd - cpuStart) / (probeEnd - probeStart) : 0
    return { cpuMs, probeShare }
  })
}

/** Each entry's rounds: its rates (a round with failures marked), health-check latencies and CPU per login. */
interface Measured {
  readonly samples: RoundSample[]
  readonly probes: ProbeLatency[]
  /** The server's CPU ms per login per round (every thread: event loop and libuv pool). */
  readonly cpuPerLogin: number[]
}

/** The login rounds: every entry's server at once, each round in a fresh order, logins while health checks arrive. */
async function loginRounds(
  framework: Framework,
  entries: readonly LoginEntry[],
  generator: string,
  ctx: SuiteContext<HttpBudget>,
  placement: Placement,
) {
  const measured = new Map<LoginEntry, Measured>(
    entries.map((e) => [e, { samples: [], probes: [], cpuPerLogin: [] }]),
  )
  const specs = entries.map((e) => ({
    framework,
    generator,
    hasher: e.candidate.id,
    setting: e.setting.label,
  }))
  await withServers(specs, placement.serverCpu, async (servers) => {
    const serverOf = new Map(entries.map((e, i) => [e, servers[i] as ServerProcess]))
    for (const { url } of serverOf.values()) await load(url, { ...POST, amount: ctx.budget.warmupLogins })
    for (const order of shuffledRounds(entries, ctx.budget.loginRounds, ctx.seed)) {
      for (const e of order) {
        ctx.progress.step(`${framework} login · ${e.label} @ ${e.setting.label}`)
        const { url, pid } = serverOf.get(e) as ServerProcess
        const probe = startProbe(url, '/health', PROBE_PER_SECOND)
        const login = await load(url, { ...POST, amount: e.logins, serverPid: pid })
        const health = await probe.finish(login.startedAt, login.lastResponseAt)
        const failures = login.failures + health.failures
        const m = measured.get(e) as Measured
        m.samples.push({ value: login.requestsPerSec, failures })
        if (failures === 0) m.probes.push(health)
        // The probe's health checks are in this CPU time too: a few per cent at PROBE_PER_SECOND.
        if (failures === 0 && login.serverCpuMs !== undefined && login.total > 0)
          m.cpuPerLogin.push(login.serverCpuMs / login.total)
      }
    }
  })
  return measured
}

/**
 * The limit: a login costs the core one verify (timed once, before the rounds, in a fresh process on the
 * servers' core) plus the server's own work (timed on the no-hash server); each clean round's rate is
 * divided by it. Without the server's own work it is only an upper bound no server reaches. The health
 * checks arriving meanwhile take their own share of the core first (measured alone).
 */
function limitOf(e: LoginEntry, own: OwnWork, cores: number) {
  const withOwnWork = own.cpuMs === undefined ? undefined : e.singleMs + own.cpuMs
  if (withOwnWork === undefined) return { perSec: e.perSec, label: 'cores ÷ single-hash time' }
  return {
    perSec: ((e.perSec * e.singleMs) / withOwnWork) * Math.max(0, 1 - own.probeShare / cores),
    label: "cores less the health checks' share ÷ (single-hash time + the server's own work)",
  }
}

function loginRow(framework: Framework, e: LoginEntry, m: Measured, own: OwnWork, cores: number): SuiteRow {
  const summary = summarizeRounds(m.samples)
  const medianOf = (pick: (probe: ProbeLatency) => number) => finite(median(m.probes.map(pick)))
  const limit = limitOf(e, own, cores)
  const clean = m.samples.flatMap((s) => (s.failures === 0 ? [s.value / limit.perSec] : []))
  const ratio = summarizeRatio({ against: 'limit', label: limit.label }, clean)
  const cpu = median(m.cpuPerLogin)
  return {
    group: `login · ${framework} · ${e.setting.label}`,
    key: { setting: `${framework}/${settingKey(e.setting.family, e.setting.options)}`, operation: 'login' },
    candidate: e.candidate.id,
    label: e.label,
    value: finite(summary.median),
    unit: 'logins/s',
    higherIsBetter: true,
    samples: summary.cleanRounds,
    ratios: [ratio],
    details: {
      'GET /health p99 ms': medianOf((probe) => probe.p99Ms),
      'GET /health max ms': medianOf((probe) => probe.maxMs),
      'limit logins/s': limit.perSec,
      'single verify ms': e.singleMs,
      "server's own work ms/login": finite(own.cpuMs ?? Number.NaN),
      'health checks % of core': finite((100 * own.probeShare) / cores),
      'limit without own work': e.perSec,
      'server CPU ms/login': finite(cpu),
      // Logins/s × CPU per login ÷ cores: the share of the servers' core the logins kept busy.
      'core busy %': finite((100 * summary.median * cpu) / 1000 / cores),
      'logins per round': e.logins,
      ...spreadFields(summary),
    },
    flags: [...roundFlags(summary), ...limitFlags(ratio)],
  }
}

/**
 * login: POST /login back to back on 4 connections (enough to keep libuv's 4 threads busy for the hashers
 * that offload) while GET /health arrives at a steady PROBE_PER_SECOND — the production cost of a blocking
 * hasher, read as the latency those health checks saw (see probe.ts).
 */
export async function loginScenario(
  framework: Framework,
  entries: readonly LoginEntry[],
  generator: string,
  placement: Placement,
  ctx: SuiteContext<HttpBudget>,
): Promise<SuiteRow[]> {
  ctx.progress.step(`${framework} login · the server's own work per login`)
  const own = await ownWork(framework, generator, placement)
  const measured = await loginRounds(framework, entries, generator, ctx, placement)
  return entries.map((e) => loginRow(framework, e, measured.get(e) as Measured, own, placement.serverCores))
}
