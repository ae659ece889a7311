/**
 * No advice below OWASP's floor: every setting a row of the advice names is checked with core's
 * `owaspFloor` (the Password Storage Cheat Sheet's rows), and the choices only ever pick among settings
 * that meet it. A setting the advice moves users off (better-auth's scrypt) is named, not advised.
 */
import { owaspFloor } from '@authlab/core'

/** An algorithm at parameters, as a piece of advice names it. */
export interface AdvisedSetting {
  readonly algorithm: string
  readonly params: Readonly<Record<string, number>>
}

/** A setting as the hash suite spells it (`argon2id m=19456 t=2 p=1`), read back; undefined for anything else. */
export function settingOf(text: string): AdvisedSetting | undefined {
  const [algorithm, ...pairs] = text.trim().split(/\s+/)
  if (!algorithm || pairs.length === 0) return undefined
  const params: Record<string, number> = {}
  for (const pair of pairs) {
    const [key, value] = pair.split('=')
    if (!key || value === undefined || !/^\d+$/.test(value)) return undefined
    params[key] = Number(value)
  }
  return { algorithm, params }
}

/** Whether a setting meets OWASP's floor; an algorithm the sheet gives no floor for does not. */
export function meetsFloor(setting: AdvisedSetting): boolean {
  try {
    return owaspFloor(setting.algorithm, setting.params).meets
  } catch {
    return false
  }
}

/** Each advised setting below the floor, as "<need>: <setting>: <why>"; empty when every one meets it. */
export function belowFloor(
  rows: readonly { readonly need: string; readonly advises: readonly AdvisedSetting[] }[],
): string[] {
  return rows.flatMap((row) =>
    row.advises.flatMap((s) => {
      if (meetsFloor(s)) return []
      let why: string
      try {
        why = owaspFloor(s.algorithm, s.params).reason ?? 'below the floor'
      } catch (error) {
        why = (error as Error).message
      }
      return [`${row.need}: ${s.algorithm} ${JSON.stringify(s.params)}: ${why}`]
    }),
  )
}
