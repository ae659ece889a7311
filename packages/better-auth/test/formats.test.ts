import { readFileSync } from 'node:fs'
import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import {
  argon2i,
  aspnetIdentity,
  createPasswordContext,
  django,
  type FirebaseHashConfig,
  firebaseScrypt,
  keycloak,
  phpass,
  springSecurity,
} from '@authlab/password-context'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { beforeAll, expect, test } from 'vitest'
import { authlabPassword, authlabRehash } from '../src/index.js'

const BASE_URL = 'http://localhost:3000'

interface Vector {
  maker: string
  password: string
  encoded: string
}
// The committed vectors of @authlab/password-context: hashes made by each stack's own code.
const vectors = <T>(path: string) =>
  JSON.parse(
    readFileSync(new URL(`../../password-context/test/vectors/${path}`, import.meta.url), 'utf8'),
  ) as T
const made = (path: string, maker: string) =>
  vectors<{ vectors: Vector[] }>(path).vectors.find(
    (v) => v.maker.startsWith(maker) && v.password === 'correct horse battery staple',
  ) as Vector
const aspnet = vectors<{ password: string; vectors: { encoded: string }[] }>('aspnet/aspnet-identity.json')
const spring = vectors<{ delegating: { password: string; vectors: string[] } }>('spring/spring-security.json')
const firebase = vectors<{
  projects: {
    hashConfig: FirebaseHashConfig
    users: { password: string; salt: string; passwordHash: string }[]
  }[]
}>('firebase/firebase-scrypt.json').projects[0] as {
  hashConfig: FirebaseHashConfig
  users: { password: string; salt: string; passwordHash: string }[]
}
const firebaseUser = firebase.users[1] as { password: string; salt: string; passwordHash: string }

/** One imported account per stored format: [email, password, stored value]. */
const IMPORTS: ReadonlyArray<readonly [string, string, string]> = [
  // The shape better-auth's Auth0 migration guide stores, which its default verifier cannot read.
  [
    'auth0@example.com',
    made('bcrypt/bcrypt.json', '$2b$').password,
    made('bcrypt/bcrypt.json', '$2b$').encoded,
  ],
  [
    'rails@example.com',
    made('bcrypt/bcrypt.json', '$2a$').password,
    made('bcrypt/bcrypt.json', '$2a$').encoded,
  ],
  [
    'django@example.com',
    made('django/django.json', 'pbkdf2_sha256').password,
    made('django/django.json', 'pbkdf2_sha256').encoded,
  ],
  [
    'django-bcrypt@example.com',
    made('django/django.json', 'bcrypt_sha256').password,
    made('django/django.json', 'bcrypt_sha256').encoded,
  ],
  [
    'laravel@example.com',
    made('php/php.json', 'password_hash PASSWORD_BCRYPT').password,
    made('php/php.json', 'password_hash PASSWORD_BCRYPT').encoded,
  ],
  [
    'php-argon2i@example.com',
    made('php/php.json', 'password_hash PASSWORD_ARGON2I m=').password,
    made('php/php.json', 'password_hash PASSWORD_ARGON2I m=').encoded,
  ],
  [
    'wordpress@example.com',
    made('phpass/phpass.json', '$P$').password,
    made('phpass/phpass.json', '$P$').encoded,
  ],
  [
    'keycloak@example.com',
    made('keycloak/keycloak.json', 'pbkdf2-sha256').password,
    made('keycloak/keycloak.json', 'pbkdf2-sha256').encoded,
  ],
  ['aspnet@example.com', aspnet.password, aspnet.vectors[6]?.encoded as string],
  ['spring@example.com', spring.delegating.password, spring.delegating.vectors[0] as string],
  [
    'firebase@example.com',
    firebaseUser.password,
    `$firebase-scrypt$${firebaseUser.salt}$${firebaseUser.passwordHash}`,
  ],
]

const CURRENT = /^nfc:\$argon2id\$v=19\$m=1024,t=1,p=1\$/
const bcryptHasher = bcrypt({ cost: 4 })
const context = createPasswordContext({
  current: argon2({ m: 1024, t: 1, p: 1 }),
  legacy: [
    bcryptHasher,
    django({ bcrypt: bcryptHasher }),
    argon2i(),
    aspnetIdentity(),
    springSecurity({ bcrypt: bcryptHasher }),
    phpass({ bcrypt: bcryptHasher }),
    keycloak(),
    firebaseScrypt(firebase.hashConfig),
  ],
})

const database = memoryAdapter({ user: [], session: [], account: [], verification: [] })
const options = {
  baseURL: BASE_URL,
  secret: 'authlab-better-auth-test-secret-of-32+chars',
  database,
  telemetry: { enabled: false },
  logger: { disabled: true },
} as const
const auth = betterAuth({
  ...options,
  emailAndPassword: { enabled: true, password: authlabPassword(context) },
  plugins: [authlabRehash(context)],
})
/** The same users table under better-auth's default hasher, as its Auth0 migration guide leaves it. */
const defaultAuth = betterAuth({ ...options, emailAndPassword: { enabled: true } })

const userIds = new Map<string, string>()

/** Loaded as better-auth's migration guides load users: a user row and a `credential` account row. */
beforeAll(async () => {
  const ctx = await auth.$context
  for (const [email, , stored] of IMPORTS) {
    const user = await ctx.adapter.create<{ id: string }>({
      model: 'user',
      data: {
        email,
        name: email.split('@')[0],
        emailVerified: true,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    })
    await ctx.adapter.create({
      model: 'account',
      data: {
        userId: user.id,
        providerId: 'credential',
        accountId: user.id,
        password: stored,
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    })
    userIds.set(email, user.id)
  }
})

const signIn = async (email: string, password: string, app: { handler: typeof auth.handler } = auth) =>
  (
    await app.handler(
      new Request(`${BASE_URL}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: BASE_URL },
        body: JSON.stringify({ email, password }),
      }),
    )
  ).status

const storedHash = async (email: string) =>
  (await (await auth.$context).internalAdapter.findCredentialAccount(userIds.get(email) as string))?.password

test("better-auth's default verifier cannot sign in the Auth0 export; authlab's can (below)", async () => {
  const [email, password] = IMPORTS[0] as readonly [string, string, string]
  expect(await signIn(email, password, defaultAuth)).not.toBe(200)
})

test.each(IMPORTS)(
  '%s signs in with its imported hash, is moved to argon2id on that sign-in, and signs in again',
  async (email, password, imported) => {
    expect(await signIn(email, `${password}!`)).toBe(401)
    expect(await storedHash(email)).toBe(imported)
    expect(await signIn(email, password)).toBe(200)
    const upgraded = await storedHash(email)
    expect(upgraded).toMatch(CURRENT)
    expect(await signIn(email, password)).toBe(200)
    expect(await storedHash(email)).toBe(upgraded)
  },
)
