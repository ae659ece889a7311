import { type AttackerEstimate, attackerEstimate, parseAttackedSetting } from '@authlab/core'
import { keyText } from '../model/keys.js'
import { hasFlag, type ResultsFile, type Row } from '../model/types.js'
import { median } from '../stats/stats.js'

/** One row as the runs measured it: the latest run's row and the median of its value over the runs. */
export interface PooledRow {
  readonly row: Row
  /** The row in each run that has it, oldest first. */
  readonly rows: readonly Row[]
  readonly median: number
}

/**
 * Every row of the runs, pooled by key: runs of different suites each give their own rows, consecutive
 * runs of the same suites their median.
 */
export function pooledRows(runs: readonly ResultsFile[]): PooledRow[] {
  const byKey = new Map<string, Row[]>()
  for (const run of runs)
    for (const suite of run.suites)
      for (const row of suite.rows) {
        if (hasFlag(row, 'control')) continue
        byKey.set(keyText(row), [...(byKey.get(keyText(row)) ?? []), row])
      }
  return [...byKey.values()].map((rows) => ({
    row: rows.at(-1) as Row,
    rows,
    median: median(rows.map((r) => r.value)),
  }))
}

/** What one hasher setting costs the server per login and what it costs an attacker per guess. */
export interface SettingCost {
  readonly candidate: string
  readonly label: string
  /** As the bench records it: `argon2id m=19456 t=2 p=1`. */
  readonly params: string
  readonly runsOn: string
  /** CPU ms of one verify (a login), the median over the runs; a hash where no verify was measured. */
  readonly cpuMsPerLogin: number
  readonly measured: 'verify' | 'hash'
  /** 1000 ÷ CPU ms: what one core sustains when it does nothing else. */
  readonly loginsPerSecondPerCore: number
  /** The longest a 1 ms timer waited while this hasher ran back to back (lag suite), same parameters. */
  readonly stallMs?: number
  readonly attacker?: AttackerEstimate
}

/** A login checks a password: the verify row, else the hash row, per candidate and parameters. */
export function settingCosts(runs: readonly ResultsFile[]): SettingCost[] {
  const pooled = pooledRows(runs)
  const lag = pooled.filter((p) => p.row.suite === 'lag')
  const chosen = new Map<string, PooledRow>()
  for (const p of pooled) {
    const { row } = p
    // A cross-runtime run's rows are the runtime columns' (src/advice/runtime-costs.ts), not Node's.
    if (row.suite !== 'hash' || row.runtime || typeof row.details.params !== 'string') continue
    const { operation } = row.key
    if (operation !== 'hash' && operation !== 'verify') continue
    const key = `${row.candidate}\u0000${row.details.params}`
    const had = chosen.get(key)
    if (!had || (operation === 'verify' && had.row.key.operation !== 'verify')) chosen.set(key, p)
  }
  return [...chosen.values()].map(({ row, median: ms }) => {
    const params = row.details.params as string
    const stall = lag.find((l) => l.row.candidate === row.candidate && l.row.details.params === params)
    const setting = parseAttackedSetting(params)
    return {
      candidate: row.candidate,
      label: row.label,
      params,
      runsOn: String(row.details['runs on'] ?? ''),
      cpuMsPerLogin: ms,
      measured: row.key.operation === 'verify' ? 'verify' : 'hash',
      loginsPerSecondPerCore: 1000 / ms,
      ...(stall ? { stallMs: stall.median } : {}),
      ...(setting ? { attacker: attackerEstimate(setting) } : {}),
    }
  })
}

/**
 * Guesses one attacker card makes in the CPU time one login costs the server: the trade itself, in one
 * number. Lower is better: the setting buys more of the attacker's work per unit of the server's.
 */
export function guessesPerLoginCost(cost: SettingCost): number | undefined {
  return guessesPerLogin(cost.attacker, cost.cpuMsPerLogin)
}

/** Guesses one attacker card makes in `ms`, the time one login costs the server. */
export function guessesPerLogin(attacker: AttackerEstimate | undefined, ms: number): number | undefined {
  return attacker ? attacker.guessesPerSecond * (ms / 1000) : undefined
}
