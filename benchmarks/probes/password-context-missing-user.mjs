// Does a login for a missing user take as long as one for a real user? Times the two (plus a real-user
// A/A control) once per round, each round in a fresh seeded random order, and prints each login's ratio
// to the real user's with the bench's interval and verdict (benchmarks/src/measure/verdict.ts), so the
// gap can be read against the A/A control: the same login measured twice.
// Run after `npm run build`: node benchmarks/probes/password-context-missing-user.mjs [rounds]
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { hasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createPasswordContext } from '@authlab/password-context'
import { shuffledRounds } from '../dist/measure/rounds.js'
import { median } from '../dist/measure/stats.js'
import { perRoundRatios, summarizeRatio } from '../dist/measure/verdict.js'
import { formatRatio } from '../dist/report/words.js'

const rounds = Number(process.argv[2] ?? 200)
const seed = Number(process.env.SEED ?? Date.now() % 2 ** 31)
const context = createPasswordContext({ current: argon2, legacy: [bcrypt()], missingUserFormat: 'argon2id' })
const stored = await argon2.hash('correct horse battery staple')
const cases = {
  'real user, wrong password': () => context.verify(stored, 'Tr0ub4dor&3'),
  'real user, wrong password (A/A)': () => context.verify(stored, 'Tr0ub4dor&3'),
  'missing user': () => context.verify(null, 'Tr0ub4dor&3'),
}
const names = Object.keys(cases)
const times = Object.fromEntries(names.map((name) => [name, []]))
for (let warm = 0; warm < 10; warm++) for (const name of names) await cases[name]()
for (const order of shuffledRounds(names, rounds, seed)) {
  for (const name of order) {
    const start = performance.now()
    await cases[name]()
    times[name].push(performance.now() - start)
  }
}
const [baseline, ...others] = names
console.log(
  `argon2id m=19456 t=2 p=1, ${rounds} rounds (seed ${seed}), load ${loadavg()[0].toFixed(2)} at end`,
)
console.log(`${baseline.padEnd(34)} median ${median(times[baseline]).toFixed(2)} ms (baseline)`)
for (const name of others) {
  // Lower is better for a time, so each round's ratio is baseline ÷ this: > 1 means this login was faster.
  const ratio = summarizeRatio(baseline, perRoundRatios(times[name], times[baseline], false))
  console.log(
    `${name.padEnd(34)} median ${median(times[name]).toFixed(2)} ms; speed vs baseline ${formatRatio(ratio)}`,
  )
}
