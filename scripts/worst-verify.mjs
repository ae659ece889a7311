#!/usr/bin/env node
// The costliest stored hash each hasher's default limits still verify: one child process per hasher
// hashes at the edge of its algorithm's default work budget, then a default-configured hasher of the
// same package verifies it. Prints one JSON line per hasher: verify wall time and peak RSS (maxRSS),
// with the load average, since both depend on the machine. Run after `npx turbo run build`.
//   node scripts/worst-verify.mjs [@authlab/hash-scrypt ...]
import { execFileSync } from 'node:child_process'
import { loadavg } from 'node:os'

// At the edge of each profile's default budget (the script checks it is within, and prints the work).
const EDGE = {
  bcrypt: { cost: 14 },
  scrypt: { ln: 18, r: 8, p: 1 },
  argon2id: { m: 262_144, t: 4, p: 1 },
  'pbkdf2-sha256': { iterations: 4_000_000 },
}
const HASHERS = [
  '@authlab/hash-bcrypt',
  '@authlab/hash-node-rs-bcrypt',
  '@authlab/hash-bcryptjs',
  '@authlab/hash-wasm',
  '@authlab/hash-argon2',
  '@authlab/hash-scrypt',
  '@authlab/hash-scrypt-js',
  '@authlab/hash-pbkdf2',
  '@authlab/hash-webcrypto',
]

const child = (name) => `
  const { createHasher } = await import(${JSON.stringify(name)})
  const { getAlgorithm } = await import('@authlab/core')
  const edge = ${JSON.stringify(EDGE)}
  const plain = createHasher()
  const profile = getAlgorithm(plain.info.algorithm)
  const params = edge[profile.id]
  const work = profile.work(params, 32)
  if (work.units > profile.budget.units || work.memoryBytes > profile.budget.memoryBytes) throw new Error('not in budget')
  const stored = await createHasher({ ...params }).hash('hostile')
  const before = process.resourceUsage().maxRSS
  const start = performance.now()
  const ok = await plain.verify(stored, 'hostile')
  const ms = performance.now() - start
  console.log(JSON.stringify({ name: ${JSON.stringify(name)}, algorithm: profile.id, params, work, ok,
    verifyMs: Math.round(ms), maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024), rssBeforeMiB: Math.round(before / 1024) }))
`
const names = process.argv.length > 2 ? process.argv.slice(2) : HASHERS
process.stdout.write(
  `${JSON.stringify({ loadavg: loadavg().map((l) => l.toFixed(2)), node: process.version })}\n`,
)
for (const name of names) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', child(name)], { encoding: 'utf8' })
  process.stdout.write(out)
}
