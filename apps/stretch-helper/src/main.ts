/**
 * The helper as a process: configuration from the environment, one JSON log line
 * `{"msg":"listening","url":…}` once it accepts requests, and a graceful stop on SIGTERM or SIGINT:
 * /ready turns 503, new requests are refused, in-flight and queued scrypt work finishes and is
 * answered, then the process exits 0 (1 if the drain outlasts AUTHLAB_HELPER_DRAIN_MS).
 */
import { buildHelper } from './app.js'
import { configFromEnv } from './config.js'

async function main(): Promise<void> {
  const { helper, listen } = configFromEnv()
  const { app } = buildHelper(helper)
  const url = await app.listen({ host: listen.host, port: listen.port })
  app.log.info({ url }, 'listening')
  const stop = (signal: string) => {
    app.log.info({ signal }, 'draining')
    setTimeout(() => {
      app.log.error('drain timed out')
      process.exit(1)
    }, listen.drainMs).unref()
    app.close().then(() => process.exit(0))
  }
  process.once('SIGTERM', () => stop('SIGTERM'))
  process.once('SIGINT', () => stop('SIGINT'))
}

main().catch((error: unknown) => {
  process.stderr.write(`stretch-helper: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
