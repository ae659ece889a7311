/**
 * The advice per platform in words: src/advice/platforms.ts decides each row (the rule is said once,
 * under the table), src/advice/runtime-costs.ts measures the way out where nothing fits.
 */
import { OWASP_SCRYPT_ROWS, owaspFloor } from '@authlab/core'
import { settingCosts } from '../advice/costs.js'
import { type AdvisedSetting, settingOf } from '../advice/floor.js'
import { type Cited, PLATFORMS, type PlatformChoice, platformChoices } from '../advice/platforms.js'
import { type RemoteWayOut, remoteWayOut, runtimeCosts } from '../advice/runtime-costs.js'
import type { ResultsFile } from '../model/types.js'
import { formatNumber } from './format.js'

export const PLATFORM_COLUMNS = [
  'where the login runs',
  'its limit',
  "use (at or above OWASP's floor)",
  'ms per login, measured in',
  'fits',
] as const

/** One platform's row, and the setting it advises (for the floor test). */
export interface PlatformRow {
  readonly need: string
  /** Whether these runs measured anything where it runs. */
  readonly measured: boolean
  readonly cells: readonly string[]
  readonly advises: readonly AdvisedSetting[]
}

const NOT_MEASURED = 'not measured in these runs'
const RUNTIME_NAMES: Readonly<Record<string, string>> = {
  workerd: 'workerd',
  deno: 'Deno',
  bun: 'Bun',
  node24: 'Node 24',
  chromium: 'Chromium',
  firefox: 'Firefox',
}
const packageOf = (candidate: string) => (candidate.startsWith('ref:') ? candidate.slice(4) : candidate)

/** Where each platform's limits are published, one line each, once under the table. */
export function limitSources(): string {
  const seen = new Map<string, Cited>()
  for (const p of PLATFORMS) if (p.limit.source) seen.set(p.limit.source, p.limit)
  return `Limits as published: ${[...seen.values()].map((l) => `${l.source} (${l.date})`).join('; ')}.`
}

function rowOf(choice: PlatformChoice): PlatformRow {
  const { platform } = choice
  const need = platform.name
  const limit = platform.limit.text
  if (choice.kind === 'not-measured')
    return { need, measured: false, cells: [need, limit, NOT_MEASURED, '', ''], advises: [] }
  const { cost, ms, runtime } = choice.pick
  const clock = platform.clock === 'cpu' ? 'CPU' : 'wall'
  const what = `${packageOf(cost.candidate)}, ${cost.paramsText}`
  const fits = choice.kind === 'fits' ? 'yes' : 'no'
  const use = choice.kind === 'fits' ? what : `nothing at the floor fits; the least CPU: ${what}`
  return {
    need,
    measured: true,
    cells: [need, limit, use, `${formatNumber(ms)} (${clock}, ${RUNTIME_NAMES[runtime] ?? runtime})`, fits],
    // A platform where nothing fits advises no setting of its own: its way out is said under the table.
    advises: choice.kind === 'fits' ? [{ algorithm: cost.algorithm, params: cost.params }] : [],
  }
}

/** Every platform's row, from the cross-runtime runs among `runs`. */
export function platformRows(runs: readonly ResultsFile[]): PlatformRow[] {
  return platformChoices(runtimeCosts(runs)).map(rowOf)
}

/** Where nothing fits, one plain sentence, and the way out, measured. */
function wayOutLine(
  choice: PlatformChoice,
  way: RemoteWayOut | undefined,
  paid: PlatformChoice | undefined,
): string {
  const { platform } = choice
  const limit =
    platform.timeLimitMs === undefined ? '' : ` in ${formatNumber(platform.timeLimitMs)} ms of CPU`
  const remote = way
    ? `hand the hash to apps/stretch-helper through @authlab/stretch-remote: the Worker then spends ${formatNumber(way.workerCpuMs)} ms of CPU per login (measured in workerd), and the login waits for the helper's scrypt (${way.paramsText}: ${formatNumber(way.scryptWallMs)} ms here) plus the call, ${formatNumber(way.callWallMs)} ms on loopback; a real deployment adds its network's round trip`
    : 'hand the hash to apps/stretch-helper through @authlab/stretch-remote (not measured in these runs)'
  const paidText =
    paid?.kind === 'fits'
      ? `, or ${paid.platform.name} (${paid.platform.limit.text})`
      : paid
        ? `, or ${paid.platform.name}`
        : ''
  return `**${platform.name}**: nothing at OWASP's floor fits${limit}. The way out: ${remote}${paidText}.`
}

/** The sentences under the table: each platform where nothing fits, and each refusal it met. */
export function platformNotes(runs: readonly ResultsFile[]): string[] {
  const choices = platformChoices(runtimeCosts(runs))
  const way = remoteWayOut(runs)
  const fits = choices.find((c) => c.kind === 'fits' && c.platform.runtimes.join() === 'workerd')
  const lines = choices.filter((c) => c.kind === 'nothing-fits').map((c) => wayOutLine(c, way, fits))
  const refusals = new Map<string, string[]>()
  for (const c of choices)
    if (c.kind !== 'not-measured')
      for (const r of c.refused) refusals.set(r, [...(refusals.get(r) ?? []), c.platform.name])
  for (const [reason, names] of refusals) lines.push(`**Never advised on ${names.join(' or ')}**: ${reason}.`)
  return lines
}

/**
 * better-auth's default scrypt against OWASP's scrypt floor, with the numbers, and what @authlab/better-auth
 * moves users to: from the runs' better-auth reference and the server choice.
 */
export function betterAuthFloorLine(
  runs: readonly ResultsFile[],
  movesTo: string | undefined,
): string | undefined {
  const own = settingCosts(runs).find((c) => c.candidate === 'ref:better-auth-password')
  const setting = own && settingOf(own.params)
  if (setting?.algorithm !== 'scrypt') return undefined
  const { ln, r, p } = setting.params as { ln: number; r: number; p: number }
  const work = 2 ** ln * r * p
  const weakest = OWASP_SCRYPT_ROWS[OWASP_SCRYPT_ROWS.length - 1] as { ln: number; p: number }
  const floor = 2 ** weakest.ln * 8 * weakest.p
  if (owaspFloor('scrypt', setting.params).meets) return undefined
  const to = movesTo ? ` @authlab/better-auth moves each user to ${movesTo} at their next login.` : ''
  return `**better-auth's default is below OWASP's floor**: its scrypt N=2^${ln} r=${r} p=${p} does N·r·p = ${work.toLocaleString('en-US')}, where OWASP's scrypt rows need ${floor.toLocaleString('en-US')} for the weakest of them (N=2^${weakest.ln} r=8 p=${weakest.p}): ${formatNumber(floor / work)}× less work per guess.${to}`
}
