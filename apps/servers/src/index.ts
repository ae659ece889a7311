import { startExpressServer } from './express.js'
import { startFastifyServer } from './fastify.js'
import type { ListenOptions, RunningServer } from './listen.js'
import type { SessionServerOptions } from './options.js'

export * from './errors.js'
export { createExpressApp, startExpressServer } from './express.js'
export { createFastifyApp, startFastifyServer } from './fastify.js'
export {
  createHttpServer,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ListenOptions,
  type RunningServer,
} from './listen.js'
export { createDefaultStore, PrunedMemoryStore } from './memory-store.js'
export * from './options.js'
export * from './users.js'

export type Framework = RunningServer['framework']

/** Both servers behind one signature, so tests and benchmarks iterate over frameworks instead of branching. */
export const FRAMEWORKS: Readonly<
  Record<Framework, (options: SessionServerOptions, listen?: ListenOptions) => Promise<RunningServer>>
> = {
  express: startExpressServer,
  fastify: startFastifyServer,
}
export * from './client.js'
