/**
 * The settings the advice names, each where it was measured: what the trade-off chart draws and labels
 * (the server's pick, the settings users are moved off, each platform's pick), with every other
 * setting measured on Node as unlabelled context.
 */
import type { ResultsFile } from '../model/types.js'
import { settingCosts } from './costs.js'
import { choices, Evidence } from './evidence.js'
import { platformChoices } from './platforms.js'
import { runtimeCosts } from './runtime-costs.js'

export type PickRole = 'advised' | 'moved-off' | 'measured'

export interface ChartPick {
  readonly candidate: string
  /** The hasher's display label. */
  readonly label: string
  /** `argon2id m=19456 t=2 p=1`. */
  readonly params: string
  /** Where the figure was measured: `node`, or a runtime id of a cross-runtime run. */
  readonly runtime: string
  /** What names it: a need of the advice, or a platform; empty for context points. */
  readonly for: readonly string[]
  readonly ms: number
  readonly guessesPerSecond: number
  readonly role: PickRole
}

const keyOf = (p: Pick<ChartPick, 'candidate' | 'params' | 'runtime'>) =>
  `${p.candidate}\u0000${p.params}\u0000${p.runtime}`

/** One point per package, setting and runtime the advice names (their needs merged), then the rest of Node's. */
export function chartPicks(runs: readonly ResultsFile[]): ChartPick[] {
  const e = new Evidence(runs)
  const c = choices(e)
  const picks = new Map<string, ChartPick>()
  const add = (p: ChartPick) => {
    const had = picks.get(keyOf(p))
    if (!had) picks.set(keyOf(p), p)
    else if (had.role === p.role) picks.set(keyOf(p), { ...had, for: [...had.for, ...p.for] })
  }
  const node = (cost: typeof c.server, role: PickRole, why: string) => {
    if (!cost?.attacker) return
    add({
      candidate: cost.candidate,
      label: cost.label,
      params: cost.params,
      runtime: 'node',
      for: [why],
      ms: cost.cpuMsPerLogin,
      guessesPerSecond: cost.attacker.guessesPerSecond,
      role,
    })
  }
  node(c.server, 'advised', 'a server')
  for (const choice of platformChoices(runtimeCosts(runs))) {
    if (choice.kind !== 'fits') continue
    const { cost, ms, runtime } = choice.pick
    if (!cost.attacker) continue
    const { candidate, label, paramsText: params } = cost
    const guessesPerSecond = cost.attacker.guessesPerSecond
    add({
      candidate,
      label,
      params,
      runtime,
      for: [choice.platform.name],
      ms,
      guessesPerSecond,
      role: 'advised',
    })
  }
  node(c.bcrypt, 'moved-off', 'moved off')
  node(c.betterAuthHash, 'moved-off', 'moved off')
  for (const cost of settingCosts(runs)) {
    const { candidate, label, params, attacker } = cost
    if (!attacker || picks.has(keyOf({ candidate, params, runtime: 'node' }))) continue
    const ms = cost.cpuMsPerLogin
    const guessesPerSecond = attacker.guessesPerSecond
    add({ candidate, label, params, runtime: 'node', for: [], ms, guessesPerSecond, role: 'measured' })
  }
  return [...picks.values()]
}
