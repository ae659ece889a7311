/**
 * The server under fault: run as a child process, so a crash is observed as an exit instead of taking
 * the test runner down with it. Argument: a JSON `ServeConfig`. Prints one JSON line `{ "url" }` once
 * listening; on SIGTERM closes the server and the store, then exits 0. Any other exit is a crash.
 */
import { randomBytes } from 'node:crypto'
import type { PasswordHasher } from '@authlab/core'
import { createUserDirectory, FRAMEWORKS, type Framework } from '@authlab/servers'
import { STORES } from '../stores/index.js'

export interface ServeConfig {
  readonly store: string
  readonly framework: Framework
  readonly saveBeforeReply: boolean
  /** Port of the fault proxy in front of the store's backend. */
  readonly port: number
  readonly scope: string
  /** A hash package whose `createHasher({ cost })` checks logins (the routes need a user directory). */
  readonly hasherModule: string
  readonly secret: string
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as ServeConfig
  const backend = STORES.find((store) => store.name === config.store)
  if (backend === undefined) throw new Error(`unknown store ${config.store}`)
  // Six clients need only a few connections, and the services' connection caps are shared by every test file.
  const opened = await backend.open(config.scope, { port: config.port, maxConnections: 5 })
  const { createHasher } = (await import(config.hasherModule)) as {
    createHasher(options: { cost: number }): PasswordHasher
  }
  const server = await FRAMEWORKS[config.framework]({
    generateId: () => randomBytes(16).toString('base64url'),
    // Cost 4, bcrypt's minimum: the routes need a directory, the fault column never logs in.
    users: await createUserDirectory(createHasher({ cost: 4 }), {}),
    secret: config.secret,
    store: opened.store,
    saveBeforeReply: config.saveBeforeReply,
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  process.once('SIGTERM', async () => {
    await server.close()
    await opened.close()
    process.exit(0)
  })
}

// A startup failure is reported and ends the process; everything after startup is left to crash on its own.
main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
