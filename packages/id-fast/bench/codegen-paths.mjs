#!/usr/bin/env node
// IDs/s of a code-generating ID generator's two paths, measured in one process: the unrolled one
// built with `new Function`, and the loop it falls back to where code generation is refused. The
// fallback is reached exactly as on such a host: `new Function` throws an EvalError while the
// generator is built. Batches of 1,000 IDs, every ID consumed; both paths once per round, each round in
// a fresh seeded random order, and the loop ÷ unrolled ratio with the bench's interval and verdict
// (benchmarks/src/measure/verdict.ts). Run after `npx turbo run build`:
//
//   node packages/id-fast/bench/codegen-paths.mjs [built module, default this package's dist/esm/index.js]
//
// Writes bench/codegen-paths.json beside the measured package's dist/.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { pathToFileURL } from 'node:url'
import { Bench } from 'tinybench'
import { shuffledRounds } from '../../../benchmarks/dist/measure/rounds.js'
import { median } from '../../../benchmarks/dist/measure/stats.js'
import {
  formatRatio,
  perRoundRatios,
  summarizeRatio,
  VERDICT_RULE,
} from '../../../benchmarks/dist/measure/verdict.js'

const moduleUrl = process.argv[2]
  ? pathToFileURL(process.argv[2])
  : new URL('../dist/esm/index.js', import.meta.url)
const { createIdGenerator } = await import(moduleUrl.href)
const BATCH = 1_000
const ROUNDS = Number(process.env.ROUNDS ?? 7)
const SEED = Number(process.env.SEED ?? Date.now() % 2 ** 31)

const realFunction = globalThis.Function
globalThis.Function = function refused() {
  throw new EvalError('Code generation from strings disallowed for this context')
}
const loop = createIdGenerator()
globalThis.Function = realFunction
const UNROLLED = 'unrolled'
const LOOP = 'loop (no code generation)'
const candidates = { [UNROLLED]: createIdGenerator(), [LOOP]: loop }
if (!candidates[LOOP].info.wraps.includes('no code generation')) {
  throw new Error('the generator did not take its no-code-generation path')
}

let sink = 0
const loadAverageAtStart = os.loadavg()
const perRound = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]))
for (const order of shuffledRounds(Object.keys(candidates), ROUNDS, SEED)) {
  for (const name of order) {
    const generate = candidates[name]
    const bench = new Bench({ time: 400, warmupTime: 100 })
    bench.add(name, () => {
      for (let i = 0; i < BATCH; i++) sink ^= generate().charCodeAt(7)
    })
    const [task] = await bench.run()
    perRound[name].push((BATCH * 1000) / task.result.latency.p50)
  }
}

const ratio = summarizeRatio(UNROLLED, perRoundRatios(perRound[LOOP], perRound[UNROLLED], true))
const results = {
  date: new Date().toISOString(),
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
  generator: candidates[UNROLLED].info.name,
  machine: {
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    os: `${os.type()} ${os.release()}`,
    loadAverageAtStart,
  },
  node: process.version,
  method: `tinybench 6, batches of ${BATCH} IDs, ${ROUNDS} rounds in a fresh random order each (seed ${SEED}), per-round p50`,
  idsPerSecond: Object.fromEntries(
    Object.entries(perRound).map(([name, rates]) => [name, { median: median(rates), rounds: rates }]),
  ),
  loopVersusUnrolled: { ...ratio, text: formatRatio(ratio), rule: VERDICT_RULE },
}
mkdirSync(new URL('../../bench/', moduleUrl), { recursive: true })
writeFileSync(new URL('../../bench/codegen-paths.json', moduleUrl), `${JSON.stringify(results, null, 2)}\n`)
console.log(`${results.generator}: loop ÷ unrolled IDs/s ${formatRatio(ratio)}`)
if (sink === -1) console.log(sink)
