// Floods a hash-worker pool with calls far faster than it can serve them and records what that
// costs this process: how the calls ended (by error code) and how much heap and RSS grew while
// they were outstanding. A bounded queue refuses the surplus at once; an unbounded one holds every
// call's task, promise and closures until a thread is free.
//
//   node packages/hash-worker/bench/flood.mjs calls [maxQueue]   one flood in this process, one JSON line
//   node packages/hash-worker/bench/flood.mjs                    100,000 calls with the default queue and
//                                                                an unbounded one, each in a fresh process,
//                                                                recorded in bench/flood.json
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createHasher } from '@authlab/hash-worker'

setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc')
const mib = (bytes) => bytes / 2 ** 20

/** A strategy whose every hash takes 200 ms, so the pool stays saturated for the whole flood. */
const slowStrategy = new URL('../test/fixtures/misbehaving-strategy.cjs', import.meta.url).href

/**
 * Issues `calls` hashes in batches, yielding to the event loop between batches as a server would
 * between requests, then measures heap and RSS growth over the baseline while the survivors are
 * still queued, and finally closes the pool so every call settles.
 */
async function flood(hasher, calls, batch = 1000) {
  const outcomes = {}
  const count = (key) => {
    outcomes[key] = (outcomes[key] ?? 0) + 1
  }
  collectGarbage()
  const before = process.memoryUsage()
  const settled = []
  for (let issued = 0; issued < calls; issued += batch) {
    for (let i = issued; i < Math.min(calls, issued + batch); i++) {
      // Only the calls still pending are kept; a refused one is counted and dropped.
      const call = hasher.hash('slow').then(
        () => count('ok'),
        (error) => count(error?.code ?? 'untyped'),
      )
      settled.push(call)
    }
    await yieldToLoop()
    settled.splice(0, settled.length - batch)
  }
  collectGarbage()
  const during = process.memoryUsage()
  await hasher.close()
  await Promise.all(settled)
  return {
    outcomes,
    heapGrowthMb: mib(during.heapUsed - before.heapUsed),
    rssGrowthMb: mib(during.rss - before.rss),
  }
}

async function measureHere(calls, maxQueue) {
  const hasher = createHasher({ strategy: slowStrategy, threads: 1, maxQueue })
  console.log(JSON.stringify({ calls, maxQueue: maxQueue ?? 'default', ...(await flood(hasher, calls)) }))
}

function record() {
  const loadAverageAtStart = os.loadavg()
  const runs = [[], [String(Number.MAX_SAFE_INTEGER)]].map((maxQueue) =>
    JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), '100000', ...maxQueue], {
        encoding: 'utf8',
      }),
    ),
  )
  const results = {
    date: new Date().toISOString(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
    machine: {
      cpu: os.cpus()[0]?.model,
      cores: os.cpus().length,
      os: `${os.type()} ${os.release()}`,
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    node: process.version,
    method:
      'one thread, every task 200 ms; calls issued in batches of 1,000 with one event-loop turn between; heap and RSS growth over the pre-flood baseline, both read after a forced GC once every call is issued; then close()',
    runs,
  }
  writeFileSync(new URL('./flood.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
  console.log(JSON.stringify(results, null, 2))
}

if (process.argv[2] === undefined) record()
else
  await measureHere(
    Number(process.argv[2]),
    process.argv[3] === undefined ? undefined : Number(process.argv[3]),
  )
