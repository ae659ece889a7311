import type { Candidates, SuiteContext, SuiteRow } from '@authlab/benchmarks/harness'
import type { IdsBudget } from '../budget.js'
import { idsInServer, type Named, type Serve } from '../http/ids-scenario.js'
import { GENERATOR_HEADER, type Placement } from '../http/servers.js'
import { runtimeCommand, type ServerRuntime, withRuntimeServer } from './runtime-server.js'

/** The generator every framework's default is measured against. */
export const AUTHLAB_FAST = '@authlab/id-fast'

/** A framework's own default, named as apps/frameworks' frameworkDefaults() names it (a test checks). */
const HONO_DEFAULT: Named = { id: 'default:hono-session', label: "@hono/session's default generateId" }
const KOA_DEFAULT: Named = { id: 'default:koa-session', label: "koa-session's default genid (randomUUID)" }

/** One server of the suite: a framework's session app in one runtime, with its own default generator. */
export interface FrameworkServer {
  readonly framework: 'hono' | 'koa'
  readonly runtime: ServerRuntime
  /** runtime-main's app: the @hono/session app (`session`, at /session) or koa-session's (`koa`, at /). */
  readonly app: 'session' | 'koa'
  readonly path: string
  readonly own: Named
}

/**
 * Hono with @hono/session, the Hono session middleware whose ID the app chooses (`generateId`), in the
 * three runtimes Hono's getting-started pages serve it on; Koa with koa-session on an external store
 * (`genid`), on Node, the runtime Koa is written for.
 */
export const FRAMEWORK_SERVERS: readonly FrameworkServer[] = [
  { framework: 'hono', runtime: 'node', app: 'session', path: '/session', own: HONO_DEFAULT },
  { framework: 'hono', runtime: 'bun', app: 'session', path: '/session', own: HONO_DEFAULT },
  { framework: 'hono', runtime: 'deno', app: 'session', path: '/session', own: HONO_DEFAULT },
  { framework: 'koa', runtime: 'node', app: 'koa', path: '/', own: KOA_DEFAULT },
]

/**
 * Comparisons judged at ±10 %, as ids-in-fastify judges authlab fast against @fastify/session's default:
 * does a generator change the framework's req/s by less than the 13 % step @fastify/session measured
 * when it replaced uid-safe? The 5–10 rounds of a quick run resolve that margin; ±5 % would take about 16.
 */
const MARGIN_PCT = 10

const SECRET = 'authlab-bench-frameworks-suite-secret-32+chars'

/** runtime-main's input for `server` serving `generators` (candidate ids; a framework default as `default`). */
export function serverInput(server: FrameworkServer, generators: readonly string[]) {
  const names = generators.map((id) => (id === server.own.id ? 'default' : id))
  const spec = {
    generator: names[0] ?? 'default',
    pick: { header: GENERATOR_HEADER, generators: names },
    secret: SECRET,
  }
  return server.app === 'koa' ? { koa: spec } : { session: spec }
}

export const serverName = (s: FrameworkServer) => `${s.framework} on ${s.runtime}`

/**
 * A server the runtime cannot start is left out with the reason, before its rounds: one start, and one
 * session-creating request, must succeed. Returns the runtime's own name and version, or the reason.
 */
async function probe(
  server: FrameworkServer,
  runtime: { command: string; args: readonly string[] },
  generators: readonly string[],
  cpu: number | undefined,
): Promise<{ version: string } | { reason: string }> {
  try {
    return await withRuntimeServer(runtime, serverInput(server, generators), cpu, async (s) => {
      const response = await fetch(new URL(server.path, s.url), { headers: { [GENERATOR_HEADER]: '0' } })
      await response.arrayBuffer()
      if (response.status !== 200) return { reason: `GET ${server.path} answered ${response.status}` }
      return { version: s.runtime }
    })
  } catch (error) {
    return { reason: (error as Error).message }
  }
}

/** Every framework server's rows: its default and authlab fast (with an A/A control), or a note why none. */
export async function runIdsInFrameworks(
  candidates: Candidates,
  ctx: SuiteContext<IdsBudget>,
  placement: Placement,
  notes: string[],
): Promise<SuiteRow[]> {
  const fast = candidates.ids.find((c) => c.id === AUTHLAB_FAST)
  if (!fast) {
    notes.push(`${AUTHLAB_FAST} not measured (filtered out or not discovered): no rows.`)
    return []
  }
  ctx.progress.plan(FRAMEWORK_SERVERS.length * (1 + 2 * ctx.budget.rounds))
  const rows: SuiteRow[] = []
  for (const server of FRAMEWORK_SERVERS) {
    const ids: Named[] = [server.own, fast]
    ctx.progress.step(`${serverName(server)} · start`)
    const runtime = runtimeCommand(server.runtime)
    const started =
      'reason' in runtime
        ? runtime
        : await probe(
            server,
            runtime,
            ids.map((c) => c.id),
            placement.serverCpu,
          )
    if ('reason' in started || 'reason' in runtime) {
      notes.push(`${serverName(server)} not measured: ${'reason' in started ? started.reason : ''}`)
      continue
    }
    notes.push(`${serverName(server)}: ${started.version}.`)
    const serve: Serve = (generators, body) =>
      withRuntimeServer(runtime, serverInput(server, generators), placement.serverCpu, (s) => body(s.url))
    const measured = await idsInServer(
      {
        name: `${serverName(server)} ids`,
        group: `${server.framework} · ${server.runtime}`,
        key: { setting: server.framework, operation: 'request' },
        runtime: server.runtime,
        ids,
        baselines: [server.own.id],
        control: true,
        budget: ctx.budget,
        path: server.path,
        margin: () => MARGIN_PCT,
        serve,
      },
      ctx,
    )
    // The runtime's own report of its version, beside the runtime id the key holds.
    rows.push(...measured.map((row) => ({ ...row, details: { ...row.details, runtime: started.version } })))
  }
  return rows
}
