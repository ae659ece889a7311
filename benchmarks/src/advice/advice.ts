import { formatGuessRate } from '@authlab/core'
import { matches } from '../model/keys.js'
import type { ResultsFile } from '../model/types.js'
import { formatNumber } from '../report/format.js'
import { formatMagnitude, heldText } from '../report/words.js'
import { heldReading } from '../stats/held.js'
import { BEST_ID } from './claims.js'
import { guessesPerLoginCost, type PooledRow, pooledRows, type SettingCost, settingCosts } from './costs.js'

/**
 * One need of the "which to use" table: what to use, why (a measured figure) and what it costs; a part
 * these runs did not measure is absent, and said so by the reporters.
 */
export interface AdviceRow {
  readonly need: string
  readonly use?: string
  readonly why?: string
  readonly cost?: string
}

const µs = (ns: number) => `${formatNumber(ns / 1000)} µs`
const ms = (value: number) => `${formatNumber(value)} ms`

/** The package a candidate id names, or the framework default a `ref:` id stands for. */
const packageOf = (candidate: string) => (candidate.startsWith('ref:') ? candidate.slice(4) : candidate)

/** What the rows the advice reads from a set of runs look like, with the lookups it needs. */
class Evidence {
  readonly rows: readonly PooledRow[]
  readonly costs: readonly SettingCost[]
  constructor(runs: readonly ResultsFile[]) {
    this.rows = pooledRows(runs)
    this.costs = settingCosts(runs)
  }
  /** CPU ns of one ID from the ids suite. */
  nsPerId(candidate: string): number | undefined {
    const v = this.rows.find((p) => matches(p.row, { suite: 'ids', candidate }))?.row.details['ns/ID (CPU)']
    return typeof v === 'number' ? v : undefined
  }
  /**
   * Inside a framework: authlab's fastest ID generator's req/s of session-creating requests as a ratio
   * to the framework's default, and the default's own req/s (one server on its core).
   */
  inFramework(
    framework: 'express' | 'fastify',
    defaultId: string,
  ): { ratio: string; reqs: number } | undefined {
    const at = (candidate: string) =>
      this.rows.find((p) => matches(p.row, { setting: framework, operation: 'request', candidate }))
    const base = at(defaultId)
    const best = at(BEST_ID)
    const q = best?.row.ratios.find((r) => r.against === defaultId)
    if (!q || !best || !base) return undefined
    // The ratio's verdict over every run that measured it, as every table of these runs says it.
    const only = (row: PooledRow['row']) => ({
      ...row,
      flags: [],
      ratios: row.ratios.filter((r) => r.against === defaultId),
    })
    const held = heldReading({ row: only(best.row), runs: best.rows.map(only), of: best.rows.length })
    return { ratio: `${formatMagnitude(q)} its req/s (${heldText(held)})`, reqs: base.median }
  }
  cost(candidate: string, params: string | RegExp): SettingCost | undefined {
    return this.costs.find(
      (c) =>
        c.candidate === candidate &&
        (typeof params === 'string' ? c.params === params : params.test(c.params)),
    )
  }
  /** The setting that lets an attacker's card make the fewest guesses per unit of the server's CPU. */
  bestTrade(among: (c: SettingCost) => boolean): SettingCost | undefined {
    const ranked = this.costs
      .filter((c) => among(c) && guessesPerLoginCost(c) !== undefined)
      .sort((a, b) => (guessesPerLoginCost(a) as number) - (guessesPerLoginCost(b) as number))
    return ranked[0]
  }
}

function trade(c: SettingCost): string {
  return `an RTX 4090 makes ${formatNumber(guessesPerLoginCost(c) as number)} guesses in the CPU time one login costs (${formatGuessRate(c.attacker?.guessesPerSecond ?? 0)} against ${ms(c.cpuMsPerLogin)})`
}

function loginCost(c: SettingCost): string {
  const stall = c.stallMs === undefined ? '' : `; a 1 ms timer waited up to ${ms(c.stallMs)}`
  return `${ms(c.cpuMsPerLogin)} CPU per login = ${formatNumber(c.loginsPerSecondPerCore)} logins/s per core${stall}`
}

/** Session IDs inside a framework: its own default, against authlab's fastest in the same server. */
function idRow(
  e: Evidence,
  server: 'express' | 'fastify',
  session: string,
  use: string,
  own: string,
): AdviceRow {
  const need = `session IDs in ${session}`
  const framework = e.inFramework(server, own)
  const ns = e.nsPerId(own)
  const why =
    framework && ns !== undefined
      ? `the default is fine: its ID is ${formatNumber((ns / 1e9) * framework.reqs * 100)} % of a session-creating request, and authlab's fastest served ${framework.ratio}`
      : undefined
  return { need, use, why, cost: ns === undefined ? undefined : `${µs(ns)} CPU per new session` }
}

/**
 * The argon2id passes that bring the attacker's rate down to `from`'s, and the server's CPU per login
 * they cost: the measured figure scaled by the passes (RFC 9106 §3.2: time is linear in t).
 */
function matchingPasses(to: SettingCost, from: SettingCost): { t: number; ms: number } | undefined {
  const s = to.attacker?.setting
  const target = from.attacker?.guessesPerSecond
  if (s?.algorithm !== 'argon2id' || !to.attacker || target === undefined) return undefined
  const t = Math.ceil((s.t * to.attacker.guessesPerSecond) / target)
  return t > s.t ? { t, ms: (to.cpuMsPerLogin * t) / s.t } : undefined
}

function migrationRow(
  need: string,
  from: SettingCost | undefined,
  to: SettingCost | undefined,
  via: string,
): AdviceRow {
  if (!from || !to) return { need, use: via }
  const a = guessesPerLoginCost(from) as number
  const b = guessesPerLoginCost(to) as number
  return {
    need,
    use: `${via}: rehash to ${to.params} at each login`,
    why: `per unit of server CPU an RTX 4090 makes ${formatNumber(a / b)}× fewer guesses against it than against ${from.params} (${formatNumber(b)} vs ${formatNumber(a)} in one login's CPU time)`,
    cost: costOfMove(to, from),
  }
}

function costOfMove(to: SettingCost, from: SettingCost): string {
  const passes = matchingPasses(to, from)
  const base = `${ms(to.cpuMsPerLogin)} per login instead of ${ms(from.cpuMsPerLogin)}`
  if (!passes) return base
  return `${base}; spend some of the saving: at t=${passes.t} (≈ ${ms(passes.ms)}, scaled) the attacker's rate is no higher than against ${from.params}`
}

/** A need's row from the setting that answers it, or "not measured" throughout. */
function answer<T>(
  need: string,
  found: T | undefined,
  row: (found: T) => Omit<AdviceRow, 'need'>,
): AdviceRow {
  return found ? { need, ...row(found) } : { need }
}

/** The "which to use" table: one row per need, every figure from the runs. */
export function adviceRows(runs: readonly ResultsFile[], portableHashers: ReadonlySet<string>): AdviceRow[] {
  const e = new Evidence(runs)
  const betterAuthId = e.nsPerId('ref:better-auth')
  const betterAuthHash = e.cost('ref:better-auth-password', /^scrypt /)
  const server = e.bestTrade((c) => c.runsOn !== 'main-thread')
  const portable = e.bestTrade((c) => portableHashers.has(c.candidate))
  const bcrypt = e.cost('@authlab/hash-bcrypt', 'bcrypt cost=10')
  return [
    idRow(e, 'express', 'express-session', "express-session's default genid", 'ref:express-session'),
    idRow(e, 'fastify', '@fastify/session', "@fastify/session's default idGenerator", 'ref:fastify-session'),
    {
      need: 'session IDs in better-auth',
      use: "better-auth's default generateId(32)",
      why:
        betterAuthId !== undefined && betterAuthHash
          ? `the default is fine: a session is made at sign-in, beside a ${ms(betterAuthHash.cpuMsPerLogin)} password check; the ID is ${formatNumber((betterAuthId / 1e6 / betterAuthHash.cpuMsPerLogin) * 100)} % of it`
          : undefined,
      cost: betterAuthId === undefined ? undefined : `${µs(betterAuthId)} CPU per new session`,
    },
    answer('password hashing on a server with cores to spare', server, (s) => ({
      use: `${packageOf(s.candidate)}, ${s.params} or more (npx authlab-bench calibrate)`,
      why: `of every setting measured, the fewest attacker guesses per unit of server CPU: ${trade(s)}`,
      cost: loginCost(s),
    })),
    answer('password hashing on one vCPU', server, (s) => ({
      use: `${packageOf(s.candidate)}, ${s.params}`,
      why: `off the event loop${s.stallMs === undefined ? '' : ` (a 1 ms timer waited up to ${ms(s.stallMs)} while it hashed)`}, and the same trade: ${formatNumber(guessesPerLoginCost(s) as number)} guesses per login's CPU time`,
      cost: `${formatNumber(s.loginsPerSecondPerCore)} logins/s for the whole machine at most`,
    })),
    answer('password hashing at the edge or in a browser', portable, (p) => ({
      use: `${packageOf(p.candidate)}, ${p.params} (${p.label}), in a worker`,
      why: `no native code; of the packages that run there, the fewest attacker guesses per unit of CPU: ${trade(p)}`,
      cost: `${loginCost(p)}${p.runsOn === 'main-thread' ? ', on the calling thread' : ''}`,
    })),
    migrationRow('moving users off bcrypt', bcrypt, server, '@authlab/password-context'),
    migrationRow("moving users off better-auth's scrypt", betterAuthHash, server, '@authlab/better-auth'),
  ]
}
