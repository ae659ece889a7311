/**
 * The server under fault: run as a child process, so a crash is observed as an exit instead of taking
 * the test runner down with it. Argument: a JSON `ServeConfig`. Prints one JSON line `{ "url" }` once
 * listening; on SIGTERM closes the server and the store, then exits 0 (whatever they could not close is
 * printed on stderr). Any other exit is a crash.
 */
import { randomBytes } from 'node:crypto'
import type { PasswordHasher } from '@authlab/core'
import { createUserDirectory, DEFAULT_MAX_AGE_MS, FRAMEWORKS, type Framework } from '@authlab/servers'
import { guardLogout, storeTombstones } from '@authlab/session-logout-guard'
import type { Store } from 'express-session'
import { CLUSTER_CLIENT_STORES, STORES } from '../stores/index.js'

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
  /** Store options beyond the port, e.g. the cluster store's `wait` and `nodeAddressMap` (ClusterOpenOptions). */
  readonly storeOptions?: Record<string, unknown>
  /**
   * Wrap the store in @authlab/session-logout-guard with its tombstones in the store itself, so every
   * process sharing the store sees every logout.
   */
  readonly guardLogout?: boolean
  /** Accounts the login route accepts (username → password); default none. */
  readonly users?: Record<string, string>
  /** Session lifetime (default the servers' own). */
  readonly maxAgeMs?: number
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '') as ServeConfig
  const backend = [...STORES, ...CLUSTER_CLIENT_STORES].find((store) => store.name === config.store)
  if (backend === undefined) throw new Error(`unknown store ${config.store}`)
  // Six clients need only a few connections, and the services' connection caps are shared by every test file.
  const opened = await backend.open(config.scope, {
    port: config.port,
    maxConnections: 5,
    ...config.storeOptions,
  })
  const maxAgeMs = config.maxAgeMs ?? DEFAULT_MAX_AGE_MS
  const store = config.guardLogout
    ? (guardLogout(opened.store, { maxAgeMs, tombstones: storeTombstones(opened.store) }) as Store)
    : opened.store
  const { createHasher } = (await import(config.hasherModule)) as {
    createHasher(options: { cost: number }): PasswordHasher
  }
  const server = await FRAMEWORKS[config.framework]({
    generateId: () => randomBytes(16).toString('base64url'),
    // Cost 4, bcrypt's minimum: the fault column never logs in, the logout race does (session layer only).
    users: await createUserDirectory(createHasher({ cost: 4 }), config.users ?? {}),
    secret: config.secret,
    store,
    maxAgeMs,
    saveBeforeReply: config.saveBeforeReply,
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  process.once('SIGTERM', async () => {
    // Stopping is not a crash: what the server or the store could not close or clean goes to stderr.
    try {
      await server.close()
      const outcome = await opened.close()
      const uncleaned = (outcome as { uncleaned?: readonly unknown[] } | undefined)?.uncleaned
      if (uncleaned?.length) console.error(`the store left keys on: ${JSON.stringify(uncleaned)}`)
    } catch (error) {
      console.error(error)
    }
    process.exit(0)
  })
}

// A startup failure is reported and ends the process; everything after startup is left to crash on its own.
main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
