/**
 * What the "which to use" advice rests on, decided from a set of runs: each need's measured figures and
 * the setting that answers it. src/report/advice-table.ts says it.
 */
import { matches } from '../model/keys.js'
import type { Ratio, ResultsFile, Row } from '../model/types.js'
import { type Held, heldReading } from '../stats/held.js'
import { BEST_ID } from './claims.js'
import { guessesPerLoginCost, type PooledRow, pooledRows, type SettingCost, settingCosts } from './costs.js'
import { meetsFloor, settingOf } from './floor.js'

/** Inside a framework: authlab's fastest generator against the framework's default, held over the runs. */
export interface InFramework {
  readonly ratio: Ratio
  readonly held: Held
  /** The default's own req/s (one server on its core). */
  readonly reqs: number
}

/** The argon2id passes that bring the attacker's rate down to another setting's, and what they cost. */
export interface Passes {
  readonly t: number
  readonly ms: number
}

/** The rows the advice reads from a set of runs, with the lookups and choices it needs. */
export class Evidence {
  readonly rows: readonly PooledRow[]
  readonly costs: readonly SettingCost[]
  constructor(runs: readonly ResultsFile[]) {
    this.rows = pooledRows(runs)
    this.costs = settingCosts(runs)
  }
  /** CPU ns of one ID from the ids suite. */
  nsPerId(candidate: string): number | undefined {
    const v = this.rows.find((p) => matches(p.row, { suite: 'ids', candidate, runtime: undefined }))?.row
      .details['ns/ID (CPU)']
    return typeof v === 'number' ? v : undefined
  }
  /**
   * Session-creating req/s inside a framework: authlab's fastest as a ratio to the framework's default.
   * `runtime`: the runtime its server ran on, for the suites that serve one framework on several.
   */
  inFramework(framework: string, defaultId: string, runtime?: string): InFramework | undefined {
    const at = (candidate: string) =>
      this.rows.find((p) => matches(p.row, { setting: framework, operation: 'request', candidate, runtime }))
    const [base, best] = [at(defaultId), at(BEST_ID)]
    const ratio = best?.row.ratios.find((r) => r.against === defaultId)
    if (!ratio || !best || !base) return undefined
    // The ratio's verdict over every run that measured it, as every table of these runs says it.
    const only = (row: Row) => ({
      ...row,
      flags: [],
      ratios: row.ratios.filter((r) => r.against === defaultId),
    })
    const held = heldReading({ row: only(best.row), runs: best.rows.map(only), of: best.rows.length })
    return { ratio, held, reqs: base.median }
  }
  cost(candidate: string, params: string | RegExp): SettingCost | undefined {
    return this.costs.find(
      (c) =>
        c.candidate === candidate &&
        (typeof params === 'string' ? c.params === params : params.test(c.params)),
    )
  }
  /**
   * Of the settings at or above OWASP's floor, the one that lets an attacker's card make the fewest
   * guesses per unit of the server's CPU.
   */
  bestTrade(among: (c: SettingCost) => boolean): SettingCost | undefined {
    return this.costs
      .filter((c) => among(c) && atFloor(c) && guessesPerLoginCost(c) !== undefined)
      .sort((a, b) => (guessesPerLoginCost(a) as number) - (guessesPerLoginCost(b) as number))[0]
  }
}

/**
 * The argon2id passes that bring the attacker's rate down to `from`'s, and the server's CPU per login
 * they cost: the measured figure scaled by the passes (RFC 9106 §3.2: time is linear in t).
 */
export function matchingPasses(to: SettingCost, from: SettingCost): Passes | undefined {
  const s = to.attacker?.setting
  const target = from.attacker?.guessesPerSecond
  if (s?.algorithm !== 'argon2id' || !to.attacker || target === undefined) return undefined
  const t = Math.ceil((s.t * to.attacker.guessesPerSecond) / target)
  return t > s.t ? { t, ms: (to.cpuMsPerLogin * t) / s.t } : undefined
}

/** Whether a measured setting meets OWASP's floor. */
const atFloor = (c: SettingCost) => {
  const s = settingOf(c.params)
  return s !== undefined && meetsFloor(s)
}

/** The settings each need is answered with: the best trade on a server, and what users move off. */
export function choices(e: Evidence) {
  return {
    server: e.bestTrade((c) => c.runsOn !== 'main-thread'),
    bcrypt: e.cost('@authlab/hash-bcrypt', 'bcrypt cost=10'),
    betterAuthHash: e.cost('ref:better-auth-password', /^scrypt /),
    betterAuthId: e.nsPerId('ref:better-auth'),
  }
}
