import { createRemoteScrypt, type RemoteScrypt, type RemoteScryptOptions } from '@authlab/stretch-remote'
import { type HelperProcess, type HelperProcessOptions, startHelperProcess } from './process.js'

export interface RemoteScryptSetup {
  readonly helper: HelperProcess
  /** The KeyDerivation for `createStretcher({ scrypt })`, connected to `helper`. */
  readonly scrypt: RemoteScrypt
  /** Closes the client's connections, then stops the helper (SIGTERM, drained). */
  close(): Promise<void>
}

/** A helper process and a client for it, in one call: what the bench's row [2] needs. */
export async function startRemoteScrypt(
  options: HelperProcessOptions & { client?: Partial<Omit<RemoteScryptOptions, 'url' | 'secret'>> } = {},
): Promise<RemoteScryptSetup> {
  const helper = await startHelperProcess(options)
  const scrypt = createRemoteScrypt({ ...options.client, url: helper.url, secret: helper.secret })
  return {
    helper,
    scrypt,
    async close() {
      await scrypt.close()
      await helper.stop()
    },
  }
}
