import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { argon2i, django, keycloak, phpass } from '../../src/index.js'
import { CURRENT, cheapBcrypt, contextForEveryStack, MADE, readVectors, wrong } from './fixtures.js'

/**
 * The stacks' own code, run live: what authlab's readers WRITE is checked by the stack that reads it
 * (Django's check_password, PHP's password_verify, WordPress's check, passlib's phpass, Keycloak's
 * PBKDF2 and argon2 recomputed), and fresh hashes the stack makes now verify here. The committed
 * vectors stand in where a verifier is not installed; with CI set every verifier is required.
 */
const PYTHON = process.env.AUTHLAB_PYTHON ?? '/usr/bin/python3'
const VERIFIERS = {
  python: {
    command: [PYTHON, fileURLToPath(new URL('../vectors/check-with-python.py', import.meta.url))],
    probe: [PYTHON, '-c', 'import django, bcrypt, argon2, passlib; assert django.VERSION[:2] == (5, 2)'],
    install:
      'apt-get install -y python3-bcrypt python3-argon2 python3-passlib python3-pip && /usr/bin/python3 -m pip install --break-system-packages django==5.2.17',
  },
  php: {
    command: ['php', fileURLToPath(new URL('../vectors/check-with-php.php', import.meta.url))],
    probe: ['php', '-r', 'exit(defined("PASSWORD_ARGON2I") ? 0 : 1);'],
    install: 'apt-get install -y php-cli',
  },
}
type Verifier = (typeof VERIFIERS)[keyof typeof VERIFIERS]

/** Why this verifier's tests skip here, or undefined: never skipped with CI set. */
function skipReason(name: string, verifier: Verifier): string | undefined {
  if (process.env.CI) return undefined
  const [command, ...args] = verifier.probe as [string, ...string[]]
  if (spawnSync(command, args, { stdio: 'ignore' }).status === 0) return undefined
  const reason = `live ${name} cross-check skipped: ${command} with the stack's packages is not installed and CI is not set; to run it: ${verifier.install}`
  console.log(reason)
  return reason
}

interface Check {
  kind: string
  encoded: string
  password: string
}
interface Reply {
  checked: boolean[]
  made: { password: string; encoded: string }[]
}

function run(verifier: Verifier, check: Check[], make: { password: string }[]): Reply {
  const [command, ...args] = verifier.command as [string, ...string[]]
  const result = spawnSync(command, args, {
    input: JSON.stringify({ check, make }),
    encoding: 'utf8',
    timeout: 60_000,
  })
  if (result.status !== 0) {
    throw new Error(
      `${command} failed (${result.error?.message ?? result.stderr}); install it with: ${verifier.install}`,
    )
  }
  return JSON.parse(result.stdout) as Reply
}

const { passwords } = readVectors<{ passwords: string[] }>('passwords.json')
const SOME = [passwords[0], passwords[1], passwords[7]] as string[]
const like = (vectors: readonly { maker: string; encoded: string }[], maker: string) =>
  vectors.find((v) => v.maker.startsWith(maker))?.encoded as string

/** For each writer, hashes of SOME, each checked with its password and with a wrong one. */
async function written(kind: string, hash: (password: string) => Promise<string>) {
  const checks: Check[] = []
  for (const password of SOME) {
    const encoded = await hash(password)
    checks.push({ kind, encoded, password }, { kind, encoded, password: wrong(password) })
  }
  return checks
}
const expectRightThenWrong = (checked: boolean[]) =>
  expect(checked).toEqual(checked.map((_, i) => i % 2 === 0))

async function expectMadeVerify(made: Reply['made']) {
  const context = contextForEveryStack()
  for (const { password, encoded } of made) {
    expect(await context.verify(encoded, password), encoded.slice(0, 20)).toEqual({
      valid: true,
      rehashed: expect.stringMatching(CURRENT),
    })
  }
}

const pythonSkip = skipReason('Python (Django, passlib, hashlib)', VERIFIERS.python)
describe.skipIf(pythonSkip !== undefined)('live: Django, passlib and Keycloak parameters in Python', () => {
  test('Django checks what django() writes, in every Django format; Django-made hashes verify here', async () => {
    const bcrypt = cheapBcrypt()
    const makers = [
      'pbkdf2_sha256',
      'pbkdf2_sha1',
      'argon2 argon2id',
      'argon2 argon2i',
      'bcrypt_sha256',
      'bcrypt cost',
      'scrypt',
    ]
    const checks = (
      await Promise.all(
        makers.map((m) =>
          written('django', (p) => django({ bcrypt, writeLike: like(MADE.django, m) }).hash(p)),
        ),
      )
    ).flat()
    const keycloakChecks = (
      await Promise.all(
        ['pbkdf2 (', 'pbkdf2-sha256', 'pbkdf2-sha512', 'argon2'].map((m) =>
          written('keycloak', (p) => keycloak({ writeLike: like(MADE.keycloak, m) }).hash(p)),
        ),
      )
    ).flat()
    const phpassChecks = (
      await Promise.all(
        ['$P$', '$H$'].map((m) =>
          written('phpass', (p) => phpass({ writeLike: like(MADE.phpass, m) }).hash(p)),
        ),
      )
    ).flat()
    const reply = run(
      VERIFIERS.python,
      [...checks, ...keycloakChecks, ...phpassChecks],
      SOME.map((password) => ({ password })),
    )
    expectRightThenWrong(reply.checked)
    expect(reply.made).toHaveLength(SOME.length * 4)
    await expectMadeVerify(reply.made)
  })
})

const phpSkip = skipReason('PHP', VERIFIERS.php)
describe.skipIf(phpSkip !== undefined)('live: PHP 8.2', () => {
  test("PHP checks what argon2i() and WordPress's $wp$ writer write; password_hash's hashes verify here", async () => {
    const checks = [
      ...(await written('password_verify', (p) =>
        argon2i({ writeLike: like(MADE.php, 'password_hash PASSWORD_ARGON2I m=') }).hash(p),
      )),
      ...(await written('wordpress', (p) =>
        phpass({ bcrypt: cheapBcrypt(), writeLike: like(MADE.php, 'WordPress') }).hash(p),
      )),
    ]
    const reply = run(
      VERIFIERS.php,
      checks,
      SOME.map((password) => ({ password })),
    )
    expectRightThenWrong(reply.checked)
    expect(reply.made).toHaveLength(SOME.length * 2)
    await expectMadeVerify(reply.made)
  })
})
