#!/usr/bin/env node
// What one verify against a tampered stored hash costs through hash-worker with its default limits:
// wall time, how it ended, the process's peak RSS, and its RSS once the verify has settled. Each case
// runs in a fresh process (scripts/fresh-verify.mjs, shared with the worst-verify bench), one after
// another, never two at once. A stored hash is attacker-controlled data: these are the parameters an
// attacker would pick, from well inside the strategy's caps up to them and one step past them.
//
//   node packages/hash-worker/bench/hostile-verify.mjs
//
// Writes bench/hostile-verify.json. A case that takes longer than the pool's task timeout ends as
// ERR_AUTHLAB_TIMEOUT: that timeout, not the parameters, is then the worst-case time.
import { writeFileSync } from 'node:fs'
import { loadAverage, machine, verifyInFreshProcess } from '../../../scripts/fresh-verify.mjs'

// Each strategy hashes once at cheap settings; the hostile stored hash is that string with its cost
// parameters rewritten (the hash bytes no longer match, so a completed verify answers false).
const STRATEGIES = {
  '@authlab/hash-wasm argon2id': {
    strategy: '@authlab/hash-wasm',
    options: { algorithm: 'argon2id', m: 256, t: 1, p: 1 },
    rewrite: (encoded, params) => encoded.replace(/m=\d+,t=\d+,p=\d+/, params),
    ladder: [
      'm=262144,t=2,p=1',
      'm=1048576,t=1,p=1',
      'm=1048576,t=4,p=1',
      'm=1048576,t=64,p=1',
      'm=2097152,t=1,p=1',
    ],
  },
  '@authlab/hash-scrypt-js': {
    strategy: '@authlab/hash-scrypt-js',
    options: { ln: 10, r: 8, p: 1 },
    rewrite: (encoded, params) => encoded.replace(/ln=\d+,r=\d+,p=\d+/, params),
    ladder: ['ln=16,r=8,p=1', 'ln=18,r=8,p=1', 'ln=20,r=8,p=1', 'ln=21,r=8,p=1'],
  },
  '@authlab/hash-bcryptjs': {
    strategy: '@authlab/hash-bcryptjs',
    options: { cost: 4 },
    rewrite: (encoded, cost) => encoded.replace(/^\$2b\$04\$/, `$2b$${cost}$`),
    ladder: ['12', '14', '15'],
  },
}

const POOL_PRESETS = { defaults: {}, 'recycling off': { maxWorkerMemoryMb: Number.POSITIVE_INFINITY } }

const recordedMachine = machine()
const cases = []
for (const [name, { ladder }] of Object.entries(STRATEGIES)) {
  for (const params of ladder) cases.push({ name, params, pool: 'defaults' })
}
// The same heaviest in-cap argon2 case with thread recycling off: the memory a hostile hash leaves behind.
cases.push({ name: '@authlab/hash-wasm argon2id', params: 'm=1048576,t=1,p=1', pool: 'recycling off' })
const rows = []
for (const { name, params, pool } of cases) {
  const { strategy, options, rewrite } = STRATEGIES[name]
  // The strategy's own hash is the pool's (the workers run the same createHasher): made here, verified there.
  const { createHasher } = await import(strategy)
  const stored = rewrite(await createHasher(options).hash('genuine'), params)
  const cost = await verifyInFreshProcess({
    module: '@authlab/hash-worker',
    options: { strategy, options, threads: 1, ...POOL_PRESETS[pool] },
    stored,
  })
  const row = { strategy: name, params, pool, ...cost }
  console.log(JSON.stringify(row))
  rows.push(row)
}
const results = {
  ...recordedMachine,
  loadAverageAtEnd: loadAverage(),
  method:
    'one verify of a rewritten stored hash per fresh process, hash-worker defaults (threads 1), after one warm-up hash; peak RSS = process.resourceUsage().maxRSS; RSS after = 500 ms after the verify settled',
  rows,
}
writeFileSync(new URL('./hostile-verify.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
