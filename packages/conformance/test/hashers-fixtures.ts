import { pbkdf2, pbkdf2Sync } from 'node:crypto'
import { promisify } from 'node:util'
import {
  defineKdfHasher,
  type KdfParams,
  type PasswordHasher,
  PBKDF2_SHA256,
  type Pbkdf2Options,
  type RawKdf,
  type RunsOn,
} from '@authlab/core'

const pbkdf2Async = promisify(pbkdf2)

/** A correct reference hasher: PBKDF2-HMAC-SHA256 on the libuv threadpool. */
export const threadpoolPbkdf2: RawKdf = async (password, salt, params, length) =>
  pbkdf2Async(password, salt, params.iterations as number, length, 'sha256')

/** The same KDF computed synchronously on the main thread. */
export const mainThreadPbkdf2: RawKdf = async (password, salt, params, length) =>
  pbkdf2Sync(password, salt, params.iterations as number, length, 'sha256')

export interface FixtureOptions extends Pbkdf2Options {
  kdf?: RawKdf
  runsOn?: RunsOn
}

/** A fixture hasher; with no overrides it is correct and passes every check. */
export function fixture(
  params: KdfParams = { iterations: 1000 },
  options: FixtureOptions = {},
): PasswordHasher {
  const { kdf = threadpoolPbkdf2, runsOn = 'threadpool', ...rest } = options
  return defineKdfHasher({
    algorithm: PBKDF2_SHA256,
    options: { ...rest, ...params },
    describe: { name: 'fixture', displayName: 'fixture', wraps: 'node:crypto pbkdf2', runsOn },
    kdf,
  })
}

/** A hasher with some methods replaced: the usual way a wrapper gets something subtly wrong. */
export function patched(base: PasswordHasher, patch: Partial<PasswordHasher>): PasswordHasher {
  return { info: base.info, hash: base.hash, verify: base.verify, needsRehash: base.needsRehash, ...patch }
}

/** A KDF that takes `ms` of wall time without using a thread (a stand-in for runaway work). */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref())
