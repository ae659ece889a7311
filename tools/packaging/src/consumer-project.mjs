import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { snippetDependencies, snippetRuns } from './snippet-runs.mjs'
import { REPO_ROOT } from './workspace.mjs'

const FIXTURES = fileURLToPath(new URL('../fixtures/consumer/', import.meta.url))

/**
 * Registry packages the consumer installs, at the versions the workspace lockfile holds: the same
 * ones the workspace is tested with, and already in the npm cache after `npm ci`. Besides the
 * fixtures' own, every package a README snippet that the consumer test runs imports (fastify's included).
 */
function consumerDependencies() {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'))
  const run = snippetRuns().flatMap((entry) => ('notRun' in entry ? [] : [entry.snippet]))
  const names = [
    ...new Set(['express', 'express-session', 'typescript', '@types/node', ...snippetDependencies(run)]),
  ]
  return Object.fromEntries(
    names.map((name) => {
      const version = lock.packages[`node_modules/${name}`]?.version
      if (!version)
        throw new Error(`${name} is not in package-lock.json: the consumer pins what the workspace uses`)
      return [name, version]
    }),
  )
}

/**
 * @typedef {{ name: string, kind: string | undefined, tarball: string }} PackedPackage
 */

/**
 * Writes a fresh consumer project into `dir` (outside the workspace): it depends on every tarball
 * by `file:` and on registry packages only, so `npm install` there proves the tarballs install on
 * their own. Also writes one TypeScript consumer body as .mts and .cts (node16, both module kinds)
 * and .ts (bundler), which import every package and hold typed uses of each strategy.
 * @param {string} dir @param {PackedPackage[]} packages
 */
export function writeConsumerProject(dir, packages) {
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(dir, file))
  const dependencies = Object.fromEntries(packages.map((pkg) => [pkg.name, `file:${pkg.tarball}`]))
  const manifest = {
    name: 'authlab-consumer',
    private: true,
    dependencies: { ...dependencies, ...consumerDependencies() },
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)

  const body = typescriptConsumer(packages)
  for (const file of ['consumer.mts', 'consumer.cts', 'consumer.ts']) writeFileSync(join(dir, file), body)
  const strict = { strict: true, noEmit: true, skipLibCheck: false, types: ['node'], target: 'ES2022' }
  writeTsconfig(dir, 'tsconfig.node16.json', { ...strict, module: 'node16', moduleResolution: 'node16' }, [
    'consumer.mts',
    'consumer.cts',
  ])
  writeTsconfig(
    dir,
    'tsconfig.bundler.json',
    { ...strict, module: 'preserve', moduleResolution: 'bundler' },
    ['consumer.ts'],
  )
}

/** @param {string} dir @param {string} name @param {object} compilerOptions @param {string[]} files */
function writeTsconfig(dir, name, compilerOptions, files) {
  writeFileSync(join(dir, name), `${JSON.stringify({ compilerOptions, files }, null, 2)}\n`)
}

/**
 * A strategy's exports must satisfy core's interfaces as seen from outside; any other package
 * must at least resolve to declarations (under `strict`, an untyped import is error TS7016).
 * @param {PackedPackage[]} packages
 */
function typescriptConsumer(packages) {
  const lines = ["import type { IdGenerator, PasswordHasher } from '@authlab/core'"]
  packages.forEach(({ name, kind }, index) => {
    if (kind === 'id') {
      lines.push(`import { createIdGenerator as create${index}, generateId as ready${index} } from '${name}'`)
      lines.push(`export const id${index}: string = ready${index}()`)
      lines.push(`export const generator${index}: IdGenerator = create${index}()`)
    } else if (kind === 'hash') {
      lines.push(`import { createHasher as create${index}, hasher as ready${index} } from '${name}'`)
      lines.push(`export const hash${index}: Promise<string> = ready${index}.hash('password')`)
      lines.push(`export const hasher${index}: PasswordHasher = create${index}()`)
    } else {
      lines.push(`import * as module${index} from '${name}'`)
      lines.push(`export const exported${index}: string[] = Object.keys(module${index})`)
    }
  })
  return `${lines.join('\n')}\n`
}
