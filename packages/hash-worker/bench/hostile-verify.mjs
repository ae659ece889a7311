#!/usr/bin/env node
// What one verify against a tampered stored hash costs through hash-worker with its default limits:
// wall time, how it ended, the process's peak RSS, and its RSS once the verify has settled. Each case
// runs in a fresh process (scripts/fresh-verify.mjs, shared with the worst-verify bench), one after
// another, never two at once. A stored hash is attacker-controlled data: these are the parameters an
// attacker would pick, the costliest the limits accept and every step past them.
//
//   node packages/hash-worker/bench/hostile-verify.mjs
//
// Writes bench/hostile-verify.json. A case that takes longer than the pool's task timeout ends as
// ERR_AUTHLAB_TIMEOUT: that timeout, not the parameters, is then the worst-case time.
import { writeFileSync } from 'node:fs'
import { worstForDefaultLimits } from '@authlab/core'
import { loadAverage, machine, verifyInFreshProcess } from '../../../scripts/fresh-verify.mjs'

// The main-thread strategies this pool exists for, each configured cheaply (its limits are still the
// profile's default budget, which a cheap configuration does not raise). Each hashes once; the hostile
// stored hashes are that string rewritten (the hash bytes no longer match, so a completed verify answers
// false): the worst the limits accept and each step beyond (core's worstInBudget), then the profile's own
// absurd cases (at or past the caps, and in-cap combinations over the budget).
const STRATEGIES = [
  { strategy: '@authlab/hash-wasm', options: { algorithm: 'argon2id', m: 256, t: 1, p: 1 } },
  { strategy: '@authlab/hash-scrypt-js', options: { ln: 10, r: 8, p: 1 } },
  { strategy: '@authlab/hash-bcryptjs', options: { cost: 4 } },
]

const POOL_PRESETS = { defaults: {}, 'recycling off': { maxWorkerMemoryMb: Number.POSITIVE_INFINITY } }

const recordedMachine = machine()
const cases = []
for (const { strategy, options } of STRATEGIES) {
  // The strategy's own hash is the pool's (the workers run the same createHasher): made here, verified there.
  const { createHasher } = await import(strategy)
  const local = createHasher(options)
  const genuine = await local.hash('genuine')
  const { profile, worst, beyond } = worstForDefaultLimits(local.info, genuine)
  const label = `${strategy} ${profile.id}`
  const ladder = [
    { params: worst.label, stored: worst.encoded, pool: 'defaults' },
    ...beyond.map((c) => ({ params: c.label, stored: c.encoded, pool: 'defaults' })),
    ...profile.absurd.map((c) => ({ params: c.label, stored: c.edit(genuine), pool: 'defaults' })),
    // The same worst case with thread recycling off: the memory an accepted hostile hash leaves behind.
    { params: worst.label, stored: worst.encoded, pool: 'recycling off' },
  ]
  for (const rung of ladder) cases.push({ label, strategy, options, ...rung })
}
const rows = []
for (const { label, strategy, options, params, stored, pool } of cases) {
  const cost = await verifyInFreshProcess({
    module: '@authlab/hash-worker',
    options: { strategy, options, threads: 1, ...POOL_PRESETS[pool] },
    stored,
  })
  const row = { strategy: label, params, pool, ...cost }
  console.log(JSON.stringify(row))
  rows.push(row)
}
const results = {
  ...recordedMachine,
  loadAverageAtEnd: loadAverage(),
  method:
    'one verify of a rewritten stored hash per fresh process, hash-worker defaults (threads 1), after one warm-up hash; peak RSS = VmHWM from /proc/self/status after the verify (getrusage maxRSS would include the parent RSS at fork); peakRssBeforeMb: the same after the warm-up, so a verify that allocates less than the warm-up hash shows the warm-up peak); RSS after = 500 ms after the verify settled',
  rows,
}
writeFileSync(new URL('./hostile-verify.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`)
