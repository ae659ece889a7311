import { readFileSync } from 'node:fs'
import { createHasher as argon2id } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createHasher as scrypt } from '@authlab/hash-scrypt'
import {
  argon2i,
  aspnetIdentity,
  createPasswordContext,
  django,
  type FirebaseHashConfig,
  firebaseScrypt,
  keycloak,
  type PasswordContextOptions,
  phpass,
  springSecurity,
} from '../../src/index.js'

/** One stored hash, the password it was made from, and what made it. */
export interface Vector {
  readonly maker: string
  readonly password: string
  readonly encoded: string
}

export const readVectors = <T>(path: string): T =>
  JSON.parse(readFileSync(new URL(`../vectors/${path}`, import.meta.url), 'utf8')) as T

const made = (path: string) => readVectors<{ vectors: Vector[] }>(path).vectors

/** Hashes made by each stack's own code (the generators beside each JSON file say how). */
export const MADE = {
  django: made('django/django.json'),
  php: made('php/php.json'),
  bcrypt: made('bcrypt/bcrypt.json'),
  phpass: made('phpass/phpass.json'),
  keycloak: made('keycloak/keycloak.json'),
}

interface AspnetFile {
  password: string
  vectors: { name: string; encoded: string }[]
  failureCases: { why: string; encoded: string }[]
}
interface SpringFile {
  delegating: { password: string; vectors: string[]; refused: string[] }
  secretPbkdf2: { secret: string; password: string; vectors: string[] }
  argon2Encoder: { password: string; vectors: string[] }
}
interface FirebaseFile {
  projects: {
    hashConfig: FirebaseHashConfig
    users: { password: string; salt: string; passwordHash: string }[]
  }[]
}
interface KeycloakMadeFile {
  password: string
  algorithm: string
  hashIterations: number
  vectors: { salt: string; value: string }[]
}

/** The stacks' own published test vectors, copied with their source (see each file's header). */
export const PUBLISHED = {
  aspnet: readVectors<AspnetFile>('aspnet/aspnet-identity.json'),
  spring: readVectors<SpringFile>('spring/spring-security.json'),
  firebase: readVectors<FirebaseFile>('firebase/firebase-scrypt.json'),
  keycloak: readVectors<KeycloakMadeFile>('keycloak/keycloak-made.json'),
}

/** A Firebase user as this package stores it: the export's salt and passwordHash after the marker. */
export const firebaseStored = (user: { salt: string; passwordHash: string }) =>
  `$firebase-scrypt$${user.salt}$${user.passwordHash}`

/** A Keycloak credential as a realm export writes it. */
export const keycloakCredential = (data: KeycloakMadeFile, vector: { salt: string; value: string }) =>
  JSON.stringify({
    type: 'password',
    secretData: JSON.stringify({ value: vector.value, salt: vector.salt }),
    credentialData: JSON.stringify({ hashIterations: data.hashIterations, algorithm: data.algorithm }),
  })

/**
 * What these tests upgrade to: scrypt at cheap parameters (the formats, not the costs, are under test),
 * so that PHP's `$argon2id$` imports are a legacy family here, read as typed like every other import.
 */
export const current = () => scrypt({ ln: 4, r: 8, p: 1 })
export const CURRENT = /^nfc:\$scrypt\$ln=4,r=8,p=1\$/
export const cheapBcrypt = () => bcrypt({ cost: 4 })
const FIREBASE_PROJECT = PUBLISHED.firebase.projects[0]?.hashConfig as FirebaseHashConfig

/**
 * The hashers that read every stack, as an app moving in would list them; bcrypt and argon2id read
 * PHP's `$2y$` and `$argon2id$` and the bcrypt exports of Rails, Auth0 and Okta.
 */
export function everyStack(firebase: FirebaseHashConfig = FIREBASE_PROJECT) {
  const bcryptHasher = cheapBcrypt()
  return [
    bcryptHasher,
    argon2id({ m: 64, t: 1, p: 1 }),
    django({ bcrypt: bcryptHasher }),
    argon2i(),
    aspnetIdentity(),
    springSecurity({ bcrypt: bcryptHasher }),
    phpass({ bcrypt: bcryptHasher }),
    keycloak(),
    firebaseScrypt(firebase),
  ]
}

export const contextForEveryStack = (
  options: Partial<PasswordContextOptions> = {},
  firebase?: FirebaseHashConfig,
) => createPasswordContext({ current: current(), legacy: everyStack(firebase), ...options })

/**
 * Another password: its first code point changed, inside the 72 bytes bcrypt reads (a change past
 * them is the same bcrypt password, as it was for the stack that made the hash).
 */
export const wrong = (password: string) => {
  const [first, ...rest] = Array.from(password)
  return `${first === 'a' ? 'b' : 'a'}${rest.join('')}`
}
