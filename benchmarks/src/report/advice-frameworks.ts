/**
 * The "which to use" rows of the frameworks whose session layer is not express-session's or
 * @fastify/session's: each framework's own default (read from its code, apps/frameworks/src/defaults.ts),
 * judged by what the runs measured of it.
 */
import type { Evidence } from '../advice/evidence.js'
import type { Held } from '../stats/held.js'
import type { AdviceRow } from './advice-row.js'
import { formatNumber } from './format.js'
import { formatMagnitude, heldText } from './words.js'

const µs = (ns: number) => `${formatNumber(ns / 1000)} µs CPU per new session`

/**
 * A framework none of the runs served: its default's CPU per ID, set against @fastify/session's default,
 * whose share of a session-creating request the runs did measure inside @fastify/session.
 */
function byIdCost(e: Evidence, need: string, use: string, own: string, when: string): AdviceRow {
  const ns = e.nsPerId(own)
  const fastifyNs = e.nsPerId('ref:fastify-session')
  const fastify = e.inFramework('fastify', 'ref:fastify-session')
  const share = fastify && fastifyNs !== undefined ? (fastifyNs / 1e9) * fastify.reqs * 100 : undefined
  const why =
    ns !== undefined && fastifyNs !== undefined && share !== undefined
      ? `the default is fine: ${when}; its ID costs ${formatNumber(ns / fastifyNs)}× the CPU of @fastify/session's default, which is ${formatNumber(share)} % of a session-creating request there (not served in this framework by these runs)`
      : undefined
  return { need, use, why, cost: ns === undefined ? undefined : µs(ns), advises: [] }
}

/** NestJS mounts express-session or @fastify/session as they are: their measurement is its answer. */
function nestRow(e: Evidence): AdviceRow {
  const express = e.inFramework('express', 'ref:express-session')
  const fastify = e.inFramework('fastify', 'ref:fastify-session')
  const [expressNs, fastifyNs] = [e.nsPerId('ref:express-session'), e.nsPerId('ref:fastify-session')]
  const served = (f: typeof fastify, name: string) =>
    f ? `${formatMagnitude(f.ratio)} (${heldText(f.held)}) in ${name}` : undefined
  const parts = [served(express, 'express-session'), served(fastify, '@fastify/session')].filter(Boolean)
  return {
    need: 'session IDs in NestJS',
    use: "its adapter's default (express-session's, @fastify/session's)",
    why:
      parts.length > 0
        ? `the default is fine: NestJS mounts the session layer unchanged; authlab's fastest against the default's req/s: ${parts.join(', ')}`
        : undefined,
    cost:
      expressNs === undefined || fastifyNs === undefined
        ? undefined
        : `${formatNumber(expressNs / 1000)} µs (Express), ${formatNumber(fastifyNs / 1000)} µs (Fastify) CPU per new session`,
    advises: [],
  }
}

/** A framework served on each of its runtimes, its own default against authlab fast in the same server. */
interface Served {
  readonly need: string
  readonly framework: string
  readonly own: string
  /** The default as a reader knows it. */
  readonly name: string
  readonly runtimes: readonly string[]
}

const SERVED: readonly Served[] = [
  {
    need: 'session IDs in Hono (@hono/session)',
    framework: 'hono',
    own: 'default:hono-session',
    name: "@hono/session's default generateId",
    runtimes: ['node', 'bun', 'deno'],
  },
  {
    need: 'session IDs in Koa (koa-session)',
    framework: 'koa',
    own: 'default:koa-session',
    name: "koa-session's default genid, randomUUID()",
    runtimes: ['node'],
  },
]

/**
 * authlab fast where the runs found it better in that framework on a runtime, and the default where
 * they did not: a generator is advised for the speed it showed inside the server, nowhere else.
 */
function servedRow(e: Evidence, s: Served): AdviceRow {
  const measured = s.runtimes.flatMap((runtime) => {
    const found = e.inFramework(s.framework, s.own, runtime)
    return found ? [{ runtime, ...found }] : []
  })
  if (measured.length === 0) return { need: s.need, use: s.name, advises: [] }
  const better = measured.filter((m) => heldBetter(m.held))
  const on = (list: typeof measured) => list.map((m) => RUNTIME_NAMES[m.runtime] ?? m.runtime).join(', ')
  const figures = measured
    .map(
      (m) => `${formatMagnitude(m.ratio)} (${heldText(m.held)}) on ${RUNTIME_NAMES[m.runtime] ?? m.runtime}`,
    )
    .join(', ')
  return {
    need: s.need,
    use: better.length > 0 ? `@authlab/id-fast on ${on(better)}; elsewhere ${s.name}` : s.name,
    why: `${better.length > 0 ? 'measured faster there' : 'the default is fine'}: authlab fast against the default's session-creating req/s in the same server: ${figures}`,
    cost: `${span(measured.map((m) => m.reqs))} session-creating req/s with the default on one core`,
    advises: [],
  }
}

/** A range of figures, or the one figure when they agree. */
function span(values: readonly number[]): string {
  const [low, high] = [formatNumber(Math.min(...values)), formatNumber(Math.max(...values))]
  return low === high ? low : `${low}–${high}`
}

const RUNTIME_NAMES: Readonly<Record<string, string>> = { node: 'Node', bun: 'Bun', deno: 'Deno' }

/** Every run that measured it read it better. */
const heldBetter = (held: Held) =>
  (held.kind === 'one' || held.kind === 'all') &&
  held.reading.kind === 'ratio' &&
  held.reading.ratio.verdict === 'better'

/** The rows of NestJS, Hono, Koa, and of Nuxt (h3) and Auth.js, whose defaults are the same UUID v4 call. */
export function frameworkRows(e: Evidence): AdviceRow[] {
  return [
    nestRow(e),
    ...SERVED.map((s) => servedRow(e, s)),
    byIdCost(
      e,
      'session IDs in Nuxt (h3) and Auth.js',
      'their default, crypto.randomUUID() (122 bits)',
      'ref:randomUUID',
      'h3 makes one ID per new session, Auth.js one per sign-in',
    ),
  ]
}
