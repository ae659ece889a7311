import {
  HTTP_CEILING as CEILING,
  controlOf,
  defined,
  type Flag,
  goalText,
  goalVerdict,
  type IdCandidate,
  median,
  message,
  type Ratio,
  ratioTo,
  type SuiteContext,
  type SuiteRow,
  wholeRounds,
} from '@authlab/benchmarks/harness'
import type { Framework } from '@authlab/servers'
import type { HttpBudget, IdsBudget } from '../budget.js'
import { finite, type RoundSample, roundFlags, spreadFields, summarizeRounds } from './rounds.js'
import { GENERATOR_HEADER, type Placement, withServers } from './servers.js'
import { alternatingWindows, cycleRatio, type LoadSource, openLoad } from './window.js'

/** The goal for a production generator: at least 98 % of the ceiling's req/s in both frameworks. */
const GOAL = 0.98

/**
 * Comparisons judged at a margin of their own: does a generator several times faster on its own still
 * change @fastify/session's req/s by less than the 13 % step the framework reported when it replaced
 * uid-safe? Asked at ±10 %, which the 5–8 rounds of a quick run (±3–4 % each) resolve; ±5 % around a
 * ratio near 1 would take about 16.
 */
const MARGINS: readonly { framework: Framework; candidate: string; against: string; pct: number }[] = [
  { framework: 'fastify', candidate: '@authlab/id-fast', against: 'ref:fastify-session', pct: 10 },
]
const marginOf = (framework: Framework, candidate: string, against: string) =>
  MARGINS.find((m) => m.framework === framework && m.candidate === candidate && m.against === against)?.pct

/** Connections each server is loaded with: enough to keep a single-core server busy between responses. */
const CONNECTIONS = 50

/** A warm-up cycle's rate within this share of the previous one: the server has stopped speeding up. */
const STEADY = 0.1

/**
 * Loads a fresh server in cycles of one window per generator until two cycles in a row agree within
 * STEADY, at most `warmupSec`: a fresh server speeds up about tenfold over its first 1.5 s (JIT tiers,
 * the young generation sizing itself), and windows on that ramp would compare different points of it.
 */
async function warmUntilSteady(load: LoadSource, generators: number, budget: IdsBudget): Promise<void> {
  let previous = 0
  for (let spent = 0; spent < budget.warmupSec; spent += generators * budget.windowSec) {
    let completed = 0
    for (let g = 0; g < generators; g++)
      completed += (await load.window(budget.windowSec, { [GENERATOR_HEADER]: String(g) })).completed
    if (previous > 0 && Math.abs(completed - previous) <= STEADY * previous) return
    previous = completed
  }
}

export interface IdsScenario {
  readonly framework: Framework
  /** The generators served, each a candidate id the server process rebuilds. */
  readonly ids: readonly IdCandidate[]
  /** Candidate ids the others are divided by, in the order their ratios are listed. */
  readonly baselines: readonly string[]
  /** Serve the first baseline twice, the second time as the A/A control. */
  readonly control: boolean
  readonly hasher: string
  /** Its rounds, windows and race allowance (a budget without `race`: fixed rounds). */
  readonly budget: HttpBudget
  readonly placement: Placement
}

/** A candidate as a row names it: its stable id and its label. */
export interface Named {
  readonly id: string
  readonly label: string
}

/** Starts one fresh server serving `generators` (by GENERATOR_HEADER index), runs `body` on its URL, stops it. */
export type Serve = <R>(generators: readonly string[], body: (url: string) => Promise<R>) => Promise<R>

/** The scenario on any server that picks its generator per request by GENERATOR_HEADER. */
export interface ServedIds {
  /** Who a failed round and the progress name: `fastify ids`, `hono on bun ids`. */
  readonly name: string
  readonly group: string
  readonly key: SuiteRow['key']
  /** The runtime the server runs on, when the suite compares runtimes (part of the row's key). */
  readonly runtime?: string
  readonly ids: readonly Named[]
  readonly baselines: readonly string[]
  readonly control: boolean
  readonly budget: IdsBudget
  /** The session-creating request's path. */
  readonly path: string
  /** The equivalence margin in percent of a comparison judged at one of its own (undefined: the default). */
  readonly margin: (candidate: string, against: string) => number | undefined
  readonly serve: Serve
}

/** One round: each candidate's window rates, cycle by cycle (undefined: a window with failures). */
type RoundRates = ReadonlyMap<Named, readonly (number | undefined)[]>

/**
 * ids-in-framework: GET / without a cookie, so every request generates an ID and stores a session.
 * Every round starts one fresh server on the servers' core holding every candidate's generator, picked
 * per request by a header: one server, since idle servers side by side collect garbage in each other's
 * windows, and a fresh one, since a store grown over rounds moves the rate more than any generator. It
 * is warmed until its rate stops rising, then runs `windows` cycles of one short window per candidate
 * in a fresh order: a ratio compares windows of the same cycle, which share the machine's speed.
 */
export function idsInFramework(scenario: IdsScenario, ctx: SuiteContext): Promise<SuiteRow[]> {
  const { framework } = scenario
  const serve: Serve = (generators, body) =>
    withServers(
      [{ framework, generator: generators[0] ?? '', generators, hasher: scenario.hasher }],
      scenario.placement.serverCpu,
      ([server]) => body(server?.url as string),
    )
  return idsInServer(
    {
      ...scenario,
      name: `${framework} ids`,
      group: `ids-in-framework · ${framework}`,
      key: { setting: framework, operation: 'request' },
      path: '/',
      margin: (candidate, against) => marginOf(framework, candidate, against),
      serve,
    },
    ctx,
  )
}

/** The scenario's rounds on the servers `scenario.serve` starts, and a row per candidate. */
export async function idsInServer(scenario: ServedIds, ctx: SuiteContext): Promise<SuiteRow[]> {
  const { name, budget } = scenario
  const first = scenario.ids.find((c) => c.id === scenario.baselines[0])
  const control = scenario.control && first ? controlOf(first) : undefined
  const list = control ? [...scenario.ids, control] : [...scenario.ids]
  // The control is the first baseline's candidate again: a second instance of the same code.
  const generators = list.map((c) => (c === control ? (first as Named).id : c.id))
  const headerOf = (c: Named) => ({ [GENERATOR_HEADER]: String(list.indexOf(c)) })
  const measureRound = async (round: number): Promise<RoundRates> =>
    scenario.serve(generators, async (url) => {
      const load = openLoad(url, scenario.path, CONNECTIONS)
      try {
        ctx.progress.step(`${name} · round ${round + 1} · warm-up`)
        await warmUntilSteady(load, list.length, budget)
        ctx.progress.step(`${name} · round ${round + 1} · ${budget.windows} cycles`)
        const { rates } = await alternatingWindows(list, budget.windows, ctx.seed, round, (c) =>
          load.window(budget.windowSec, headerOf(c)),
        )
        return rates
      } finally {
        await load.close()
      }
    })
  /** Per round: the median over cycles of candidate ÷ baseline window rates of the same cycle. */
  const ratiosIn = (rounds: readonly (RoundRates | undefined)[], candidate: Named): Ratio[] =>
    (candidate === control ? scenario.baselines.slice(0, 1) : scenario.baselines).flatMap((id) => {
      const base = scenario.ids.find((c) => c.id === id)
      if (!base || (base === candidate && id !== CEILING)) return []
      const perRound = rounds.map((r) => cycleRatio(r?.get(candidate) ?? [], r?.get(base) ?? []))
      return [ratioTo(base, defined(perRound), scenario.margin(candidate.id, base.id))]
    })
  const rounds = await wholeRounds({
    budget,
    seed: ctx.seed,
    measure: measureRound,
    // A failed round (a server that would not start, a load tool that broke) leaves the others, and says so.
    onError: (error) => ctx.failed(name, message(error)),
    ratios: (rounds) => list.flatMap((c) => ratiosIn(rounds, c)),
  })
  return list.map((candidate) =>
    rowOf(scenario, candidate, rounds, ratiosIn(rounds, candidate), candidate === control),
  )
}

/** A generator's row: the median over rounds of its median window, its ratios, and the ceiling goal. */
function rowOf(
  scenario: ServedIds,
  candidate: Named,
  rounds: readonly (RoundRates | undefined)[],
  ratios: Ratio[],
  isControl: boolean,
): SuiteRow {
  const samples: RoundSample[] = rounds.flatMap((r) => {
    const windows = r?.get(candidate) ?? []
    if (windows.length === 0) return []
    const clean = defined(windows)
    return [{ value: median(clean), failures: windows.length - clean.length }]
  })
  const summary = summarizeRounds(samples)
  const ceiling = ratios.find((q) => q.against === CEILING)
  const goal =
    ceiling &&
    (candidate.id === CEILING
      ? 'is the ceiling'
      : goalText(goalVerdict(ceiling, GOAL), ceiling.rounds.length))
  const flags: Flag[] = [
    ...(candidate.id === CEILING ? [{ kind: 'ceiling' } as const] : []),
    ...(isControl ? [{ kind: 'control' } as const] : []),
    ...roundFlags(summary),
  ]
  return {
    group: scenario.group,
    key: scenario.key,
    candidate: candidate.id,
    ...(scenario.runtime ? { runtime: scenario.runtime } : {}),
    label: candidate.label,
    value: finite(summary.median),
    unit: 'req/s',
    higherIsBetter: true,
    samples: summary.cleanRounds,
    rounds: samples.filter((s) => s.failures === 0).map((s) => s.value),
    ratios,
    details: { ...(goal ? { [`≥ ${GOAL * 100} % of ceiling`]: goal } : {}), ...spreadFields(summary) },
    flags,
  }
}

/** The ids-in-framework scenario's method, said by both suites that run it. */
