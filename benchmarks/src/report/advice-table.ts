/** The "which to use" table in words: each need's answer as src/advice/evidence.ts decides it. */
import { formatGuessRate } from '@authlab/core'
import { guessesPerLoginCost, type SettingCost } from '../advice/costs.js'
import { choices, Evidence, matchingPasses } from '../advice/evidence.js'
import { type AdvisedSetting, settingOf } from '../advice/floor.js'
import type { ResultsFile } from '../model/types.js'
import { frameworkRows } from './advice-frameworks.js'
import type { AdviceRow } from './advice-row.js'
import { formatNumber } from './format.js'
import { formatMagnitude, heldText } from './words.js'

/** The settings a choice stands for, read from its parameters. */
const advising = (...costs: readonly (SettingCost | undefined)[]): AdvisedSetting[] =>
  costs.flatMap((c) => {
    const s = c && settingOf(c.params)
    return s ? [s] : []
  })

const µs = (ns: number) => `${formatNumber(ns / 1000)} µs`
const ms = (value: number) => `${formatNumber(value)} ms`

/** The package a candidate id names, or the framework default a `ref:` id stands for. */
const packageOf = (candidate: string) => (candidate.startsWith('ref:') ? candidate.slice(4) : candidate)

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
      ? `the default is fine: its ID is ${formatNumber((ns / 1e9) * framework.reqs * 100)} % of a session-creating request, and authlab's fastest served ${formatMagnitude(framework.ratio)} its req/s (${heldText(framework.held)})`
      : undefined
  return { need, use, why, cost: ns === undefined ? undefined : `${µs(ns)} CPU per new session`, advises: [] }
}

function migrationRow(
  need: string,
  from: SettingCost | undefined,
  to: SettingCost | undefined,
  via: string,
): AdviceRow {
  if (!from || !to) return { need, use: via, advises: [] }
  const a = guessesPerLoginCost(from) as number
  const b = guessesPerLoginCost(to) as number
  return {
    need,
    advises: advising(to),
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
function answer(
  need: string,
  found: SettingCost | undefined,
  row: (found: SettingCost) => Omit<AdviceRow, 'need' | 'advises'>,
): AdviceRow {
  return found ? { need, ...row(found), advises: advising(found) } : { need, advises: [] }
}

/** The "which to use" table: one row per need, every figure from the runs. */
export function adviceRows(runs: readonly ResultsFile[]): AdviceRow[] {
  const e = new Evidence(runs)
  const { betterAuthId, betterAuthHash, server, bcrypt } = choices(e)
  return [
    idRow(e, 'express', 'express-session', "express-session's default genid", 'ref:express-session'),
    idRow(e, 'fastify', '@fastify/session', "@fastify/session's default idGenerator", 'ref:fastify-session'),
    ...frameworkRows(e),
    {
      need: 'session IDs in better-auth',
      use: "better-auth's default generateId(32)",
      why:
        betterAuthId !== undefined && betterAuthHash
          ? `the default is fine: a session is made at sign-in, beside a ${ms(betterAuthHash.cpuMsPerLogin)} password check; the ID is ${formatNumber((betterAuthId / 1e6 / betterAuthHash.cpuMsPerLogin) * 100)} % of it`
          : undefined,
      cost: betterAuthId === undefined ? undefined : `${µs(betterAuthId)} CPU per new session`,
      advises: [],
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
    migrationRow('moving users off bcrypt', bcrypt, server, '@authlab/password-context'),
    migrationRow("moving users off better-auth's scrypt", betterAuthHash, server, '@authlab/better-auth'),
  ]
}
