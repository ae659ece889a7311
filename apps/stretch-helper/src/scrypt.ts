import { scrypt } from 'node:crypto'
import { maxmemFor, type ScryptParams } from './params.js'

export type ScryptFn = (input: Buffer, salt: Buffer, params: ScryptParams) => Promise<Buffer>

/** node:crypto's scrypt (OpenSSL), which runs on the libuv threadpool and leaves the event loop free. */
export const nodeScrypt: ScryptFn = (input, salt, params) =>
  new Promise((resolve, reject) => {
    const { N, r, p, buflen } = params
    scrypt(input, salt, buflen, { N, r, p, maxmem: maxmemFor(params) }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
