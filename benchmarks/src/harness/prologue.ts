import type { PasswordHasher } from '@authlab/core'
import { describeParams } from '../discover/settings.js'
import { configurationKey, knownCallMs, recordCallMs } from './call-cost.js'
import { message } from './rows.js'
import type { SuiteContext } from './suite.js'

/** What a warm-up left out for costing more than the quick cap: a name and the time a call took. */
export interface Capped {
  readonly what: string
  readonly ms: number
}

/** What a quick run left out for costing more than its cap a call (or a burst), in one note. */
export function cappedNote(capMs: number, left: readonly Capped[]): string[] {
  if (left.length === 0) return []
  const list = left.map((l) => `${l.what} (${(l.ms / 1000).toFixed(1)} s)`).join(', ')
  return [`Not run, over the ${capMs / 1000} s quick cap (--full runs them): ${list}.`]
}

/**
 * The prologue of every suite that warms its candidates before the rounds: each item prepared in turn
 * (built, warmed, sized against the cap), one that throws noted with its reason, the ones over the
 * cap named in one note. `announce` shows each warm-up as a progress step.
 */
export async function warmUp<C, P>(
  ctx: Pick<SuiteContext, 'progress'>,
  items: readonly C[],
  options: {
    readonly capMs: number
    readonly name: (item: C) => { readonly id: string; readonly label: string }
    readonly prepare: (item: C) => Promise<{ readonly plan?: P; readonly capped?: readonly Capped[] }>
    readonly announce?: boolean
  },
): Promise<{ plans: P[]; notes: string[] }> {
  const plans: P[] = []
  const notes: string[] = []
  const capped: Capped[] = []
  for (const item of items) {
    const { id, label } = options.name(item)
    if (options.announce) ctx.progress.step(`warm-up · ${label}`)
    try {
      const prepared = await options.prepare(item)
      capped.push(...(prepared.capped ?? []))
      if (prepared.plan !== undefined) plans.push(prepared.plan)
    } catch (error) {
      notes.push(`${id} failed: ${message(error)}`)
    }
  }
  return { plans, notes: [...notes, ...cappedNote(options.capMs, capped)] }
}

/**
 * A configuration's warm call in ms, shared by the suites: an earlier suite's figure when `enough` says
 * it already decides, else `time()`'s, recorded for the suites after.
 */
export async function warmCallMs(
  candidate: { readonly id: string },
  hasher: PasswordHasher,
  enough: (knownMs: number) => boolean,
  time: () => Promise<number>,
): Promise<number> {
  const key = configurationKey(candidate.id, describeParams(hasher))
  const known = knownCallMs(key)
  if (known !== undefined && enough(known)) return known
  const ms = await time()
  recordCallMs(key, ms)
  return ms
}
