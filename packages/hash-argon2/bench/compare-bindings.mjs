#!/usr/bin/env node
import { execFileSync } from 'node:child_process'
// Chooses the native argon2id binding for @authlab/hash-argon2: `argon2` (C reference code via
// N-API) against `@node-rs/argon2` (Rust `argon2` crate via napi-rs). Same work for both: argon2id,
// OWASP Password Storage Cheat Sheet parameters m=19456 KiB, t=2, p=1, 16-byte salt, 32-byte tag.
// Rounds are interleaved A B B A so drift in machine load hits both candidates alike (a slow spell
// on the shared 2-core box would otherwise land on one candidate only),
// the first rounds are discarded as warm-up, and every hash is consumed so none can be skipped.
// Usage: node packages/hash-argon2/bench/compare-bindings.mjs [rounds=30]  → results/binding-choice.json
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import { Algorithm, hash as rsHash } from '@node-rs/argon2'
import argon2 from 'argon2'

const rounds = Number(process.argv[2] ?? 30)
const warmup = 3
const params = { m: 19456, t: 2, p: 1, saltLength: 16, hashLength: 32 }
const require = createRequire(import.meta.url)
const versionOf = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version

const candidates = {
  argon2: (password) =>
    argon2.hash(password, {
      type: argon2.argon2id,
      memoryCost: params.m,
      timeCost: params.t,
      parallelism: params.p,
      hashLength: params.hashLength,
      salt: randomBytes(params.saltLength),
    }),
  '@node-rs/argon2': (password) =>
    rsHash(password, {
      algorithm: Algorithm.Argon2id,
      memoryCost: params.m,
      timeCost: params.t,
      parallelism: params.p,
      outputLen: params.hashLength,
      salt: randomBytes(params.saltLength),
    }),
}

const samples = Object.fromEntries(Object.keys(candidates).map((name) => [name, []]))
let consumed = 0
const order = Object.keys(candidates)
const loadAtStart = os.loadavg()
for (let round = 0; round < rounds + warmup; round++) {
  // A B on even rounds, B A on odd rounds.
  const names = round % 2 === 0 ? order : [...order].reverse()
  for (const name of names) {
    const password = `correct horse battery staple ${round}`
    const start = process.hrtime.bigint()
    const encoded = await candidates[name](password)
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    // `argon2` (via @phc/format) sorts the parameters as m,p,t; the reference code emits m,t,p.
    if (!/^\$argon2id\$v=19\$(m=19456,t=2,p=1|m=19456,p=1,t=2)\$/.test(encoded))
      throw new Error(`${name}: ${encoded}`)
    consumed += encoded.length
    if (round >= warmup) samples[name].push(ms)
  }
}

const summarise = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  return {
    n: sorted.length,
    medianMs: +median.toFixed(2),
    minMs: +sorted[0].toFixed(2),
    maxMs: +sorted.at(-1).toFixed(2),
  }
}
const results = Object.fromEntries(
  Object.entries(samples).map(([name, values]) => [name, { version: versionOf(name), ...summarise(values) }]),
)
const [fastest] = Object.entries(results).sort(([, a], [, b]) => a.medianMs - b.medianMs)
let commit = 'unknown'
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
} catch {}
const report = {
  date: new Date().toISOString(),
  machine: {
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    os: `${os.type()} ${os.release()}`,
    loadAtStart,
  },
  runtime: `node ${process.version}`,
  commit,
  params,
  warmupRounds: warmup,
  results,
  fastest: fastest[0],
  ratio: Object.fromEntries(
    Object.entries(results).map(([name, r]) => [name, +(r.medianMs / fastest[1].medianMs).toFixed(3)]),
  ),
  consumedChars: consumed,
}
const out = new URL('./results/binding-choice.json', import.meta.url)
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`)
console.log(JSON.stringify(report, null, 2))
