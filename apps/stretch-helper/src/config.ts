import { InvalidOptionError } from '@authlab/core'
import type { HelperOptions } from './app.js'
import type { ScryptParams } from './params.js'

export interface ListenConfig {
  host: string
  port: number
  /** How long SIGTERM waits for in-flight work before giving up. */
  drainMs: number
}

function integer(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  if (!/^\d+$/.test(raw)) throw new InvalidOptionError(`${name} must be a non-negative integer, got "${raw}"`)
  return Number(raw)
}

function extraParams(raw: string | undefined): ScryptParams[] {
  if (!raw) return []
  try {
    const parsed = JSON.parse(raw) as unknown
    if (Array.isArray(parsed)) return parsed as ScryptParams[]
  } catch {}
  throw new InvalidOptionError(
    'AUTHLAB_HELPER_EXTRA_PARAMS must be a JSON array like [{"N":16384,"r":8,"p":1,"buflen":32}]',
  )
}

/** The helper's whole configuration comes from the environment (twelve-factor style). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): {
  helper: HelperOptions
  listen: ListenConfig
} {
  const secret = env.AUTHLAB_HELPER_SECRET
  if (!secret) throw new InvalidOptionError('AUTHLAB_HELPER_SECRET must be set (at least 32 bytes)')
  return {
    helper: {
      secret,
      extraParams: extraParams(env.AUTHLAB_HELPER_EXTRA_PARAMS),
      concurrency: integer(env, 'AUTHLAB_HELPER_CONCURRENCY'),
      queueLimit: integer(env, 'AUTHLAB_HELPER_QUEUE'),
      replayWindowMs: integer(env, 'AUTHLAB_HELPER_REPLAY_WINDOW_MS'),
      simulatedRttMs: integer(env, 'AUTHLAB_HELPER_SIMULATED_RTT_MS'),
      nonceCacheSize: integer(env, 'AUTHLAB_HELPER_NONCE_CACHE'),
      connections: {
        headersTimeoutMs: integer(env, 'AUTHLAB_HELPER_HEADERS_TIMEOUT_MS'),
        requestTimeoutMs: integer(env, 'AUTHLAB_HELPER_REQUEST_TIMEOUT_MS'),
        keepAliveTimeoutMs: integer(env, 'AUTHLAB_HELPER_KEEP_ALIVE_TIMEOUT_MS'),
        maxConnections: integer(env, 'AUTHLAB_HELPER_MAX_CONNECTIONS'),
      },
      logger: { level: env.LOG_LEVEL ?? 'info' },
    },
    listen: {
      host: env.HOST ?? '127.0.0.1',
      port: integer(env, 'PORT') ?? 8400,
      drainMs: integer(env, 'AUTHLAB_HELPER_DRAIN_MS') ?? 30_000,
    },
  }
}
