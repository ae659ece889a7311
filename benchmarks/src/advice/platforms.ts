/**
 * Where a login runs, and what fits there: each platform's limits as its provider publishes them (with
 * the page and the date it was read), the runtime that measures it, and the rule that picks a hasher
 * from a cross-runtime run. The words are src/report/platform-table.ts's.
 */
import { getAlgorithm, owaspFloor } from '@authlab/core'
import { guessesPerLogin } from './costs.js'
import type { RuntimeCost } from './runtime-costs.js'

/** A limit and the page that states it. */
export interface Cited {
  readonly text: string
  readonly source: string
  /** When the page was read or last updated, as it says. */
  readonly date: string
}

export interface Platform {
  readonly name: string
  /**
   * The runtime columns that measure it, in order of preference (the first measured one is used); with
   * `every`, a setting must run in all of them and costs the most any of them measured.
   */
  readonly runtimes: readonly string[]
  readonly every?: boolean
  /** CPU time where the runtime reads it (what the platform counts); wall time in a browser. */
  readonly clock: 'cpu' | 'wall'
  /** The most a login may spend, in ms of the clock above; absent where the platform sets none. */
  readonly timeLimitMs?: number
  /** The memory one request may use, bytes; absent where it sets none a hash could reach. */
  readonly memoryBytes?: number
  readonly limit: Cited
  /** Why the platform refuses a setting that runs in its local runtime, or undefined. */
  readonly refuses?: (cost: RuntimeCost) => string | undefined
}

const MB = 1_000_000
/** The hash length the memory estimate assumes: the hashers' 32-byte keys. */
const KEY_BYTES = 32

// cloudflare/workerd src/workerd/io/limit-enforcer.h (main, August 2026): DEFAULT_MAX_PBKDF2_ITERATIONS
// and DEFAULT_MAX_SCRYPT_COST, enforced by Cloudflare's production for Web Crypto and node:crypto alike
// (src/workerd/api/crypto/impl.c++, checkPbkdfLimits); the open-source workerd lifts the PBKDF2 one
// (src/workerd/server/server.c++), so a local run succeeds where a deployed Worker throws.
const WORKERS_PBKDF2_MAX = 100_000
const WORKERS_SCRYPT_MAX = 2 ** 20

/** What Cloudflare's Workers refuse though local workerd runs it: PBKDF2 above 100,000, scrypt above 2^20. */
export function workersRefuse(cost: RuntimeCost): string | undefined {
  const { algorithm, params } = cost
  if (algorithm.startsWith('pbkdf2') && (params.iterations ?? 0) > WORKERS_PBKDF2_MAX)
    return `Cloudflare's production refuses PBKDF2 above ${WORKERS_PBKDF2_MAX.toLocaleString('en-US')} iterations, through Web Crypto and node:crypto alike (https://github.com/cloudflare/workerd/issues/1346; src/workerd/io/limit-enforcer.h), whose floor is ${owaspFloor(algorithm, params).row}; local workerd does not enforce it, so it passes tests and fails when deployed`
  if (algorithm === 'scrypt') {
    const cost = 2 ** (params.ln ?? 0) * (params.r ?? 0) * (params.p ?? 0)
    if (cost > WORKERS_SCRYPT_MAX)
      return `workerd refuses scrypt above N·r·p = 2^20 (src/workerd/io/limit-enforcer.h, DEFAULT_MAX_SCRYPT_COST)`
  }
  return undefined
}

const WORKERS_LIMITS = 'https://developers.cloudflare.com/workers/platform/limits/'

export const PLATFORMS: readonly Platform[] = [
  {
    name: 'Cloudflare Workers Free',
    runtimes: ['workerd'],
    clock: 'cpu',
    timeLimitMs: 10,
    memoryBytes: 128 * MB,
    limit: { text: '10 ms CPU, 128 MB a request', source: WORKERS_LIMITS, date: 'read December 2026' },
    refuses: workersRefuse,
  },
  {
    name: 'Cloudflare Workers Paid',
    runtimes: ['workerd'],
    clock: 'cpu',
    timeLimitMs: 30_000,
    memoryBytes: 128 * MB,
    limit: {
      text: '30 s CPU a request by default (up to 5 min), 128 MB',
      source: WORKERS_LIMITS,
      date: 'read December 2026',
    },
    refuses: workersRefuse,
  },
  {
    name: 'Deno Deploy',
    runtimes: ['deno'],
    clock: 'cpu',
    memoryBytes: 512 * MB,
    limit: {
      text: '512 MB; no CPU limit a request stated',
      source: 'https://docs.deno.com/deploy/pricing_and_limits',
      date: 'read December 2026',
    },
  },
  {
    name: 'Bun on a server',
    runtimes: ['bun'],
    clock: 'cpu',
    limit: { text: 'none: your own cores', source: '', date: '' },
  },
  {
    name: 'Vercel Functions, Node.js 24',
    runtimes: ['node24'],
    clock: 'cpu',
    timeLimitMs: 300_000,
    memoryBytes: 2_000 * MB,
    limit: {
      text: '300 s a request by default, 2 GB on Hobby (4 GB Pro)',
      source: 'https://vercel.com/docs/functions/limitations',
      date: 'last updated 18 December 2025',
    },
  },
  {
    name: 'the browser',
    runtimes: ['chromium', 'firefox'],
    every: true,
    clock: 'wall',
    limit: { text: "none: the user's device pays", source: '', date: '' },
  },
]

/** A setting measured where the platform runs: what a login costs there, by the platform's clock. */
export interface Measured {
  readonly cost: RuntimeCost
  readonly ms: number
  readonly runtime: string
}

export type PlatformChoice =
  | { readonly kind: 'not-measured'; readonly platform: Platform }
  /** `pick` fits the limit: of those that do, the fewest attacker guesses per login's cost. */
  | {
      readonly kind: 'fits'
      readonly platform: Platform
      readonly pick: Measured
      readonly refused: readonly string[]
    }
  /** Nothing at the floor fits: `pick` is the one that costs least. */
  | {
      readonly kind: 'nothing-fits'
      readonly platform: Platform
      readonly pick: Measured
      readonly refused: readonly string[]
    }

/** Each setting measured in the platform's runtimes, costed by its clock (see `every`). */
function measuredOn(platform: Platform, costs: readonly RuntimeCost[]): Measured[] {
  const msOf = (c: RuntimeCost) => (platform.clock === 'cpu' ? c.cpuMs : c.wallMs)
  const present = platform.runtimes.filter((r) => costs.some((c) => c.runtime === r && msOf(c) !== undefined))
  const used = platform.every
    ? present.length === platform.runtimes.length
      ? present
      : []
    : present.slice(0, 1)
  const first = used[0]
  if (first === undefined) return []
  return costs
    .filter((c) => c.runtime === first && msOf(c) !== undefined)
    .flatMap((cost) => {
      const same = used.map((r) =>
        costs.find(
          (c) => c.runtime === r && c.candidate === cost.candidate && c.paramsText === cost.paramsText,
        ),
      )
      const ms = same.map((c) => (c ? msOf(c) : undefined))
      if (ms.some((m) => m === undefined)) return []
      const worst = Math.max(...(ms as number[]))
      return [{ cost, ms: worst, runtime: used[ms.indexOf(worst)] as string }]
    })
}

/** At or above OWASP's floor, within the platform's memory, and not refused there. */
function eligible(platform: Platform, m: Measured, refused: string[]): boolean {
  const { algorithm, params } = m.cost
  if (!owaspFloor(algorithm, params).meets) return false
  const memory = getAlgorithm(algorithm).work(params, KEY_BYTES).memoryBytes
  if (platform.memoryBytes !== undefined && memory >= platform.memoryBytes) return false
  const why = platform.refuses?.(m.cost)
  if (why !== undefined) refused.push(why)
  return why === undefined
}

/**
 * The rule: of the settings measured in the platform's runtime that meet OWASP's floor, fit its memory
 * and are not refused there, those within its time limit; of them, the one against which an RTX 4090
 * makes the fewest guesses in the time a login costs there. Where none is within the limit, the one
 * that costs least, said so.
 */
export function choosePlatform(platform: Platform, costs: readonly RuntimeCost[]): PlatformChoice {
  const refused: string[] = []
  const candidates = measuredOn(platform, costs).filter((m) => eligible(platform, m, refused))
  const reasons = [...new Set(refused)]
  if (candidates.length === 0) return { kind: 'not-measured', platform }
  const limit = platform.timeLimitMs ?? Number.POSITIVE_INFINITY
  const fitting = candidates.filter((m) => m.ms <= limit && m.cost.attacker)
  const trade = (m: Measured) => guessesPerLogin(m.cost.attacker, m.ms) ?? Number.POSITIVE_INFINITY
  const best = [...fitting].sort((a, b) => trade(a) - trade(b))[0]
  if (best) return { kind: 'fits', platform, pick: best, refused: reasons }
  const cheapest = [...candidates].sort((a, b) => a.ms - b.ms)[0] as Measured
  return { kind: 'nothing-fits', platform, pick: cheapest, refused: reasons }
}

export const platformChoices = (costs: readonly RuntimeCost[]) =>
  PLATFORMS.map((p) => choosePlatform(p, costs))
