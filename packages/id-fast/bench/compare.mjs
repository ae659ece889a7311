#!/usr/bin/env node
import { execFileSync } from 'node:child_process'
// IDs/s of @authlab/id-fast against crypto.randomUUID and @fastify/session's randomBytes pool
// (@authlab/id-pooled-bytes), measured in one process with tinybench. Each sample is a batch of
// 1,000 IDs (a single call is too short for the timer), every ID is consumed so the JIT cannot drop
// the work, and the three candidates run in interleaved rounds (A B C, C B A, …) so drift in the
// machine's speed hits them alike. The full comparison of every generator is `npm run bench`.
import { randomFillSync, randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import { generateId as pooled } from '@authlab/id-pooled-bytes'
import { Bench } from 'tinybench'
import { generateId as fast } from '../dist/esm/index.js'

const BATCH = 1_000
const ROUNDS = Number(process.env.ROUNDS ?? 5)

// Two references that bound what any flat-string technique can reach (not session-ID generators):
// the same String.fromCharCode call with no randomness and no pool at all, and substrings of a
// pre-encoded pool, which are faster only because V8 slices them — and fail the memory check.
const fixedCodes = new Uint8Array(64).fill(65)
let at = 0
const fromCharCodeOnly = () => {
  const c = fixedCodes
  at = (at + 1) & 31
  const i = at
  // biome-ignore format: one argument per character, as id-fast generates it
  return String.fromCharCode(c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5], c[i + 6], c[i + 7], c[i + 8], c[i + 9], c[i + 10], c[i + 11], c[i + 12], c[i + 13], c[i + 14], c[i + 15], c[i + 16], c[i + 17], c[i + 18], c[i + 19], c[i + 20], c[i + 21], c[i + 22], c[i + 23], c[i + 24], c[i + 25], c[i + 26], c[i + 27], c[i + 28], c[i + 29], c[i + 30], c[i + 31])
}
const rawPool = new Uint8Array(24 * 512)
let encodedPool = ''
let offset = 0
const slicedPool = () => {
  if (offset === encodedPool.length) {
    encodedPool = Buffer.from(randomFillSync(rawPool).buffer).toString('base64url')
    offset = 0
  }
  offset += 32
  return encodedPool.slice(offset - 32, offset)
}

const candidates = {
  '@authlab/id-fast': fast,
  'crypto.randomUUID': randomUUID,
  '@authlab/id-pooled-bytes': pooled,
  'bound: fromCharCode only': fromCharCodeOnly,
  'bound: sliced pool (unsafe)': slicedPool,
}
let sink = 0

const loadAverageAtStart = os.loadavg()
const perRound = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  const names = Object.keys(candidates)
  if (round % 2 === 1) names.reverse()
  for (const name of names) {
    const generate = candidates[name]
    const bench = new Bench({ time: 400, warmupTime: 100 })
    bench.add(name, () => {
      for (let i = 0; i < BATCH; i++) sink ^= generate().charCodeAt(7)
    })
    const [task] = await bench.run()
    perRound[name].push((BATCH * 1000) / task.result.latency.p50)
  }
}

const median = (xs) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]
const fastMedian = median(perRound['@authlab/id-fast'])
console.log(
  `${os.cpus()[0]?.model} × ${os.cpus().length}, Node ${process.version}, ${ROUNDS} rounds, median of per-round p50`,
)
for (const [name, rates] of Object.entries(perRound)) {
  const m = median(rates)
  const spread = `${(Math.min(...rates) / 1e6).toFixed(2)}–${(Math.max(...rates) / 1e6).toFixed(2)}`
  console.log(
    `${name.padEnd(30)} ${(m / 1e6).toFixed(2).padStart(6)} M IDs/s  (rounds ${spread})  id-fast ÷ this = ${(fastMedian / m).toFixed(2)}×`,
  )
}

// The figures in this package's README come from this file, with the machine they were measured on.
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
const results = {
  date: new Date().toISOString(),
  commit,
  machine: {
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    os: `${os.type()} ${os.release()}`,
    loadAverageAtStart,
  },
  node: process.version,
  method: `tinybench 6, batches of ${BATCH} IDs, ${ROUNDS} interleaved rounds, median of per-round p50`,
  idsPerSecond: Object.fromEntries(
    Object.entries(perRound).map(([name, rates]) => [name, { median: median(rates), rounds: rates }]),
  ),
}
writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
if (sink === -1) console.log(sink)
