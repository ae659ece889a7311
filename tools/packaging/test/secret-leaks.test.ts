import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, test } from 'vitest'
import {
  kindOf,
  nodeEngineProblem,
  nodeRequirement,
  publishablePackages,
  REPO_ROOT,
} from '../src/workspace.mjs'

// Error messages end up in logs that many people read. A password must never appear in one, and a
// stored hash only by its format identifier: feed marked secrets through every error path of every
// package and look for any 3-character piece of them in the message, the cause chain and the stack.
const PASSWORD = 'ZqX~vK^wQj'
// In bcrypt's and base64's alphabets, so malformed hashes built from it get past the first checks.
const BODY = 'QxZvKwqJzXjYq'
// A shared secret (a remote helper's signing key), which must stay out of messages as well.
const SHARED_SECRET = 'Wv9#Lm2&Rt7@Kp4%Hs8!Nc3*Fd6^Gb1x'

const pieces = (secret: string) => Array.from({ length: secret.length - 2 }, (_, i) => secret.slice(i, i + 3))
const SECRET_PIECES = [...pieces(PASSWORD), ...pieces(BODY), ...pieces(SHARED_SECRET)]

function errorText(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; current && depth < 8; depth++) {
    const e = current as { message?: unknown; stack?: unknown; cause?: unknown }
    parts.push(String(e.message ?? current), String(e.stack ?? ''))
    current = e.cause
  }
  return parts.join('\n')
}

/** Runs `attempt`; returns the leaked pieces if it threw (undefined if it did not throw). */
async function leaks(attempt: () => unknown): Promise<string[] | undefined> {
  try {
    await attempt()
    return undefined
  } catch (error) {
    const text = errorText(error)
    return SECRET_PIECES.filter((piece) => text.includes(piece))
  }
}

const long = (body: string, n: number) => body.repeat(Math.ceil(n / body.length)).slice(0, n)
const MALFORMED = [
  `$2b$10$${long(BODY, 53)}`,
  `$2b$10$${long(BODY, 52)}`,
  `$2b$99$${long(BODY, 53)}`,
  `$2b$${BODY}`,
  `$argon2id$v=19$m=19456,t=2,p=1$${BODY}$${BODY}`,
  `$argon2id$v=19$m=${BODY},t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaA`,
  `$scrypt$ln=17,r=8,p=1$${BODY}$${BODY}`,
  `$scrypt$ln=${BODY}$c2FsdHNhbHQ$aGFzaA`,
  `$pbkdf2-sha256$i=600000$${BODY}$${BODY}`,
  `$pbkdf2-sha256$${BODY}$${BODY}$${BODY}`,
  `$${BODY}$${BODY}`,
  BODY,
  PASSWORD,
  `${PASSWORD}${BODY}`,
]
const BAD_PASSWORDS = [PASSWORD.repeat(500), `${PASSWORD}\u0000${PASSWORD}`, `${PASSWORD}\uD800`, '']

// Every package a secret passes through: hashers, stretchers, the remote helper client and the context.
const packages = publishablePackages().filter(
  (pkg) =>
    kindOf(pkg) !== 'id' &&
    ![
      '@authlab/core',
      '@authlab/conformance',
      '@authlab/calibrate',
      '@authlab/session-logout-guard',
    ].includes(pkg.manifest.name) &&
    // One built on a newer Node's API cannot hash here; its error paths are checked where it runs.
    !nodeEngineProblem({ nodeEngine: nodeRequirement(pkg.manifest) }),
)
interface StrategyModule {
  hasher: {
    hash(password: string): Promise<string>
    verify(encoded: string, password: string): Promise<boolean>
    needsRehash(encoded: string): boolean
    derive?(password: string, salt: string, length: number): Promise<Uint8Array>
  }
  stretcher?: { stretch(email: string, password: string, salt: Uint8Array): Promise<unknown> }
  createRemoteScrypt?(options: Record<string, unknown>): {
    derive(password: string, salt: string, length: number): Promise<Uint8Array>
    close(): Promise<void>
  }
  authlabPassword?(context: unknown): {
    verify(data: { hash: string; password: string }): Promise<boolean>
  }
  createPasswordContext?(options: { current: unknown; legacy?: unknown[] }): {
    verify(encoded: string | null, password: string): Promise<unknown>
    hash(password: string): Promise<string>
  }
}
const load = async (dir: string) =>
  (await import(pathToFileURL(join(dir, 'dist/esm/index.js')).href)) as StrategyModule

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (_name, pkg) => {
  test('no error message, cause or stack quotes a password or a stored hash', async () => {
    const mod = await load(pkg.dir)
    const found: string[] = []
    let errorPaths = 0
    const check = async (label: string, attempt: () => unknown) => {
      const leaked = await leaks(attempt)
      if (leaked) errorPaths++
      if (leaked?.length) found.push(`${label}: ${leaked.join(' ')}`)
    }
    if (kindOf(pkg) === 'hash') {
      const hasher = mod.hasher
      const valid = await hasher.hash('correct horse battery staple')
      await check('verify(password, hash) — arguments swapped', () => hasher.verify(PASSWORD, valid))
      for (const encoded of MALFORMED) {
        await check(`verify(${encoded.slice(0, 12)}…)`, () => hasher.verify(encoded, PASSWORD))
        await check(`needsRehash(${encoded.slice(0, 12)}…)`, () => hasher.needsRehash(encoded))
      }
      for (const password of BAD_PASSWORDS) {
        await check(`hash(bad password of ${password.length})`, () => hasher.hash(password))
        await check(`verify(hash, bad password of ${password.length})`, () => hasher.verify(valid, password))
      }
      const derive = hasher.derive?.bind(hasher)
      if (derive) await check('derive(password, salt, -1)', () => derive(PASSWORD, BODY, -1))
    }
    if (mod.stretcher) {
      const stretcher = mod.stretcher
      for (const password of BAD_PASSWORDS) {
        await check('stretch(email, bad password)', () =>
          stretcher.stretch('a@example.com', password, new Uint8Array(32)),
        )
        await check('stretch(bad email, password)', () =>
          stretcher.stretch(password, PASSWORD, new Uint8Array(32)),
        )
      }
    }
    if (mod.createPasswordContext) {
      const scrypt = await load(join(REPO_ROOT, 'packages/hash-scrypt'))
      const bcrypt = await load(join(REPO_ROOT, 'packages/hash-bcrypt'))
      const context = mod.createPasswordContext({ current: scrypt.hasher, legacy: [bcrypt.hasher] })
      for (const encoded of MALFORMED) {
        await check(`context.verify(${encoded.slice(0, 12)}…)`, () => context.verify(encoded, PASSWORD))
      }
    }
    if (mod.authlabPassword) {
      // better-auth's emailAndPassword.password over a context: its verify is where stored hashes go.
      const { createPasswordContext } = await load(join(REPO_ROOT, 'packages/password-context'))
      const scrypt = await load(join(REPO_ROOT, 'packages/hash-scrypt'))
      const password = mod.authlabPassword(createPasswordContext?.({ current: scrypt.hasher }))
      for (const encoded of MALFORMED) {
        await check(`authlabPassword.verify(${encoded.slice(0, 12)}…)`, () =>
          password.verify({ hash: encoded, password: PASSWORD }),
        )
      }
    }
    if (mod.createRemoteScrypt) {
      const create = mod.createRemoteScrypt
      await check('createRemoteScrypt(short secret)', () =>
        create({ url: 'http://127.0.0.1:1/', secret: PASSWORD }),
      )
      await check('createRemoteScrypt(bad url)', () => create({ url: PASSWORD, secret: SHARED_SECRET }))
      // Port 1 on loopback refuses: the unavailable path, after its retries.
      const remote = create({
        url: 'http://127.0.0.1:1/',
        secret: SHARED_SECRET,
        maxAttempts: 2,
        timeoutMs: 5000,
      })
      try {
        await check('derive() with the helper down', () => remote.derive(PASSWORD, BODY, 32))
        await check('derive(length -1)', () => remote.derive(PASSWORD, BODY, -1))
      } finally {
        await remote.close()
      }
    }
    expect(found).toEqual([])
    // The malformed inputs did reach error paths: a package that threw nowhere would prove nothing.
    expect(errorPaths).toBeGreaterThanOrEqual(4)
  }, 120_000)
})
