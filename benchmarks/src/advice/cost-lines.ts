/**
 * The costs table as data: one line per hasher setting, its CPU per login on Node (the default runs'
 * verify, else a hash) and in the other runtimes a reader plans for (a cross-runtime run's CPU per
 * hash), each cell a figure, a stated absence or "not measured"; and what each referenced GPU costs
 * an attacker. src/report/costs-table.ts says it.
 */
import { type CardEstimate, cardEstimates, parseAttackedSetting } from '@authlab/core'
import { type RuntimeClaim, whyNotIn } from '../discover/runtime-claims.js'
import type { ResultsFile } from '../model/types.js'
import { type SettingCost, settingCosts } from './costs.js'
import { meetsFloor, settingOf } from './floor.js'
import { isAcrossRuntimes, type RuntimeCost, runtimeCosts } from './runtime-costs.js'

/** The runtime columns of the costs table beside Node's: the two a reader cannot read off Node. */
export const RUNTIME_COLUMNS = ['bun', 'workerd'] as const

/** One runtime's cell: its CPU ms per hash, why the hasher does not run there, or no figure in these runs. */
export type RuntimeCell =
  | { readonly kind: 'ms'; readonly ms: number }
  | { readonly kind: 'absent'; readonly reason: string }
  | { readonly kind: 'not-measured' }

export interface CostLine {
  readonly candidate: string
  readonly label: string
  /** As the hash suite spells it: `argon2id m=19456 t=2 p=1`. */
  readonly params: string
  readonly meetsFloor: boolean
  readonly runsOn: string
  /** Node's CPU ms per login: the default runs' (verify, else hash), else the cross-runtime run's node column. */
  readonly node?: { readonly ms: number; readonly measured: 'verify' | 'hash' }
  /** Why Node has no figure, where it is stated (a runtime's own API, such as Bun.password). */
  readonly nodeAbsent?: string
  readonly runtimes: Readonly<Record<(typeof RUNTIME_COLUMNS)[number], RuntimeCell>>
  readonly stallMs?: number
  /** The RTX 4090 estimate of core's attacker references: the one every "guesses per login" uses. */
  readonly attacker?: SettingCost['attacker']
  /** Each referenced card with a published figure for the algorithm, and its rented cost. */
  readonly cards: readonly CardEstimate[]
}

const lineKey = (candidate: string, params: string) => `${candidate}\u0000${params}`

/** Why a candidate has no figure in `runtime`: its manifest's reason, a reference's place, or none known. */
function absence(
  candidate: string,
  algorithm: string | undefined,
  runtime: string,
  claims: ReadonlyMap<string, RuntimeClaim>,
): RuntimeCell {
  if (candidate.startsWith('ref:'))
    return { kind: 'absent', reason: 'a reference measured only where it is built in' }
  const claim = claims.get(candidate)
  const why = claim && whyNotIn(claim, runtime, algorithm)
  return why === undefined ? { kind: 'not-measured' } : { kind: 'absent', reason: why }
}

/** A runtime's cell for one line, from the cross-runtime runs' costs. */
function runtimeCell(
  line: { candidate: string; params: string },
  runtime: string,
  ctx: { costs: readonly RuntimeCost[]; ran: ReadonlySet<string>; claims: ReadonlyMap<string, RuntimeClaim> },
): RuntimeCell {
  const found = ctx.costs.find(
    (c) => c.runtime === runtime && c.candidate === line.candidate && c.paramsText === line.params,
  )
  if (found?.cpuMs !== undefined) return { kind: 'ms', ms: found.cpuMs }
  if (found || !ctx.ran.has(runtime)) return { kind: 'not-measured' }
  return absence(line.candidate, settingOf(line.params)?.algorithm, runtime, ctx.claims)
}

/** Every setting of the runs, Node's first, then those only a cross-runtime run measured; sorted by algorithm and cost. */
export function costLines(
  runs: readonly ResultsFile[],
  claims: ReadonlyMap<string, RuntimeClaim>,
): CostLine[] {
  const node = settingCosts(runs)
  const costs = runtimeCosts(runs)
  const ran = new Set(
    runs.filter(isAcrossRuntimes).flatMap((r) => (r.environment.runtimes ?? []).map((x) => x.id)),
  )
  const ctx = { costs, ran, claims }
  const seen = new Set(node.map((c) => lineKey(c.candidate, c.params)))
  const onlyAcross = new Map<string, RuntimeCost>()
  for (const c of costs)
    if (!seen.has(lineKey(c.candidate, c.paramsText)) && !onlyAcross.has(lineKey(c.candidate, c.paramsText)))
      onlyAcross.set(lineKey(c.candidate, c.paramsText), c)
  const lines = [
    ...node.map((c) => ({
      candidate: c.candidate,
      label: c.label,
      params: c.params,
      runsOn: c.runsOn,
      node: { ms: c.cpuMsPerLogin, measured: c.measured },
      ...(c.stallMs === undefined ? {} : { stallMs: c.stallMs }),
    })),
    ...[...onlyAcross.values()].map((c) => {
      const own = costs.find(
        (x) => x.runtime === 'node' && x.candidate === c.candidate && x.paramsText === c.paramsText,
      )
      const absent = ran.has('node') ? absence(c.candidate, c.algorithm, 'node', claims) : undefined
      return {
        candidate: c.candidate,
        label: c.label,
        params: c.paramsText,
        runsOn: '',
        ...(own?.cpuMs !== undefined
          ? { node: { ms: own.cpuMs, measured: 'hash' as const } }
          : absent?.kind === 'absent'
            ? { nodeAbsent: absent.reason }
            : {}),
      }
    }),
  ]
  return lines
    .map((line): CostLine => {
      const attacked = parseAttackedSetting(line.params)
      const setting = settingOf(line.params)
      const cards = attacked ? cardEstimates(attacked) : []
      return {
        ...line,
        meetsFloor: setting !== undefined && meetsFloor(setting),
        runtimes: { bun: runtimeCell(line, 'bun', ctx), workerd: runtimeCell(line, 'workerd', ctx) },
        ...(cards[0] ? { attacker: cards[0].estimate } : {}),
        cards,
      }
    })
    .sort(
      (a, b) =>
        a.params.localeCompare(b.params) ||
        (a.node?.ms ?? Number.POSITIVE_INFINITY) - (b.node?.ms ?? Number.POSITIVE_INFINITY),
    )
}
