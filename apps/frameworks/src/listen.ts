import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FrameworkName, ListenOptions, RunningApp } from './options.js'

/** `http://host:port` of a listening server. */
export function urlOf(address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') throw new Error(`not a TCP address: ${address}`)
  const host = address.address.includes(':') ? `[${address.address}]` : address.address
  return `http://${host}:${address.port}`
}

/**
 * Serves a node:http request listener (Koa's `callback()`, h3's `toNodeHandler`, an Express app) and
 * returns the running app; `close` ends open connections too, so a kept-alive client cannot hold it open,
 * then runs `cleanup` (a store the app owns).
 */
export async function listenNode(
  framework: FrameworkName,
  handler: RequestListener,
  listen: ListenOptions = {},
  cleanup: () => Promise<void> = async () => {},
): Promise<RunningApp> {
  const server = createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return {
    framework,
    url: urlOf(server.address()),
    close: async () => {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )
      server.closeAllConnections()
      await closed
      await cleanup()
    },
  }
}
