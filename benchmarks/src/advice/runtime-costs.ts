/**
 * What a login costs in each runtime of a cross-runtime run (`--runtime`): the hash suite's rows there,
 * per call, in the runtime's own process CPU (or wall time where it has no CPU clock: browsers). The
 * advice per platform and the costs table's runtime columns read these; nothing here is typed by hand.
 */
import { type AttackerEstimate, attackerEstimate, parseAttackedSetting } from '@authlab/core'
import { EDGE_REMOTE } from '../discover/settings.js'
import { paramsText, parseSettingKey } from '../model/keys.js'
import { PER_CALL, type ResultsFile, type Row } from '../model/types.js'
import { median } from '../stats/stats.js'
import { pooledRows } from './costs.js'

/** One hasher setting in one runtime: its CPU and wall ms per hash, medians over its rounds and runs. */
export interface RuntimeCost {
  readonly runtime: string
  readonly candidate: string
  readonly label: string
  readonly algorithm: string
  readonly params: Readonly<Record<string, number>>
  /** As the hash suite's rows spell it (`scrypt ln=14 r=8 p=5`): joins a runtime's cost to Node's. */
  readonly paramsText: string
  /** CPU ms of the runtime's process per hash; absent in browsers and in runs that predate it. */
  readonly cpuMs?: number
  readonly wallMs?: number
  readonly attacker?: AttackerEstimate
}

/** The runs made with `--runtime`: their rows carry the runtime that measured them. */
export const isAcrossRuntimes = (run: ResultsFile) => (run.environment.runtimes ?? []).length > 0

/** The median over runs of a per-call detail, or undefined where no run recorded it. */
function detail(rows: readonly Row[], name: string): number | undefined {
  const values = rows.flatMap((r) => {
    const v = r.details[name]
    return typeof v === 'number' && Number.isFinite(v) ? [v] : []
  })
  return values.length > 0 ? median(values) : undefined
}

/**
 * Wall ms per call from the rate itself, for runs made before the per-call details: outside workerd
 * (whose unit says CPU) a cross-runtime rate is calls per wall-clock second.
 */
function wallFromRate(rows: readonly Row[]): number | undefined {
  const wall = rows.filter((r) => !r.unit.includes('CPU') && r.value > 0)
  return wall.length > 0 ? median(wall.map((r) => 1000 / r.value)) : undefined
}

/** Every hash row measured inside a runtime, A/A controls left out. */
export function runtimeCosts(runs: readonly ResultsFile[]): RuntimeCost[] {
  return pooledRows(runs.filter(isAcrossRuntimes)).flatMap(({ row, rows }) => {
    const setting = parseSettingKey(row.key.setting)
    if (row.suite !== 'hash' || !row.runtime || row.key.operation !== 'hash' || !setting) return []
    const text = paramsText(setting.algorithm, setting.params)
    const attacked = parseAttackedSetting(text)
    const cpuMs = detail(rows, PER_CALL.cpuMs)
    const wallMs = detail(rows, PER_CALL.wallMs) ?? wallFromRate(rows)
    return [
      {
        runtime: row.runtime,
        candidate: row.candidate,
        label: row.label,
        algorithm: setting.algorithm,
        params: setting.params,
        paramsText: text,
        ...(cpuMs === undefined ? {} : { cpuMs }),
        ...(wallMs === undefined ? {} : { wallMs }),
        ...(attacked ? { attacker: attackerEstimate(attacked) } : {}),
      },
    ]
  })
}

/** A Worker's way out, measured in workerd: its CPU per login with the helper, and what the login waits. */
export interface RemoteWayOut {
  /** The setting the helper would run (OWASP's floor), as `scrypt ln=14 r=8 p=5`. */
  readonly paramsText: string
  /** CPU ms of workerd per remote call: what Cloudflare counts against the request. */
  readonly workerCpuMs: number
  /** Wall ms of the remote call on loopback, the helper's own work a cheap scrypt. */
  readonly callWallMs: number
  /** Wall ms of the same setting's scrypt done in the Worker: what the helper's work takes here. */
  readonly scryptWallMs: number
}

/** The stretch suite's workerd group (src/suites/stretch/edge-remote.ts), or undefined where not measured. */
export function remoteWayOut(runs: readonly ResultsFile[]): RemoteWayOut | undefined {
  const rows = pooledRows(runs.filter(isAcrossRuntimes)).filter(
    (p) => p.row.suite === 'stretch' && p.row.runtime === EDGE_REMOTE.runtime,
  )
  const at = (candidate: string) => rows.find((p) => p.row.candidate === candidate)
  const [local, remote] = [at(EDGE_REMOTE.local), at(EDGE_REMOTE.remote)]
  const setting = local && parseSettingKey(local.row.key.setting)
  if (!local || !remote || !setting) return undefined
  const workerCpuMs = detail(remote.rows, PER_CALL.cpuMs)
  const callWallMs = detail(remote.rows, PER_CALL.wallMs)
  const scryptWallMs = detail(local.rows, PER_CALL.wallMs)
  if (workerCpuMs === undefined || callWallMs === undefined || scryptWallMs === undefined) return undefined
  return {
    paramsText: paramsText(setting.algorithm, setting.params),
    workerCpuMs,
    callWallMs,
    scryptWallMs,
  }
}
