import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { expect, test } from 'vitest'
import {
  discoverPackages,
  factoryOf,
  hashAlgorithms,
  hashAlgorithmsIn,
  hashOptions,
  KINDS,
  kindOf,
  loadPackages,
  nodeEngineProblem,
  nodeRequirement,
  RUNTIMES,
  readManifest,
  runtimeProblems,
  runtimesOf,
} from '../src/index.mjs'

const ROOT = resolve(import.meta.dirname, '../../..')

test('every package under packages/ with an authlab.kind is discovered, and nothing else', () => {
  const declared = readdirSync(join(ROOT, 'packages')).filter((folder) => {
    const manifest = join(ROOT, 'packages', folder, 'package.json')
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).authlab?.kind !== undefined
  })
  // The strategies are named by kind; a client library such as stretch-remote declares none.
  expect(declared.every((folder) => /^(id|hash|stretch)-/.test(folder))).toBe(true)
  const found = discoverPackages(ROOT)
  expect(found.map((pkg) => pkg.dir.replace(`${ROOT}/packages/`, '')).sort()).toEqual(declared.sort())
  for (const pkg of found) expect(pkg.name).toBe(`@authlab/${pkg.dir.split('/').at(-1)}`)
})

test('every discovered package exports its kind’s factory (and ready default)', async () => {
  for (const outcome of await loadPackages(discoverPackages(ROOT))) {
    if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
    expect(typeof factoryOf(outcome.pkg), outcome.pkg.name).toBe('function')
    const ready = KINDS[outcome.pkg.kind].ready
    if (ready) expect(outcome.pkg.exports[ready], `${outcome.pkg.name} ${ready}`).toBeDefined()
  }
})

test('a kind outside the conventions is an error naming the file', () => {
  expect(() =>
    kindOf({ dir: '/x', manifest: { name: 'x', version: '1', authlab: { kind: 'hashh' } } }),
  ).toThrow(/\/x\/package.json: "authlab.kind" must be one of id, hash, stretch \(got hashh\)/)
})

test('every bench setting of every algorithm a hash package declares is reachable without guessing', async () => {
  const { getAlgorithm } = await import('@authlab/core')
  let reached = 0
  for (const outcome of await loadPackages(discoverPackages(ROOT).filter((pkg) => pkg.kind === 'hash'))) {
    if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
    // A package for a newer Node cannot be created on this one (its own test checks the typed error).
    const tooOld = nodeEngineProblem(outcome.pkg)
    if (tooOld) console.log(`${outcome.pkg.name} not created here: ${tooOld}`)
    for (const algorithm of tooOld ? [] : hashAlgorithms(outcome.pkg)) {
      for (const { params } of getAlgorithm(algorithm).bench) {
        const hasher = factoryOf(outcome.pkg)(hashOptions(outcome.pkg, algorithm, params)) as {
          info: { algorithm: string; params: Record<string, unknown> }
          close?: () => Promise<void>
        }
        expect(hasher.info.algorithm, outcome.pkg.name).toBe(algorithm)
        expect(hasher.info.params, outcome.pkg.name).toMatchObject(params)
        await hasher.close?.()
        reached++
      }
    }
    expect(hashOptions(outcome.pkg, 'no-such-algorithm', {})).toBeUndefined()
  }
  expect(reached).toBeGreaterThan(10)
})

test('every strategy declares its runtimes; one not claiming both browsers or workerd says why', () => {
  for (const pkg of discoverPackages(ROOT)) {
    expect(pkg.runtimes[0], pkg.name).toBe('node')
    const inBrowsers = pkg.runtimes.includes('chromium') && pkg.runtimes.includes('firefox')
    expect(inBrowsers || (pkg.notInBrowsers ?? '').length > 0, pkg.name).toBe(true)
    const inWorkerd = pkg.runtimes.includes('workerd') && pkg.workerdAlgorithms === undefined
    expect(inWorkerd || (pkg.notInWorkerd ?? '').length > 0, pkg.name).toBe(true)
  }
  const manifest = (authlab: Record<string, unknown>) => ({ name: 'x', version: '1', authlab })
  expect(runtimeProblems(manifest({ kind: 'id' }))).toEqual([
    '"authlab.runtimes" must list the runtimes it supports',
  ])
  expect(runtimeProblems(manifest({ kind: 'id', runtimes: ['node', 'bun', 'workerd'] }))).toEqual([
    '"authlab.notInBrowsers" must say why the package does not run in both browsers',
  ])
  expect(
    runtimeProblems(manifest({ kind: 'id', runtimes: ['node', 'netscape', 'workerd'], notInBrowsers: 'x' })),
  ).toEqual([
    '"authlab.runtimes" has unknown ids netscape (known: node, node24, node22, bun, deno, chromium, firefox, workerd)',
  ])
  expect(
    runtimeProblems(manifest({ kind: 'id', runtimes: RUNTIMES, notInBrowsers: 'stale reason' })),
  ).toEqual(['"authlab.notInBrowsers" is set but both browsers are claimed'])
  expect(() =>
    runtimesOf({
      dir: '/x',
      manifest: manifest({ kind: 'id', runtimes: ['bun'], notInBrowsers: 'x', notInWorkerd: 'x' }),
    }),
  ).toThrow('/x/package.json: "authlab.runtimes" must include "node"')
})

test('workerd: claimed, claimed for some algorithms with the reason for the rest, or the reason', () => {
  const manifest = (authlab: Record<string, unknown>) => ({
    name: 'x',
    version: '1',
    authlab: { kind: 'hash', notInBrowsers: 'native', ...authlab },
  })
  const served = ['node', 'workerd']
  expect(runtimeProblems(manifest({ runtimes: served }))).toEqual([])
  expect(runtimeProblems(manifest({ runtimes: ['node'], notInWorkerd: 'a native addon' }))).toEqual([])
  expect(
    runtimeProblems(manifest({ runtimes: served, workerdAlgorithms: ['argon2id'], notInWorkerd: 'why' })),
  ).toEqual([])
  expect(runtimeProblems(manifest({ runtimes: ['node'] }))).toEqual([
    '"authlab.notInWorkerd" must say why the package does not run in workerd',
  ])
  expect(runtimeProblems(manifest({ runtimes: ['node'], notInWorkerd: '  ' }))).toEqual([
    '"authlab.notInWorkerd" must say why the package does not run in workerd',
  ])
  expect(runtimeProblems(manifest({ runtimes: served, notInWorkerd: 'stale reason' }))).toEqual([
    '"authlab.notInWorkerd" is set but workerd is claimed for every algorithm',
  ])
  expect(runtimeProblems(manifest({ runtimes: served, workerdAlgorithms: ['argon2id'] }))).toEqual([
    '"authlab.notInWorkerd" must say why the algorithms outside "workerdAlgorithms" do not run in workerd',
  ])
  expect(runtimeProblems(manifest({ runtimes: served, workerdAlgorithms: [], notInWorkerd: 'why' }))).toEqual(
    ['"authlab.workerdAlgorithms" must list the algorithm names that run in workerd'],
  )
  expect(
    runtimeProblems(manifest({ runtimes: ['node'], workerdAlgorithms: ['argon2id'], notInWorkerd: 'why' })),
  ).toEqual(['"authlab.workerdAlgorithms" is set but workerd is not claimed'])
})

test('a package needing a newer Node than the running one is named with the reason, others are not', () => {
  const pkg = { nodeEngine: '>=24.7' }
  expect(nodeEngineProblem(pkg, '20.20.2')).toBe('needs Node >=24.7, this is Node 20.20.2')
  expect(nodeEngineProblem(pkg, '24.6.9')).toMatch(/needs Node >=24\.7/)
  expect(nodeEngineProblem(pkg, '24.7.0')).toBeUndefined()
  expect(nodeEngineProblem(pkg, '25.0.0')).toBeUndefined()
  // Only a plain minimum is judged: another range, or none, is never a reason to skip.
  expect(nodeEngineProblem({ nodeEngine: '^24.7 || ^26' }, '20.20.2')).toBeUndefined()
  expect(nodeEngineProblem({}, '20.20.2')).toBeUndefined()
  const crypto = discoverPackages(ROOT).find((p) => p.name === '@authlab/hash-node-crypto-argon2')
  // It installs everywhere the workspace does (no EBADENGINE warning on Node 20) and declares the Node
  // its API needs in "authlab.node", which discovery reads.
  expect(crypto?.nodeEngine).toBe('>=24.7')
  expect(readManifest(crypto?.dir ?? '').engines?.node).toBe('>=20.19')
  expect(nodeRequirement({ name: 'x', version: '1.0.0', engines: { node: '>=20.19' } })).toBe('>=20.19')
  expect(
    runtimeProblems({
      name: 'x',
      version: '1',
      authlab: { kind: 'hash', runtimes: ['node'], notInBrowsers: 'x', notInWorkerd: 'x', node: '24.7' },
    }),
  ).toEqual(['"authlab.node" must be a plain minimum such as ">=24.7"'])
})

test('the algorithms a hash package claims per runtime: workerdAlgorithms narrows workerd only', async () => {
  const outcomes = await loadPackages(discoverPackages(ROOT))
  const byName = (name: string) => {
    const found = outcomes.find((o) => o.ok && o.pkg.name === name)
    if (!found?.ok) throw new Error(`${name} did not load`)
    return found.pkg
  }
  const wasm = byName('@authlab/hash-wasm')
  expect(hashAlgorithmsIn(wasm, 'workerd')).toEqual(['argon2id'])
  expect(hashAlgorithmsIn(wasm, 'node')).toEqual(hashAlgorithms(wasm))
  expect(hashAlgorithmsIn(wasm, 'node').length).toBeGreaterThan(1)
  expect(hashAlgorithmsIn(byName('@authlab/hash-bcrypt'), 'workerd')).toEqual([])
  expect(hashAlgorithmsIn(byName('@authlab/hash-scrypt'), 'workerd')).toEqual(['scrypt'])
})
