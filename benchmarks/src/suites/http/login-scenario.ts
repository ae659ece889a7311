import type { Framework } from '@authlab/servers'
import { BENCH_PASSWORD, type CostSetting, costSettings, instantiate } from '../../discover/settings.js'
import { loginSetting, settingKey } from '../../keys.js'
import { processCpuMs } from '../../measure/process-cpu.js'
import { shuffledRounds } from '../../measure/rounds.js'
import { median } from '../../measure/stats.js'
import { limitFlags, summarizeRatio } from '../../measure/verdict.js'
import type { HashCandidate, HttpBudget, SuiteContext, SuiteRow } from '../../types.js'
import { load } from './load.js'
import { type ProbeLatency, startProbe } from './probe.js'
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

/** Health checks per second while logins run: a few per cent of the servers' core (see probe.ts). */
export const PROBE_PER_SECOND = 200

/** How long the health checks' own CPU share is read on the no-hash server: 200 checks at 200/s. */
const PROBE_SHARE_MS = 1000

/**
 * login: POST /login back to back on 4 connections (enough to keep libuv's 4 threads busy for the hashers
 * that offload) while GET /health arrives at a steady PROBE_PER_SECOND — the production cost of a blocking
 * hasher, read as the latency those health checks saw (see probe.ts).
 */
export async function loginScenario(
  framework: Framework,
  entries: readonly LoginEntry[],
  generator: string,
  budget: HttpBudget,
  placement: Placement,
  ctx: SuiteContext,
): Promise<SuiteRow[]> {
  const body = JSON.stringify({ username: BENCH_USER, password: BENCH_PASSWORD })
  const post = { path: '/login', method: 'POST', body, connections: 4 } as const
  const samples = new Map<LoginEntry, RoundSample[]>(entries.map((e) => [e, []]))
  const probes = new Map<LoginEntry, ProbeLatency[]>(entries.map((e) => [e, []]))
  const specs = entries.map((e) => ({
    framework,
    generator,
    hasher: e.candidate.id,
    setting: e.setting.label,
  }))
  // What a login costs the server besides the hash, on the same core: HTTP, JSON, session regenerate,
  // the store. Measured on a server with no hash at all, as its CPU time per login.
  ctx.progress.step(`${framework} login · the server's own work per login`)
  const own = await withServers(
    [{ framework, generator, hasher: NO_HASH }],
    placement.serverCpu,
    async ([server]) => {
      const { url, pid } = server as ServerProcess
      await load(url, { ...post, amount: OWN_WORK_LOGINS })
      const run = await load(url, { ...post, amount: OWN_WORK_LOGINS, serverPid: pid })
      const cpuMs = run.serverCpuMs === undefined ? undefined : run.serverCpuMs / run.total
      // The health checks' own share of the core, with nothing else to do: the logins get the rest.
      const probe = startProbe(url, '/health', PROBE_PER_SECOND)
      const [probeStart, cpuStart] = [performance.now(), processCpuMs(pid)]
      await new Promise((resolve) => setTimeout(resolve, PROBE_SHARE_MS))
      const [probeEnd, cpuEnd] = [performance.now(), processCpuMs(pid)]
      await probe.finish(probeStart, probeEnd)
      const probeShare =
        cpuStart !== undefined && cpuEnd !== undefined ? (cpuEnd - cpuStart) / (probeEnd - probeStart) : 0
      return { cpuMs, perSec: run.requestsPerSec, probeShare }
    },
  )
  /** Per entry and round, the server's CPU ms per login (every thread: event loop and libuv pool). */
  const cpuPerLogin = new Map<LoginEntry, number[]>(entries.map((e) => [e, []]))
  await withServers(specs, placement.serverCpu, async (servers) => {
    const serverOf = new Map(entries.map((e, i) => [e, servers[i] as ServerProcess]))
    for (const { url } of serverOf.values()) await load(url, { ...post, amount: budget.warmupLogins })
    for (const order of shuffledRounds(entries, budget.loginRounds, ctx.seed)) {
      for (const e of order) {
        ctx.progress.step(`${framework} login · ${e.label} @ ${e.setting.label}`)
        const { url, pid } = serverOf.get(e) as ServerProcess
        const probe = startProbe(url, '/health', PROBE_PER_SECOND)
        const login = await load(url, { ...post, amount: e.logins, serverPid: pid })
        const health = await probe.finish(login.startedAt, login.lastResponseAt)
        const failures = login.failures + health.failures
        samples.get(e)?.push({ value: login.requestsPerSec, failures })
        if (failures === 0) probes.get(e)?.push(health)
        // The probe's health checks are in this CPU time too: a few per cent at PROBE_PER_SECOND.
        if (failures === 0 && login.serverCpuMs !== undefined && login.total > 0)
          cpuPerLogin.get(e)?.push(login.serverCpuMs / login.total)
      }
    }
  })
  return entries.map((e) => {
    const summary = summarizeRounds(samples.get(e) ?? [])
    const health = probes.get(e) ?? []
    const medianOf = (pick: (probe: ProbeLatency) => number) => finite(median(health.map(pick)))
    // The limit: a login costs the core one verify (timed once, before the rounds, in a fresh process on
    // the servers' core) plus the server's own work (timed on the no-hash server); each clean round's
    // rate is divided by it. Without the server's own work it is only an upper bound no server reaches.
    // The health checks arriving meanwhile take their own share of the core first (measured alone).
    const withOwnWork = own.cpuMs === undefined ? undefined : e.singleMs + own.cpuMs
    const perSec =
      withOwnWork === undefined
        ? e.perSec
        : ((e.perSec * e.singleMs) / withOwnWork) * Math.max(0, 1 - own.probeShare / placement.serverCores)
    const ratio = summarizeRatio(
      {
        label:
          withOwnWork === undefined
            ? 'cores ÷ single-hash time'
            : "cores less the health checks' share ÷ (single-hash time + the server's own work)",
        against: 'limit',
      },
      (samples.get(e) ?? []).flatMap((s) => (s.failures === 0 ? [s.value / perSec] : [])),
    )
    const cpu = median(cpuPerLogin.get(e) ?? [])
    return {
      group: `login · ${framework} · ${e.setting.label}`,
      key: {
        setting: loginSetting(framework, settingKey(e.setting.family, e.setting.options)),
        operation: 'login',
      },
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
        'limit logins/s': perSec,
        'single verify ms': e.singleMs,
        "server's own work ms/login": finite(own.cpuMs ?? Number.NaN),
        'health checks % of core': finite((100 * own.probeShare) / placement.serverCores),
        'limit without own work': e.perSec,
        'server CPU ms/login': finite(cpu),
        // Logins/s × CPU per login ÷ cores: the share of the servers' core the logins kept busy.
        'core busy %': finite((100 * summary.median * cpu) / 1000 / placement.serverCores),
        'logins per round': e.logins,
        ...spreadFields(summary),
      },
      flags: [...roundFlags(summary), ...limitFlags(ratio)],
    }
  })
}
