#!/usr/bin/env node
// Runs koa-session's own mocha suite with an authlab generator as its default `genid`. koa-session's
// npm tarball ships no tests, so this needs a checkout of koajs/session at the pinned tag with its
// dev dependencies installed:
//
//   git clone --branch v7.0.2 https://github.com/koajs/session <dir> && (cd <dir> && npm install)
//   node apps/frameworks/scripts/koa-session-suite.mjs <dir> @authlab/id-fast [runs]
//
// It packs @authlab/core and the ID package from this workspace (built first: `npm run build`),
// installs the tarballs into the checkout without saving them, replaces the default in src/index.ts
// (`opts.genid = () => randomUUID();`) with the package's `generateId()`, runs `egg-bin test` `runs`
// times (default 1), restores the file, and prints the passing and failing counts of each run with
// the titles of the failing tests. With `-` as the package it runs the suite unchanged.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '../../..')
const DEFAULT_LINE = 'opts.genid = () => randomUUID();'

const [checkout, packageName, runsText = '1'] = process.argv.slice(2)
if (!checkout || !packageName) {
  console.error('usage: koa-session-suite.mjs <koa-session checkout> <@authlab/id-… | -> [runs]')
  process.exit(2)
}
const runs = Number(runsText)
const indexFile = join(checkout, 'src/index.ts')
const original = readFileSync(indexFile, 'utf8')
if (!original.includes(DEFAULT_LINE)) throw new Error(`${indexFile} has no line ${DEFAULT_LINE}`)

if (packageName !== '-') {
  const packed = mkdtempSync(join(tmpdir(), 'authlab-koa-session-'))
  const dirOf = (name) => join(ROOT, 'packages', name.replace('@authlab/', ''))
  const tarballs = ['@authlab/core', packageName].map((name) => {
    const out = execFileSync('npm', ['pack', '--pack-destination', packed, '--json'], { cwd: dirOf(name) })
    return join(packed, JSON.parse(out.toString())[0].filename)
  })
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', ...tarballs], {
    cwd: checkout,
    stdio: 'inherit',
  })
  writeFileSync(
    indexFile,
    `import { generateId as authlabGenerateId } from '${packageName}';\n${original.replace(
      DEFAULT_LINE,
      'opts.genid = () => authlabGenerateId();',
    )}`,
  )
}

/**
 * Each failure mocha lists after `N failing`: its title path (the indented lines up to the one ending
 * in `:`) and the first line of its error.
 */
function failuresOf(output) {
  const tail = output.slice(output.search(/\d+ failing/))
  return [...tail.matchAll(/^ {2}\d+\) ([\s\S]*?):\n\s+(.+)$/gm)].map(
    ([, title, error]) =>
      `${title
        .split('\n')
        .map((part) => part.trim())
        .join(' > ')}: ${error.trim()}`,
  )
}

try {
  for (let run = 1; run <= runs; run++) {
    const test = spawnSync('npx', ['egg-bin', 'test'], { cwd: checkout, encoding: 'utf8' })
    const output = `${test.stdout}\n${test.stderr}`
    const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(output)?.[1] ?? 0)
    console.log(
      JSON.stringify({
        package: packageName,
        run,
        passing: count('passing'),
        failing: count('failing'),
        failures: failuresOf(output),
      }),
    )
  }
} finally {
  writeFileSync(indexFile, original)
}
