// Can a wrong-password sign-in tell a missing account from an existing one, or one kind of account from
// another? Times better-auth's email sign-in over HTTP (`auth.handler`, the memory adapter) with a wrong
// password for each kind of account, in two apps: better-auth alone, and better-auth wired as
// packages/better-auth/README.md shows. Every sign-in is one candidate of a round; each round runs every candidate once
// in a fresh seeded random order (benchmarks/src/measure/rounds.ts), after warm-up rounds that are
// discarded. It prints each kind's median and its time relative to the missing account of the same app,
// per round, with the bench's 95 % interval (benchmarks/src/measure/verdict.ts).
//
// Run after `npm run build`: node benchmarks/probes/better-auth-wrong-password.mjs [rounds]
//               (SEED=… to replay, WRONG_PASSWORD=… to choose the wrong password)
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { authlabPassword, authlabRehash } from '@authlab/better-auth'
import { hasher as argon2id } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { BETTER_AUTH_SCRYPT, createPasswordContext } from '@authlab/password-context'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { shuffledRounds } from '../dist/measure/rounds.js'
import { median } from '../dist/measure/stats.js'
import { judge, perRoundRatios, ratioInterval } from '../dist/measure/verdict.js'
import { formatMagnitude } from '../dist/report/words.js'

const ROUNDS = Number(process.argv[2] ?? 20)
const WARM_UP_ROUNDS = 2
const SEED = Number(process.env.SEED ?? Date.now() % 2 ** 31)
const BASE_URL = 'http://localhost:3000'
const PASSWORD = 'correct horse battery staple'
// WRONG_PASSWORD='' (or any other) times a password some hasher's policy refuses instead.
const WRONG = process.env.WRONG_PASSWORD ?? 'Tr0ub4dor&3 is not it'

const emptyDatabase = () => memoryAdapter({ user: [], session: [], account: [], verification: [] })
const common = {
  baseURL: BASE_URL,
  secret: 'authlab-bench-secret-of-at-least-32-chars',
  telemetry: { enabled: false },
}
const quiet = { logger: { disabled: true } }

/** better-auth with its default hasher (scrypt, saltHex:keyHex). */
const alone = betterAuth({
  ...common,
  ...quiet,
  database: emptyDatabase(),
  emailAndPassword: { enabled: true },
})

/** better-auth as this package's README configures it. */
function withAuthlab() {
  const passwords = createPasswordContext({
    current: argon2id,
    legacy: [bcrypt()],
    missingUserFormat: BETTER_AUTH_SCRYPT,
  })
  const database = emptyDatabase()
  const app = betterAuth({
    ...common,
    ...quiet,
    database,
    emailAndPassword: { enabled: true, password: authlabPassword(passwords) },
    plugins: [authlabRehash(passwords)],
  })
  // The same database read by better-auth's default hasher: how its users signed up before the move.
  const before = betterAuth({ ...common, ...quiet, database, emailAndPassword: { enabled: true } })
  return { app, before }
}
const authlab = withAuthlab()

const signUp = async (app, email) =>
  (await app.api.signUpEmail({ body: { email, password: PASSWORD, name: email.split('@')[0] } })).user.id

async function setHash(app, userId, hash) {
  await (await app.$context).internalAdapter.updatePassword(userId, hash)
}

await signUp(alone, 'scrypt@example.com')
await signUp(authlab.before, 'scrypt@example.com')
await setHash(authlab.app, await signUp(authlab.before, 'bcrypt@example.com'), await bcrypt().hash(PASSWORD))
await signUp(authlab.app, 'argon2id@example.com')

/** Kinds of account, by the email signed in to. */
const KINDS = {
  missing: 'nobody@example.com',
  "better-auth's scrypt": 'scrypt@example.com',
  'bcrypt import (cost 10)': 'bcrypt@example.com',
  'argon2id (OWASP)': 'argon2id@example.com',
}
const APPS = {
  'better-auth alone': { app: alone, kinds: ['missing', "better-auth's scrypt"] },
  'with @authlab/better-auth': { app: authlab.app, kinds: Object.keys(KINDS) },
}
const candidates = Object.entries(APPS).flatMap(([appName, { app, kinds }]) =>
  kinds.map((kind) => ({ appName, kind, app, email: KINDS[kind] })),
)
const keyOf = (c) => `${c.appName} / ${c.kind}`

/** One wrong-password sign-in over HTTP: its wall time in ms and its status. */
async function signIn({ app, email }) {
  const request = new Request(`${BASE_URL}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE_URL },
    body: JSON.stringify({ email, password: WRONG }),
  })
  const start = performance.now()
  const response = await app.handler(request)
  await response.arrayBuffer()
  return { ms: performance.now() - start, status: response.status }
}

const times = new Map(candidates.map((c) => [keyOf(c), []]))
const statuses = new Map(candidates.map((c) => [keyOf(c), new Set()]))
const schedule = shuffledRounds(candidates, WARM_UP_ROUNDS + ROUNDS, SEED)
for (const [round, order] of schedule.entries()) {
  for (const candidate of order) {
    const { ms, status } = await signIn(candidate)
    statuses.get(keyOf(candidate)).add(status)
    if (round >= WARM_UP_ROUNDS) times.get(keyOf(candidate)).push(ms)
  }
}

// better-auth exports no ./package.json: read the one beside its resolved entry point.
const betterAuthVersion = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.resolve('better-auth')), 'utf8'),
).version
let commit = 'unknown'
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
} catch {}
console.log(
  `${cpus()[0]?.model} × ${cpus().length}, Node ${process.version}, better-auth ${betterAuthVersion}, ` +
    `commit ${commit}, ${new Date().toISOString()}, load ${loadavg()[0].toFixed(2)} at end`,
)
console.log(
  `${ROUNDS} rounds after ${WARM_UP_ROUNDS} discarded (seed ${SEED}); sign-in over auth.handler with the ` +
    `wrong password ${JSON.stringify(WRONG)}`,
)
console.log('')
console.log('| app | account | status | median ms | time ÷ missing account (95 % interval) |')
console.log('|---|---|---|---|---|')
/** A ratio of times (> 1: slower than the missing account) and what its interval decides. */
function relative(kindTimes, missingTimes) {
  const rounds = perRoundRatios(kindTimes, missingTimes, true)
  const interval = ratioInterval(rounds)
  const words = { better: 'slower', worse: 'faster', same: 'same (±5 %)', undecided: 'undecided' }
  return `${formatMagnitude({ value: median(rounds), ...interval })} ${words[judge(interval, rounds.length)]}`
}
for (const c of candidates) {
  const own = times.get(keyOf(c))
  const missing = times.get(`${c.appName} / missing`)
  const ratio = c.kind === 'missing' ? 'baseline' : relative(own, missing)
  const status = [...statuses.get(keyOf(c))].join(', ')
  console.log(`| ${c.appName} | ${c.kind} | ${status} | ${median(own).toFixed(1)} | ${ratio} |`)
}
