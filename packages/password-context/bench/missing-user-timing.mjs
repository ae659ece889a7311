// Does a login for a missing user take as long as one for a real user? Interleaves the two (plus a
// real-user A/A control) in random order per round and prints medians with the spread of per-round
// differences, so the gap can be read against the noise of measuring the same thing twice.
// Run after `npx turbo run build`: node packages/password-context/bench/missing-user-timing.mjs [rounds]
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { hasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createPasswordContext } from '../dist/esm/index.js'

const rounds = Number(process.argv[2] ?? 200)
const context = createPasswordContext({ current: argon2, legacy: [bcrypt()] })
const stored = await argon2.hash('correct horse battery staple')
const cases = {
  'real user, wrong password': () => context.verify(stored, 'Tr0ub4dor&3'),
  'real user, wrong password (A/A)': () => context.verify(stored, 'Tr0ub4dor&3'),
  'missing user': () => context.verify(null, 'Tr0ub4dor&3'),
}
const names = Object.keys(cases)
const times = Object.fromEntries(names.map((name) => [name, []]))
for (let warm = 0; warm < 10; warm++) for (const name of names) await cases[name]()
for (let round = 0; round < rounds; round++) {
  for (const name of [...names].sort(() => Math.random() - 0.5)) {
    const start = performance.now()
    await cases[name]()
    times[name].push(performance.now() - start)
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const base = times[names[0]]
const diffs = (name) => times[name].map((t, i) => t - base[i])
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]
console.log(`argon2id m=19456 t=2 p=1, ${rounds} interleaved rounds, load ${loadavg()[0].toFixed(2)} at end`)
for (const name of names) {
  const d = diffs(name)
  console.log(
    `${name.padEnd(34)} median ${median(times[name]).toFixed(2)} ms; per-round difference to the first row: median ${median(d).toFixed(2)} ms, 95 % of rounds within ${quantile(d, 0.025).toFixed(2)}..${quantile(d, 0.975).toFixed(2)} ms`,
  )
}
