import { randomBytes } from 'node:crypto'
import { isReachable, POSTGRES, REDIS, unreachableMessage } from '@authlab/store-matrix'
import { openRedisKeyValueStore } from '../src/kv.js'

export { POSTGRES, REDIS }

type Service = typeof REDIS

/**
 * Why the tests needing `service` cannot run here, or undefined when they can. Outside CI a service
 * that is down skips them with this reason (printed by the skip); with CI set it is a failure naming
 * the command that starts it, as in the store matrix.
 */
export async function serviceSkipReason(service: Service): Promise<string | undefined> {
  if (await isReachable(service)) return undefined
  const message = unreachableMessage(service)
  if (process.env.CI) throw new Error(message)
  return message
}

/** A namespace no other run shares: the process and 6 random bytes. */
export function runScope(label: string): string {
  return `${label}_${process.pid}_${randomBytes(6).toString('hex')}`
}

/** A Redis key-value store under `authlab:frameworks:<scope>:`, which it removes when closed. */
export function openRedisScope(label: string) {
  return openRedisKeyValueStore({ prefix: `authlab:frameworks:${runScope(label)}:` })
}
