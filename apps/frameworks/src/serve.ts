import { getRequestListener } from '@hono/node-server'
import { listenNode } from './listen.js'
import type { FrameworkName, ListenOptions, RunningApp } from './options.js'

type FetchHandler = (request: Request) => Response | Promise<Response>

interface BunServer {
  readonly port: number
  stop(closeActiveConnections?: boolean): Promise<void> | void
}
interface DenoServer {
  readonly addr: { port: number }
  shutdown(): Promise<void>
}
interface RuntimeGlobals {
  Bun?: { serve(options: { port: number; hostname: string; fetch: FetchHandler }): BunServer }
  Deno?: {
    serve(
      options: { port: number; hostname: string; onListen?: () => void },
      handler: FetchHandler,
    ): DenoServer
  }
}

/**
 * Serves a fetch handler (a Hono app's `fetch`) with the runtime's own server: `Bun.serve` on Bun,
 * `Deno.serve` on Deno, and on Node `@hono/node-server`'s request listener on node:http. Each runtime's
 * own server is what a user of that runtime runs Hono on (Hono's getting-started pages for each).
 */
export async function serveFetch(
  framework: FrameworkName,
  fetch: FetchHandler,
  listen: ListenOptions = {},
): Promise<RunningApp> {
  const hostname = listen.host ?? '127.0.0.1'
  const port = listen.port ?? 0
  const runtime = globalThis as RuntimeGlobals
  if (runtime.Bun) {
    const server = runtime.Bun.serve({ port, hostname, fetch })
    return { framework, url: `http://${hostname}:${server.port}`, close: async () => server.stop(true) }
  }
  if (runtime.Deno) {
    const server = runtime.Deno.serve({ port, hostname, onListen: () => {} }, fetch)
    return { framework, url: `http://${hostname}:${server.addr.port}`, close: () => server.shutdown() }
  }
  return listenNode(framework, getRequestListener(fetch), listen)
}
