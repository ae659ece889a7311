import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { requireRuntime } from '@authlab/runtimes/availability'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { childEnv } from '../src/child-env.mjs'
import { type PackedPackage, writeConsumerProject } from '../src/consumer-project.mjs'
import { findFloorNode } from '../src/floor-node.mjs'
import { packPackages } from '../src/pack.mjs'
import { snippetModule, snippetRuns } from '../src/snippet-runs.mjs'
import { kindOf, nodeEngineProblem, nodeRequirement, publishablePackages } from '../src/workspace.mjs'
import { driveServerSnippet, runScriptSnippet, startServerSnippet } from './snippet-flows.js'

// What a user gets from the registry: pack every publishable package, install the tarballs into one fresh project outside the
// workspace (registry dependencies only), then use them from require, import, TypeScript and a
// real express app over HTTP. One install for the whole file, from the npm cache `npm ci` warmed.
const workspacePackages = publishablePackages()
const root = mkdtempSync(join(tmpdir(), 'authlab-consumer-'))
/** The consumer project installed by the workspace's Node; each other Node has its own (see NodeUnderTest). */
const consumer = join(root, 'app')
const packages: PackedPackage[] = []
let installWarnings = ''
/**
 * The Nodes every package is loaded and served on: the one running the tests (the workspace's) and the
 * oldest the packages state in `engines` (their floor), so a published package is proven where its
 * users may still run it.
 */
interface NodeUnderTest {
  readonly label: string
  readonly path: string
  readonly version: string
  /**
   * Its own consumer project, installed by npm running on this Node, as its users' would be, with no
   * compiler on PATH (see slimPath): a native addon's install script (node-gyp-build) finds there whether
   * its prebuilt binary loads on that Node, and the install fails if it would have to compile one.
   */
  readonly dir: string
  /**
   * Packages whose required Node (authlab.node) this Node does not meet (one built on Node 24.7's
   * crypto.argon2): they must still load, and creating their strategy must be the typed error, which (a)
   * and (b) check.
   */
  readonly tooOld: ReadonlyMap<string, string>
}
const nodeUnderTest = (label: string, path: string, version: string): NodeUnderTest => ({
  label: `${label}, Node ${version}`,
  path,
  version,
  dir: path === process.execPath ? consumer : join(root, `app-node${version.split('.')[0]}`),
  tooOld: new Map(
    workspacePackages.flatMap((pkg) => {
      const reason = nodeEngineProblem({ nodeEngine: nodeRequirement(pkg.manifest) }, version)
      return reason ? [[pkg.manifest.name, reason] as const] : []
    }),
  ),
})
const floor = findFloorNode()
const NODES: NodeUnderTest[] = [
  nodeUnderTest("the workspace's", process.execPath, process.versions.node),
  ...('path' in floor && floor.version.split('.')[0] !== process.versions.node.split('.')[0]
    ? [nodeUnderTest('the stated floor', floor.path, floor.version)]
    : []),
]

/**
 * (f) Every code block of the READMEs a user reads (the repository's and each package's), run in the
 * consumer project as a user would paste it; a block that cannot run there says why in its marker
 * (readme-snippets.test.ts checks every block has one or the other).
 */
const SNIPPETS = snippetRuns().flatMap((run, index) =>
  'notRun' in run
    ? []
    : run.modules.map((module) => ({
        ...run,
        module,
        index,
        where: `${run.snippet.readme}:${run.snippet.line}`,
      })),
)

/** What the snippets ask for from the environment before they start. */
const snippetEnv = () => ({
  ...childEnv(),
  SESSION_SECRET: randomBytes(24).toString('hex'),
  BETTER_AUTH_URL: 'http://localhost:3000',
})

/**
 * A PATH holding only this Node, the npm the test would run and the sh npm runs install scripts with,
 * as in a slim container: no python3, make or compiler, so an addon whose prebuilt binary does not
 * load fails the install instead of compiling one (argon2 0.45's, on Node 20.20).
 */
function slimPath(node: NodeUnderTest, path: string): string {
  const npm = [dirname(node.path), ...path.split(delimiter)]
    .map((dir) => join(dir, 'npm'))
    .find((file) => existsSync(file))
  if (!npm) throw new Error(`no npm on PATH for ${node.label}`)
  const bin = `${node.dir}-bin`
  mkdirSync(bin)
  symlinkSync(node.path, join(bin, 'node'))
  symlinkSync(realpathSync(npm), join(bin, 'npm'))
  symlinkSync('/bin/sh', join(bin, 'sh'))
  return bin
}

/** A child process's exit status and output, without blocking the event loop while it runs. */
function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stderr }))
  })
}

beforeAll(async () => {
  const packed = packPackages(workspacePackages, { destination: root })
  for (const pkg of workspacePackages) {
    const tarball = packed.find((entry) => entry.name === pkg.manifest.name)?.tarball
    if (!tarball) throw new Error(`npm pack produced no tarball for ${pkg.manifest.name}`)
    packages.push({ name: pkg.manifest.name, kind: kindOf(pkg), tarball })
  }
  // Each Node's project installs at the same time as the other's: an install mostly waits on the
  // npm cache and the disk, so the two overlap rather than queue.
  await Promise.all(
    NODES.map(async (node) => {
      mkdirSync(node.dir)
      writeConsumerProject(node.dir, packages)
      const env = childEnv()
      const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], {
        cwd: node.dir,
        // npm's own `#!/usr/bin/env node` and every install script it runs use the node on PATH.
        env: { ...env, PATH: slimPath(node, env.PATH ?? '') },
      })
      if (install.status !== 0) throw new Error(`npm install on ${node.label} failed: ${install.stderr}`)
      if (node.dir === consumer) installWarnings = install.stderr
    }),
  )
}, 600_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

interface LoadResult {
  name: string
  resolved?: string
  exported?: string[]
  error?: string
}

/**
 * Node's own warning that Web Crypto's Argon2id is experimental, which @authlab/hash-webcrypto-argon2's
 * README documents, and better-auth's for a wrong password: any other line on stderr (a require(esm)
 * warning, a deprecation) still fails a check.
 */
const DOCUMENTED_WARNINGS = [
  /^\(node:\d+\) ExperimentalWarning: The Argon2id Web Crypto API algorithm is an experimental feature and might change at any time\n(\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n)?/m,
  // better-auth's logger line for a wrong password, which @authlab/better-auth's README documents.
  /^[^\n]*WARN[^\n]*\[Better Auth\]:[^\n]* Invalid password\n/gm,
]
const withoutDocumentedWarnings = (stderr: string) =>
  DOCUMENTED_WARNINGS.reduce((text, warning) => text.replace(warning, ''), stderr)

/** Runs a check script; a warning on stderr (e.g. Node's ExperimentalWarning for require(esm)) fails it. */
function runCheck(node: NodeUnderTest, script: string): LoadResult[] {
  const list = JSON.stringify(
    packages.map(({ name, kind }) => ({ name, kind, tooOld: node.tooOld.get(name) })),
  )
  const check = spawnSync(node.path, [script, list], {
    cwd: node.dir,
    encoding: 'utf8',
    env: childEnv(),
  })
  expect(withoutDocumentedWarnings(check.stderr), `${script} printed to stderr`).toBe('')
  // A native addon that crashes the process (a segmentation fault) prints nothing at all.
  expect({ status: check.status, signal: check.signal }, `${script} on ${node.label}`).toEqual({
    status: 0,
    signal: null,
  })
  return JSON.parse(check.stdout)
}

/** One line per package that failed to load, resolved to the wrong build, or exported nothing. */
function problems(results: LoadResult[], build: 'cjs' | 'esm'): string[] {
  return results.flatMap(({ name, resolved, exported, error }) => {
    if (error) return [`${name}: ${error}`]
    if (!resolved?.includes(join('node_modules', name, 'dist', build)))
      return [`${name}: resolved to ${resolved}`]
    return exported?.length ? [] : [`${name}: no named exports`]
  })
}

// (a) to (c) each start a process that loads every package and hashes at its default cost, or type-checks
// all of them: seconds on an idle machine, over a minute (65 s, against Vitest's 60 s default) on a
// loaded 2-core one, so they get the margin (d) has.
const SPAWNS_EVERY_PACKAGE_MS = 180_000

describe('installed from tarballs into a fresh project', () => {
  test('the packages run on the oldest Node they state', () => {
    // CI proves the floor; elsewhere a machine without such a Node says so and runs the rest.
    if ('reason' in floor) {
      if (process.env.CI) throw new Error(floor.reason)
      console.log(`floor not checked: ${floor.reason}`)
      return
    }
    const major = (version: string) => version.split('.')[0]
    expect(NODES.map((n) => major(n.version))).toContain(major(floor.version))
  })

  test.each(['node16', 'bundler'])(
    '(c) a TypeScript consumer typechecks with moduleResolution %s',
    (resolution) => {
      const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc')
      const typecheck = spawnSync(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], {
        cwd: consumer,
        encoding: 'utf8',
      })
      expect(typecheck.stdout + typecheck.stderr).toBe('')
      expect(typecheck.status).toBe(0)
    },
    SPAWNS_EVERY_PACKAGE_MS,
  )

  test('npm 11 blocks two install scripts, argon2’s and bcrypt’s, and every package works without them', () => {
    // npm 11 runs no dependency install script unless the consumer approves it. Only argon2 and bcrypt
    // have one (node-gyp-build), and both ship prebuilt binaries they load without it; (a), (b) and (d)
    // run every package with the scripts blocked. The package READMEs state this.
    const blocked = [...installWarnings.matchAll(/^npm warn install-scripts\s+(\S+)@\S+ \(/gm)].map(
      (m) => m[1],
    )
    expect(blocked.sort()).toEqual(['argon2', 'bcrypt'])
    // Each README says what this means for its package: every one mentions install scripts, and one
    // that depends on a blocked package names it.
    const unstated = publishablePackages().flatMap((pkg) => {
      const readme = readFileSync(join(pkg.dir, 'README.md'), 'utf8')
      const names = blocked.filter((name) => name && Object.hasOwn(pkg.manifest.dependencies ?? {}, name))
      if (!/install script/.test(readme)) return [`${pkg.manifest.name}: says nothing about install scripts`]
      return names
        .filter((name) => !readme.includes(`\`${name}\`'s`))
        .map((n) => `${pkg.manifest.name}: does not name ${n}'s script`)
    })
    expect(unstated).toEqual([])
  })

  describe.each(NODES)('on $label', (node) => {
    let required: LoadResult[] = []
    let imported: LoadResult[] = []

    test(
      '(a) require() loads and runs every package from its CommonJS build',
      () => {
        required = runCheck(node, 'check-require.cjs')
        expect(required.map((r) => r.name)).toEqual(packages.map((p) => p.name))
        expect(problems(required, 'cjs')).toEqual([])
      },
      SPAWNS_EVERY_PACKAGE_MS,
    )

    test(
      '(b) import loads and runs every package from its ESM build, with the same named exports',
      () => {
        imported = runCheck(node, 'check-import.mjs')
        expect(problems(imported, 'esm')).toEqual([])
        const names = (results: LoadResult[]) => results.map(({ name, exported }) => ({ name, exported }))
        expect(names(imported)).toEqual(names(required))
      },
      SPAWNS_EVERY_PACKAGE_MS,
    )

    test('(d) an express app logs in over HTTP with each ID package as genid and each hash package', async () => {
      const ids = packages.filter((p) => p.kind === 'id')
      const hashes = packages.filter((p) => p.kind === 'hash' && !node.tooOld.has(p.name))
      for (const [name, reason] of node.tooOld) console.log(`(d) ${name} not served: ${reason}`)
      expect(ids.length, 'an ID package to use as genid').toBeGreaterThan(0)
      expect(hashes.length, 'a hash package to check the password').toBeGreaterThan(0)
      // Round robin: every ID and every hash package serves a login at least once.
      const failures: string[] = []
      for (let i = 0; i < Math.max(ids.length, hashes.length); i++) {
        const idPackage = ids[i % ids.length]?.name ?? ''
        const hashPackage = hashes[i % hashes.length]?.name ?? ''
        await loginFlow(node, idPackage, hashPackage).catch((error: Error) =>
          failures.push(`${idPackage} + ${hashPackage}: ${error.message}`),
        )
      }
      expect(failures).toEqual([])
    }, 180_000)

    test('(e) an express app migrates bcrypt and passlib PBKDF2 users to argon2id on login', async () => {
      const { server, ready } = startServer(node, 'migrate.mjs')
      try {
        const { port } = await ready
        const base = `http://127.0.0.1:${port}`
        const login = async (user: string, password: string) =>
          (
            await fetch(`${base}/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ user, password }),
            })
          ).status
        const family = async (user: string) =>
          ((await (await fetch(`${base}/format/${user}`)).json()) as { family: string }).family

        expect([await family('ada'), await family('grace')]).toEqual(['bcrypt', 'pbkdf2-sha256'])
        expect(await login('ada', 'wrong password')).toBe(401)
        expect(await family('ada')).toBe('bcrypt')
        expect(await login('ada', 'correct horse battery staple')).toBe(200)
        expect(await login('grace', 'hunter2 but longer')).toBe(200)
        expect([await family('ada'), await family('grace')]).toEqual(['argon2id', 'argon2id'])
        // The upgraded hashes keep working, and a missing user is refused like a wrong password.
        expect(await login('ada', 'correct horse battery staple')).toBe(200)
        expect(await login('grace', 'hunter2 but longer')).toBe(200)
        expect(await login('nobody', 'hunter2 but longer')).toBe(401)
      } finally {
        server.kill()
      }
    })

    test.each(SNIPPETS)(
      '(f) $where runs as written ($module)',
      async ({ snippet, kind, module, index }) => {
        const { file, text } = snippetModule(snippet, module, index)
        writeFileSync(join(node.dir, file), text)
        const env = snippetEnv()
        if (kind === 'script') {
          const { code, signal, stderr } = await runScriptSnippet(node.path, node.dir, file, env)
          expect(withoutDocumentedWarnings(stderr), 'stderr').toBe('')
          expect({ code, signal }).toEqual({ code: 0, signal: null })
          return
        }
        const server = await startServerSnippet(node.path, node.dir, file, env)
        try {
          await driveServerSnippet(kind, server, snippet.readme)
        } finally {
          expect(withoutDocumentedWarnings(await server.stop()), 'stderr').toBe('')
        }
      },
      SPAWNS_EVERY_PACKAGE_MS,
    )
  })

  /**
   * (g) A snippet whose README says it also runs on Bun or Deno (`runs=bun deno` in its marker) runs
   * there too, in the consumer project the workspace's Node installed, as a user of that runtime with an
   * npm project would run it. Both come from npm through tools/runtimes, so every machine has them.
   */
  const OTHER_RUNS = SNIPPETS.filter((run) => run.module === 'esm').flatMap((run) =>
    run.runtimes.map((runtime) => ({ ...run, runtime })),
  )
  test.each(OTHER_RUNS)(
    '(g) $where runs as written on $runtime',
    async ({ snippet, kind, index, runtime }) => {
      const target = requireRuntime(runtime)
      if (target.kind !== 'process') throw new Error(`${runtime} is not a process runtime`)
      const { file, text } = snippetModule(snippet, 'esm', index)
      writeFileSync(join(consumer, file), text)
      const server = await startServerSnippet(target.command, consumer, file, snippetEnv(), target.args)
      try {
        await driveServerSnippet(kind, server, snippet.readme)
      } finally {
        expect(withoutDocumentedWarnings(await server.stop()), 'stderr').toBe('')
      }
    },
    SPAWNS_EVERY_PACKAGE_MS,
  )
})

/** Starts a fixture server in its own process and resolves with its first stdout line (its port and more). */
function startServer(node: NodeUnderTest, script: string, env: Record<string, string> = {}) {
  const server = spawn(node.path, [script], {
    cwd: node.dir,
    env: { ...childEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  server.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const ready = new Promise<{ port: number; length?: number; alphabet?: string }>((resolve, reject) => {
    createInterface({ input: server.stdout }).once('line', (line) => resolve(JSON.parse(line)))
    server.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening: ${stderr.trim()}`)),
    )
  })
  return { server, ready }
}

async function loginFlow(node: NodeUnderTest, idPackage: string, hashPackage: string): Promise<void> {
  const { server, ready } = startServer(node, 'server.mjs', {
    ID_PACKAGE: idPackage,
    HASH_PACKAGE: hashPackage,
  })
  try {
    const { port, length = -1, alphabet = '' } = await ready
    const base = `http://127.0.0.1:${port}`
    const login = (password: string) =>
      fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'ada', password }),
      })

    const refused = await login('Tr0ub4dor&3')
    expect(refused.status).toBe(401)
    expect(refused.headers.get('set-cookie')).toBeNull()

    const accepted = await login('correct horse battery staple')
    expect(accepted.status).toBe(200)
    const { sessionId } = (await accepted.json()) as { sessionId: string }
    expect(sessionId).toHaveLength(length)
    expect([...sessionId].every((char) => alphabet.includes(char))).toBe(true)
    const cookie = accepted.headers.get('set-cookie')?.split(';')[0] ?? ''
    // express-session signs the cookie as s:<id>.<hmac>, URL-encoded.
    expect(decodeURIComponent(cookie)).toContain(`=s:${sessionId}.`)

    const me = await fetch(`${base}/me`, { headers: { cookie } })
    expect(await me.json()).toEqual({ user: 'ada', sessionId })
    expect((await fetch(`${base}/me`)).status).toBe(401)
  } finally {
    server.kill()
  }
}
