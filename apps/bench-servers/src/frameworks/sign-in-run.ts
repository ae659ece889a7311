import { randomBytes } from 'node:crypto'
import {
  limitFlags,
  median,
  ratioTo,
  type SuiteContext,
  type SuiteRow,
  shuffledRounds,
  summarizeRatio,
  wholeRounds,
} from '@authlab/benchmarks/harness'
import { openPostgresSchema, type PostgresSchema } from '@authlab/frameworks/postgres'
import type { SignInBudget } from '../budget.js'
import { load } from '../http/load.js'
import { finite, type RoundSample, roundFlags, spreadFields, summarizeRounds } from '../http/rounds.js'
import type { Placement } from '../http/servers.js'
import {
  type RuntimeServer,
  runtimeCommand,
  type ServerRuntime,
  startRuntimeServer,
} from './runtime-server.js'

/** The runtimes better-auth on Hono is measured on. */
export const SIGN_IN_RUNTIMES: readonly ServerRuntime[] = ['node', 'bun']

/** OWASP Password Storage Cheat Sheet's argon2id, @authlab/hash-argon2's defaults: m = 19 MiB, t = 2, p = 1. */
export const ARGON2 = { m: 19456, t: 2, p: 1 } as const

/** One hasher better-auth signs in with, named as the bench names it elsewhere. */
export interface SignInHasher {
  readonly id: string
  readonly label: string
  /** runtime-main's `betterAuth.hasher`. */
  readonly hasher: 'argon2id' | 'better-auth'
  readonly params: string
}

/** better-auth's own default first: the baseline argon2id is divided by. */
export const SIGN_IN_HASHERS: readonly [SignInHasher, SignInHasher] = [
  {
    id: 'ref:better-auth-password',
    label: "better-auth's default scrypt",
    hasher: 'better-auth',
    // @better-auth/utils password: N = 16384, r = 16, p = 1, 64-byte key.
    params: 'scrypt N=16384 r=16 p=1',
  },
  {
    id: '@authlab/better-auth',
    label: '@authlab/better-auth argon2id',
    hasher: 'argon2id',
    params: `argon2id m=${ARGON2.m} t=${ARGON2.t} p=${ARGON2.p}`,
  },
]

const DATABASE = 'postgres://postgres@127.0.0.1:5432/test'
const SECRET = 'authlab-bench-sign-in-suite-secret-32+chars'
export const SIGN_IN_PATH = '/api/auth/sign-in/email'
const USER = { email: 'bench@example.org', password: 'correct horse battery staple', name: 'Bench' }

/**
 * Sign-ins on 4 connections, as the login scenario's: enough to keep libuv's 4 threads busy. better-auth
 * refuses a POST without an Origin it trusts (403 MISSING_OR_NULL_ORIGIN, its CSRF check), so each
 * request carries the server's own origin, as a browser on the app's page sends it.
 */
const CONNECTIONS = 4
const signInLoad = (url: string) =>
  ({
    path: SIGN_IN_PATH,
    method: 'POST',
    body: JSON.stringify({ email: USER.email, password: USER.password }),
    headers: { origin: new URL(url).origin },
    connections: CONNECTIONS,
  }) as const

/** A server of one hasher with its schema, its limit and its sign-ins per round. */
interface Served {
  readonly hasher: SignInHasher
  readonly server: RuntimeServer
  readonly db: PostgresSchema
  /** cores ÷ one verify's ms: the sign-ins/s of a server that does nothing but verify. */
  readonly limitPerSec: number
  readonly signIns: number
}

/** One round: each hasher's rate (failures marked) and its server's CPU ms per sign-in. */
type Round = ReadonlyMap<string, { readonly sample: RoundSample; readonly cpuMs: number | undefined }>

/** A schema of its own per server, dropped afterwards: runs sharing the database never meet. */
const schemaName = (runtime: string, hasher: SignInHasher) =>
  `authlab_bench_signin_${runtime}_${hasher.hasher.replace('-', '_')}_${process.pid}_${randomBytes(4).toString('hex')}`

/** Signs the bench user up over HTTP, as an app's user would be: one hash, before any sign-in. */
async function signUp(url: string): Promise<void> {
  const response = await fetch(new URL('/api/auth/sign-up/email', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(url).origin },
    body: JSON.stringify(USER),
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`sign-up answered ${response.status}: ${text.slice(0, 200)}`)
}

/**
 * Starts one server per hasher, one after the other (each times its verify alone on the servers' core
 * before it serves), each on a schema of its own with the bench user signed up; stops what started if
 * one fails.
 */
async function startServers(
  runtime: { command: string; args: readonly string[] },
  id: ServerRuntime,
  ctx: SuiteContext<SignInBudget>,
  placement: Placement,
): Promise<Served[]> {
  const served: Served[] = []
  try {
    for (const hasher of SIGN_IN_HASHERS) {
      const db = await openPostgresSchema(schemaName(id, hasher), DATABASE)
      const input = {
        betterAuth: {
          connectionString: DATABASE,
          schema: db.schema,
          secret: SECRET,
          argon2: ARGON2,
          hasher: hasher.hasher,
          timeVerify: { warmups: ctx.budget.warmupSignIns, minCalls: 5, minMs: 400 },
        },
      }
      const server = await startRuntimeServer(runtime, input, placement.serverCpu).catch(async (error) => {
        await db.drop()
        throw error
      })
      const limitPerSec = (placement.serverCores * 1000) / (server.verifyMs as number)
      const signIns = Math.max(CONNECTIONS, Math.round(limitPerSec * ctx.budget.signInSec))
      served.push({ hasher, server, db, limitPerSec, signIns })
      await signUp(server.url)
      // autocannon refuses fewer requests than connections.
      await load(server.url, {
        ...signInLoad(server.url),
        amount: Math.max(ctx.budget.warmupSignIns, CONNECTIONS),
      })
    }
    return served
  } catch (error) {
    await stopServers(served)
    throw error
  }
}

async function stopServers(served: readonly Served[]): Promise<void> {
  for (const s of served) {
    await s.server.stop()
    await s.db.drop().catch(() => {})
  }
}

/** One round: every server's sign-ins, in a fresh order, with the server's CPU time read from /proc. */
async function signInRound(served: readonly Served[], round: number, ctx: SuiteContext<SignInBudget>) {
  const results = new Map<string, { sample: RoundSample; cpuMs: number | undefined }>()
  for (const s of shuffledRounds(served, 1, ctx.seed + 7919 * (round + 1))[0] ?? []) {
    ctx.progress.step(`sign-in · ${s.server.runtime} · round ${round + 1} · ${s.hasher.label}`)
    const run = await load(s.server.url, {
      ...signInLoad(s.server.url),
      amount: s.signIns,
      serverPid: s.server.pid,
    })
    const sample = { value: run.requestsPerSec, failures: run.failures }
    const cpuMs = run.serverCpuMs === undefined || run.total === 0 ? undefined : run.serverCpuMs / run.total
    results.set(s.hasher.id, { sample, cpuMs })
  }
  return results as Round
}

/** A clean round's rate of `hasher`, or undefined. */
const cleanRate = (round: Round | undefined, hasher: SignInHasher) => {
  const r = round?.get(hasher.id)
  return r && r.sample.failures === 0 ? r.sample.value : undefined
}

/** argon2id ÷ better-auth's scrypt, round by round: both measured in the same round. */
function againstScrypt(rounds: readonly (Round | undefined)[]) {
  const [scrypt, argon2] = SIGN_IN_HASHERS
  const perRound = rounds.flatMap((r) => {
    const [a, b] = [cleanRate(r, argon2), cleanRate(r, scrypt)]
    return a !== undefined && b !== undefined ? [a / b] : []
  })
  return ratioTo(scrypt, perRound)
}

function signInRow(
  id: ServerRuntime,
  s: Served,
  rounds: readonly (Round | undefined)[],
  cores: number,
): SuiteRow {
  const samples = rounds.flatMap((r) => r?.get(s.hasher.id)?.sample ?? [])
  const summary = summarizeRounds(samples)
  const clean = samples.flatMap((x) => (x.failures === 0 ? [x.value / s.limitPerSec] : []))
  const limit = summarizeRatio({ against: 'limit', label: 'cores ÷ single-verify time' }, clean)
  const cpu = median(rounds.flatMap((r) => r?.get(s.hasher.id)?.cpuMs ?? []))
  const isArgon2 = s.hasher === SIGN_IN_HASHERS[1]
  return {
    group: `better-auth on hono · ${id}`,
    key: { setting: 'better-auth-hono', operation: 'sign-in' },
    candidate: s.hasher.id,
    runtime: id,
    label: s.hasher.label,
    value: finite(summary.median),
    unit: 'sign-ins/s',
    higherIsBetter: true,
    samples: summary.cleanRounds,
    rounds: samples.filter((x) => x.failures === 0).map((x) => x.value),
    // The limit first in both rows: a per-runtime table names one baseline for its first ratios, and
    // argon2id ÷ scrypt is the second ratio of argon2id's row (--wide, the results file, compare).
    ratios: isArgon2 ? [limit, againstScrypt(rounds)] : [limit],
    details: {
      params: s.hasher.params,
      runtime: s.server.runtime,
      'share of limit': finite(limit.value),
      'limit sign-ins/s': s.limitPerSec,
      'single verify ms': finite((cores * 1000) / s.limitPerSec),
      'server CPU ms/sign-in': finite(cpu),
      // Sign-ins/s × CPU per sign-in ÷ cores: the share of the servers' core the sign-ins kept busy.
      'core busy %': finite((100 * summary.median * cpu) / 1000 / cores),
      'sign-ins per round': s.signIns,
      ...spreadFields(summary),
    },
    flags: [...roundFlags(summary), ...limitFlags(limit)],
  }
}

/** One runtime's rows, or a note why it has none (the runtime, PostgreSQL or a server would not start). */
async function signInOn(
  id: ServerRuntime,
  ctx: SuiteContext<SignInBudget>,
  placement: Placement,
  notes: string[],
): Promise<SuiteRow[]> {
  const runtime = runtimeCommand(id)
  if ('reason' in runtime) {
    notes.push(`better-auth on hono · ${id} not measured: ${runtime.reason}`)
    return []
  }
  ctx.progress.step(`sign-in · ${id} · start`)
  let served: Served[]
  try {
    served = await startServers(runtime, id, ctx, placement)
  } catch (error) {
    notes.push(`better-auth on hono · ${id} not measured: ${(error as Error).message}`)
    return []
  }
  try {
    const rounds = await wholeRounds({
      budget: ctx.budget,
      seed: ctx.seed,
      measure: (round) => signInRound(served, round, ctx),
      onError: (error) => ctx.failed(`sign-in on ${id}`, (error as Error).message),
      ratios: (rounds) => [againstScrypt(rounds)],
    })
    notes.push(
      `better-auth on hono · ${id}: ${served[0]?.server.runtime}; ${served.map((s) => `${s.hasher.label} verify ${((placement.serverCores * 1000) / s.limitPerSec).toFixed(1)} ms`).join(', ')}.`,
    )
    return served.map((s) => signInRow(id, s, rounds, placement.serverCores))
  } finally {
    await stopServers(served)
  }
}

/** The suite's run: better-auth on Hono in each runtime, one after the other. */
export async function runSignIn(
  ctx: SuiteContext<SignInBudget>,
  placement: Placement,
  notes: string[],
): Promise<SuiteRow[]> {
  ctx.progress.plan(SIGN_IN_RUNTIMES.length * (1 + SIGN_IN_HASHERS.length * ctx.budget.rounds))
  const rows: SuiteRow[] = []
  for (const id of SIGN_IN_RUNTIMES) rows.push(...(await signInOn(id, ctx, placement, notes)))
  return rows
}
