import { Agent } from 'node:http'
import type { IdGenerator } from '@authlab/core'
import {
  type ClientRequest,
  type ClientResponse,
  FRAMEWORKS,
  type Framework,
  type RunningServer,
  send,
  type UserDirectory,
} from '@authlab/servers'
import type { Store } from 'express-session'
import type { OpenStore, StoreBackend } from './stores/backend.js'

/** Which generator a request's session ID comes from, so one server serves every generator at once. */
export const GENERATOR_HEADER = 'x-authlab-generator'

export interface GeneratorUnderTest {
  /** Stable key (package name), also the header value selecting it. */
  readonly key: string
  readonly label: string
  readonly generate: IdGenerator
}

/** A generator chosen per request by header; remembers every ID it issued, per generator. */
export class GeneratorSwitch {
  readonly issued = new Map<string, Set<string>>()
  private readonly generators = new Map<string, IdGenerator>()

  constructor(
    generators: readonly GeneratorUnderTest[],
    private readonly fallback: string,
  ) {
    for (const { key, generate } of generators) this.add(key, generate)
  }

  add(key: string, generate: IdGenerator): void {
    this.generators.set(key, generate)
    this.issued.set(key, new Set())
  }

  /** express-session `genid(req)` and @fastify/session `idGenerator(request)`: both expose `headers`. */
  readonly generateId = (request?: unknown): string => {
    const header = (request as { headers?: Record<string, unknown> } | undefined)?.headers?.[GENERATOR_HEADER]
    const key = typeof header === 'string' && this.generators.has(header) ? header : this.fallback
    const id = (this.generators.get(key) as IdGenerator)(request)
    this.issued.get(key)?.add(id)
    return id
  }

  hasIssued(key: string, id: unknown): boolean {
    return typeof id === 'string' && (this.issued.get(key)?.has(id) ?? false)
  }
}

/** A store's two namespaces with one server per framework on each (one store instance per middleware: express-session binds a store to one middleware's events). */
export interface StoreHarness {
  readonly backend: StoreBackend
  /** Long-lived sessions; both frameworks share it, so a cookie from one is read by the other. */
  readonly main: OpenStore
  /** Sessions that expire after `expiringMaxAgeMs`, for the rolling and expiry checks. */
  readonly expiring: OpenStore
  readonly expiringMaxAgeMs: number
  readonly switch: GeneratorSwitch
  readonly frameworks: readonly Framework[]
  /** Errors the servers reported (message → count), including ones sent after a response. */
  readonly serverErrors: ReadonlyMap<string, number>
  /** The store errors of IDs `generator` issued, e.g. why a session could not be created. */
  storeErrorsOf(generator: string): string[]
  /** The last error the store reported for session `id` (a failed touch, say), if any. */
  storeErrorOf(id: string): string | undefined
  /** Why `id` is not among `stored`: truncated, case-folded, or absent, with the store's error if it had one. */
  explainMissing(id: string, stored: readonly string[]): string
  /** Sends to the framework's server on the chosen namespace, as the given generator. */
  request(
    framework: Framework,
    generator: string,
    options?: ClientRequest & { namespace?: 'main' | 'expiring' },
  ): Promise<ClientResponse>
  close(): Promise<void>
}

export interface HarnessOptions {
  readonly scope: string
  readonly generators: readonly GeneratorUnderTest[]
  readonly frameworks: readonly Framework[]
  readonly users: UserDirectory
  readonly secret: string
  readonly expiringMaxAgeMs: number
  /** Sockets per server: bounds the load the 1,000-session check puts on a store at once. */
  readonly maxSockets: number
}

export async function openHarness(backend: StoreBackend, options: HarnessOptions): Promise<StoreHarness> {
  const { scope, generators, frameworks, users, secret, expiringMaxAgeMs, maxSockets } = options
  const generatorSwitch = new GeneratorSwitch(generators, generators[0]?.key ?? '')
  const main = await backend.open(`${scope}_main`)
  const expiring = await backend.open(`${scope}_exp`)
  const storeErrors = new Map<string, string>()
  recordStoreErrors(main.store, storeErrors)
  recordStoreErrors(expiring.store, storeErrors)
  const serverErrors = new Map<string, number>()
  const onError = (error: unknown) => {
    const message = messageOf(error)
    serverErrors.set(message, (serverErrors.get(message) ?? 0) + 1)
  }
  const agent = new Agent({ keepAlive: true, maxSockets })
  const servers = new Map<string, RunningServer>()
  const base = { generateId: generatorSwitch.generateId, users, secret, exposeErrors: true, onError }
  // A header cap above 64 KB so the overlong-cookie check reaches the session layer.
  const listen = { maxHeaderSize: 96 * 1024 }
  try {
    for (const framework of frameworks) {
      servers.set(`${framework}/main`, await FRAMEWORKS[framework]({ ...base, store: main.store }, listen))
      servers.set(
        `${framework}/expiring`,
        await FRAMEWORKS[framework]({ ...base, store: expiring.store, maxAgeMs: expiringMaxAgeMs }, listen),
      )
    }
  } catch (error) {
    await Promise.allSettled([...servers.values()].map((server) => server.close()))
    await Promise.allSettled([main.close(), expiring.close()])
    throw error
  }
  return {
    backend,
    main,
    expiring,
    expiringMaxAgeMs,
    switch: generatorSwitch,
    frameworks,
    serverErrors,
    storeErrorsOf(generator) {
      const issued = generatorSwitch.issued.get(generator) ?? new Set()
      return [...new Set([...storeErrors].filter(([id]) => issued.has(id)).map(([, error]) => error))]
    },
    storeErrorOf: (id) => storeErrors.get(id),
    explainMissing(id, stored) {
      const storeError = storeErrors.get(id)
      return storeError === undefined
        ? describeMissing(id, stored)
        : `${describeMissing(id, stored)} (${storeError})`
    },
    request(framework, generator, { namespace = 'main', headers, ...rest } = {}) {
      const server = servers.get(`${framework}/${namespace}`) as RunningServer
      return send(server.url, { ...rest, agent, headers: { ...headers, [GENERATOR_HEADER]: generator } })
    },
    async close() {
      await Promise.allSettled([...servers.values()].map((server) => server.close()))
      agent.destroy()
      const closed = await Promise.allSettled([main.close(), expiring.close()])
      const failed = closed.find((result) => result.status === 'rejected')
      if (failed) throw (failed as PromiseRejectedResult).reason
    },
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Wraps the store's callback methods to remember the last error per session ID: express-session
 * answers 200 even when saving fails, so the store's own error is the only account of what happened.
 */
function recordStoreErrors(store: Store, errors: Map<string, string>): void {
  const methods = store as unknown as Record<string, unknown>
  for (const method of ['get', 'set', 'touch', 'destroy']) {
    const original = methods[method]
    if (typeof original !== 'function') continue
    methods[method] = function (this: Store, id: string, ...rest: unknown[]) {
      const callback = rest.at(-1)
      if (typeof callback === 'function') {
        rest[rest.length - 1] = (error: unknown, ...values: unknown[]) => {
          if (error) errors.set(id, `store.${method} failed: ${messageOf(error)}`)
          callback(error, ...values)
        }
      }
      return original.call(this, id, ...rest)
    }
  }
}

/** Why an ID is not among the stored ones: absent, or present only truncated or case-folded. */
export function describeMissing(id: string, stored: readonly string[]): string {
  const truncated = stored.find((s) => s.length < id.length && id.startsWith(s))
  if (truncated !== undefined) return `stored truncated to ${truncated.length} characters`
  const folded = stored.find((s) => s.toLowerCase() === id.toLowerCase())
  if (folded !== undefined) return 'stored with different letter case'
  return `ID (${id.length} characters) not found in the backend`
}
