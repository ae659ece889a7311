#!/usr/bin/env node
// What a moved-in user's first login costs: CPU milliseconds of one verify of a stored hash at each
// stack's DEFAULT parameters, through the same readers a password context uses. Deterministic: one
// fixed password, a fixed list in a fixed order, WARMUP verifies discarded, then ROUNDS measured one
// at a time (each awaited, so one verify's threadpool work is all the process does). CPU time is
// process.cpuUsage() (user + system of every thread), so work on the libuv threadpool counts.
//
//   npm run build && node packages/password-context/scripts/first-login-cost.mjs [--rounds 15] [--out FILE]
//   node packages/password-context/scripts/first-login-table.mjs FILE   (writes the table into MOVING-IN.md)
//
// Run it on a quiet machine: timings taken while other work runs are not figures to publish. Needs
// Node >= 24.7 (node:crypto argon2); the workspace's own Node (npx node) has it.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createHasher as argon2id } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import * as pc from '@authlab/password-context'

const HERE = dirname(fileURLToPath(import.meta.url))
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    out: { type: 'string', default: join(HERE, '..', 'results', 'first-login-cost.json') },
  },
})
const ROUNDS = Number(values.rounds)
const WARMUP = 2
const PASSWORD = 'correct horse battery staple'

const b64 = (n) => Buffer.alloc(n, 1).toString('base64')
const b64u = (n) => b64(n).replace(/=+$/, '')
const argon2Like = (prefix, variant, m, t, p) =>
  `${prefix}$${variant}$v=19$m=${m},t=${t},p=${p}$${b64u(16)}$${b64u(32)}`
const keycloakLike = (algorithm, iterations, keyBytes, extra) =>
  JSON.stringify({
    type: 'password',
    secretData: JSON.stringify({ value: b64(keyBytes), salt: b64(16) }),
    credentialData: JSON.stringify({ hashIterations: iterations, algorithm, ...extra }),
  })
// Firebase's console shows a project's parameters; rounds 8 and mem_cost 14 are the ones firebase/scrypt
// documents (README.md) and tests with.
const FIREBASE = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
}

/** [stack, format and its defaults, the hasher that writes it there, where those defaults come from]. */
const ROWS = [
  ['Django 5.2', 'pbkdf2_sha256, 1,000,000 iterations', () => pc.django(), 'PBKDF2PasswordHasher.iterations'],
  [
    'Django 5.2',
    'argon2 (argon2id m=102400 t=2 p=8)',
    () => pc.django({ writeLike: argon2Like('argon2', 'argon2id', 102400, 2, 8) }),
    'Argon2PasswordHasher',
  ],
  [
    'Django 5.2',
    'bcrypt_sha256, cost 12',
    () => pc.django({ bcrypt: bcrypt({ cost: 12 }), writeLike: `bcrypt_sha256$$2b$12$${'.'.repeat(53)}` }),
    'BCryptSHA256PasswordHasher.rounds',
  ],
  [
    'Django 5.2',
    'scrypt N=2^14 r=8 p=5',
    () => pc.django({ writeLike: `scrypt$16384$salt$8$5$${b64(64)}` }),
    'ScryptPasswordHasher',
  ],
  ['PHP 8.2', '$2y$ bcrypt, cost 10', () => bcrypt({ cost: 10 }), 'PASSWORD_BCRYPT_DEFAULT_COST'],
  ['Laravel 11+', '$2y$ bcrypt, cost 12', () => bcrypt({ cost: 12 }), 'BCRYPT_ROUNDS'],
  ['PHP 8.2', '$argon2i$ m=65536 t=4 p=1', () => pc.argon2i(), 'PASSWORD_ARGON2_DEFAULT_*'],
  [
    'PHP 8.2',
    '$argon2id$ m=65536 t=4 p=1',
    () => argon2id({ m: 65536, t: 4, p: 1 }),
    'PASSWORD_ARGON2_DEFAULT_*',
  ],
  ['Rails', '$2a$ bcrypt, cost 12', () => bcrypt({ cost: 12 }), 'bcrypt-ruby BCrypt::Engine::DEFAULT_COST'],
  ['Auth0 export', '$2b$ bcrypt, cost 10', () => bcrypt({ cost: 10 }), 'the cost in its exported hashes'],
  [
    'ASP.NET Core Identity (.NET 7+)',
    'v3 HMACSHA512, 100,000 iterations',
    () => pc.aspnetIdentity(),
    'PasswordHasherOptions.IterationCount',
  ],
  [
    'ASP.NET Identity (v2)',
    'v2 HMACSHA1, 1,000 iterations',
    () => pc.aspnetIdentity({ writeLike: `A${'A'.repeat(65)}==` }),
    'HashPasswordV2',
  ],
  [
    'Spring Security',
    '{bcrypt}, cost 10',
    () => pc.springSecurity({ bcrypt: bcrypt({ cost: 10 }) }),
    'BCryptPasswordEncoder strength',
  ],
  [
    'Spring Security',
    '{pbkdf2@SpringSecurity_v5_8}, HMAC-SHA256, 310,000',
    () => pc.springSecurity(),
    'defaultsForSpringSecurity_v5_8',
  ],
  [
    'Spring Security',
    '{pbkdf2}, HMAC-SHA1, 185,000, 256-bit key',
    () => pc.springSecurity({ writeLike: `{pbkdf2}${'ab'.repeat(40)}` }),
    'defaultsForSpringSecurity_v5_5',
  ],
  [
    'Spring Security',
    '{scrypt@SpringSecurity_v5_8} N=2^16 r=8 p=1',
    () => pc.springSecurity({ writeLike: `{scrypt@SpringSecurity_v5_8}$100801$${b64(16)}$${b64(32)}` }),
    'defaultsForSpringSecurity_v5_8',
  ],
  [
    'Spring Security',
    '{argon2@SpringSecurity_v5_8} m=16384 t=2 p=1',
    () =>
      pc.springSecurity({ writeLike: argon2Like('{argon2@SpringSecurity_v5_8}', 'argon2id', 16384, 2, 1) }),
    'defaultsForSpringSecurity_v5_8',
  ],
  [
    'Firebase Auth',
    'modified scrypt, rounds 8, mem_cost 14',
    () => pc.firebaseScrypt(FIREBASE),
    'hash config (firebase/scrypt README)',
  ],
  ['WordPress < 6.8, phpBB', '$P$B phpass, 2^13 MD5', () => pc.phpass(), 'PasswordHash(8, true)'],
  [
    'WordPress 6.8+',
    '$wp$2y$ bcrypt, cost 10',
    () => pc.phpass({ bcrypt: bcrypt({ cost: 10 }), writeLike: `$wp$2y$10$${'.'.repeat(53)}` }),
    'wp_hash_password',
  ],
  [
    'Keycloak ≤ 23',
    'pbkdf2-sha256, 27,500, 512-bit key',
    () => pc.keycloak({ writeLike: keycloakLike('pbkdf2-sha256', 27500, 64) }),
    'Pbkdf2Sha256PasswordHashProviderFactory',
  ],
  [
    'Keycloak 24+',
    'pbkdf2-sha256, 600,000, 256-bit key',
    () => pc.keycloak({ writeLike: keycloakLike('pbkdf2-sha256', 600000, 32) }),
    'Pbkdf2Sha256PasswordHashProviderFactory',
  ],
  [
    'Keycloak 24 (FIPS default)',
    'pbkdf2-sha512, 210,000',
    () => pc.keycloak(),
    'Pbkdf2Sha512PasswordHashProviderFactory',
  ],
  [
    'Keycloak 25+',
    'argon2id m=7168 t=5 p=1',
    () =>
      pc.keycloak({
        writeLike: keycloakLike('argon2', 5, 32, {
          additionalParameters: {
            hashLength: ['32'],
            memory: ['7168'],
            type: ['id'],
            version: ['1.3'],
            parallelism: ['1'],
          },
        }),
      }),
    'Argon2Parameters defaults',
  ],
]

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

async function measure(hasher, stored) {
  const cpu = []
  const wall = []
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const before = process.cpuUsage()
    const started = performance.now()
    if (!(await hasher.verify(stored, PASSWORD))) throw new Error('the measured hash did not verify')
    const used = process.cpuUsage(before)
    if (i >= WARMUP) {
      cpu.push((used.user + used.system) / 1000)
      wall.push(performance.now() - started)
    }
  }
  const round = (x) => Math.round(x * 10) / 10
  return {
    cpuMs: { median: round(median(cpu)), min: round(Math.min(...cpu)), max: round(Math.max(...cpu)) },
    wallMs: { median: round(median(wall)) },
  }
}

const git = (...args) => {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim()
  } catch {
    return undefined
  }
}

const rows = []
for (const [stack, format, make, source] of ROWS) {
  const hasher = make()
  const stored = await hasher.hash(PASSWORD)
  rows.push({ stack, format, defaultsFrom: source, ...(await measure(hasher, stored)) })
  process.stderr.write(`${stack} · ${format}: ${rows.at(-1).cpuMs.median} ms CPU\n`)
}
const cpus = os.cpus()
const results = {
  measures:
    'CPU milliseconds per verify of one stored hash at the stack defaults (process.cpuUsage, threadpool included)',
  rounds: ROUNDS,
  warmup: WARMUP,
  environment: {
    cpu: cpus[0]?.model,
    cores: cpus.length,
    os: `${os.type()} ${os.release()}`,
    runtime: `node ${process.versions.node}`,
    openssl: process.versions.openssl,
    commit: git('rev-parse', 'HEAD'),
    date: new Date().toISOString(),
    loadAverageAtStart: os.loadavg(),
  },
  rows,
}
mkdirSync(dirname(values.out), { recursive: true })
writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`)
process.stderr.write(`wrote ${values.out}\n`)
