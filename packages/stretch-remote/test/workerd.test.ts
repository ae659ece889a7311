import { scryptSync } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { ONEPW_VECTOR } from '@authlab/conformance'
import { runInRuntime } from '@authlab/runtimes'
import { requireRuntime } from '@authlab/runtimes/availability'
import { afterAll, beforeAll, expect, test } from 'vitest'

const SECRET = 'a-shared-secret-of-at-least-32-bytes!'
const ENTRY = fileURLToPath(new URL('./fixtures/in-worker.mjs', import.meta.url))

// An honest stand-in for apps/stretch-helper: it computes the scrypt it is asked for (signatures are
// the helper's own tests' concern).
const helper = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk) => (body += chunk))
  request.on('end', () => {
    const { input, salt, N, r, p, buflen } = JSON.parse(body)
    const output = scryptSync(Buffer.from(input, 'hex'), salt, buflen, { N, r, p, maxmem: 256 * 2 ** 20 })
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ output: output.toString('hex') }))
  })
})
// A port that refuses: bound, then closed.
let deadUrl = ''
let url = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => helper.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(helper.address() as AddressInfo).port}/`
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`
  await new Promise((resolve) => closed.close(resolve))
})
afterAll(() => new Promise((resolve) => helper.close(resolve)))

// A Worker has no sockets for undici: the package's "workerd" export speaks to the helper over fetch.
test('inside workerd, the onepw chain with the remote scrypt step gives the published keys', {
  timeout: 60_000,
}, async () => {
  const { email, password, mainSalt, k1, k2, stretchedPW, mainKDF } = ONEPW_VECTOR
  const seen = await runInRuntime(requireRuntime('workerd'), ENTRY, {
    url,
    deadUrl,
    secret: SECRET,
    email,
    password,
    mainSalt,
  })
  expect(seen.wraps).toMatch(/over fetch at http:\/\/127\.0\.0\.1:/)
  expect(seen.keys).toMatchObject({ k1, k2, stretchedPW })
  expect(`${seen.keys.srpPW}${seen.keys.unwrapBKey}`).toBe(mainKDF)
  expect(seen.stats).toMatchObject({ calls: 1, attempts: 1, retries: 0 })
  // A refused connection is retried, then the typed error: never a raw TypeError from fetch.
  expect(seen.refused).toBe('ERR_AUTHLAB_REMOTE_UNAVAILABLE')
  expect(seen.deadStats).toMatchObject({ calls: 1, attempts: 2, connectionErrors: 2 })
})
