#!/usr/bin/env node
// Does a node-redis client come back after an outage in which every connection is accepted and closed
// at once? Usage: node scripts/redis-drop-probe.mjs [dir whose node_modules has redis] [hold ms] [trials]
// (default: this app's own redis, 3000 ms, 3 trials). Needs the built app (the fault proxy) and Redis on
// 127.0.0.1:6379. Prints one JSON line per trial. An 'error' listener is attached, as the adapter does.
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { FaultProxy } from '../dist/esm/fault/proxy.js'

const [from = join(import.meta.dirname, '..'), hold = '3000', trials = '3'] = process.argv.slice(2)
const require = createRequire(join(resolve(from), 'package.json'))
const { createClient } = require('redis')
const version = require('redis/package.json').version
const ANSWER_LIMIT_MS = 5000
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

for (let trial = 1; trial <= Number(trials); trial++) {
  const proxy = await FaultProxy.start(6379)
  const client = createClient({ url: `redis://127.0.0.1:${proxy.port}` })
  let errors = 0
  client.on('error', () => errors++)
  await client.connect()
  await client.set('authlab:drop-probe', '1', { EX: 60 })
  proxy.drop()
  // A command sent during the outage, as a request arriving then would.
  const during = client.get('authlab:drop-probe').catch(() => undefined)
  await sleep(Number(hold))
  await proxy.restore()
  const restoredAt = Date.now()
  let answeredAfterMs = null
  while (Date.now() - restoredAt < ANSWER_LIMIT_MS && answeredAfterMs === null) {
    const reply = await Promise.race([
      client.get('authlab:drop-probe').catch(() => undefined),
      sleep(ANSWER_LIMIT_MS).then(() => undefined),
    ])
    if (reply === '1') answeredAfterMs = Date.now() - restoredAt
    else await sleep(50)
  }
  console.log(
    JSON.stringify({
      redis: version,
      holdMs: Number(hold),
      trial,
      answeredAfterMs,
      isReady: client.isReady,
      errors,
    }),
  )
  client.destroy()
  await during
  await proxy.close()
}
