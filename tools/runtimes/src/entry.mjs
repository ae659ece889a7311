import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROUNDS = fileURLToPath(new URL('./rounds.mjs', import.meta.url))
const CONFORMANCE = fileURLToPath(new URL('./conformance.mjs', import.meta.url))
const PORTABLE = fileURLToPath(new URL('./portable.mjs', import.meta.url))

/**
 * @typedef {{ id: string, module?: string, setup?: string, call: string }} EntryCandidate
 *   `module` is imported as `m`; `setup` runs once (after imports, may use `await`) and `call` is the
 *   expression measured, e.g. { module: '@authlab/id-fast', call: 'm.generateId()' } or
 *   { call: 'crypto.randomUUID()' }.
 */

/**
 * Writes `<dir>/<name>.mjs`. Generated entries import their packages statically, so a bundler can
 * follow them for the browsers. `dir` must sit inside the repository so that package imports resolve
 * from its node_modules in Node, Bun and Deno alike, but not inside a node_modules folder: Deno treats
 * modules there as npm package code, which may not import the repository's own files.
 * @param {string} dir @param {string} name @param {string[]} lines
 */
function writeEntry(dir, name, lines) {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}.mjs`)
  writeFileSync(file, `${lines.join('\n')}\n`)
  return file
}

/**
 * A module whose default export measures `candidates` with the shared rounds loop.
 * @param {string} dir
 * @param {string} name
 * @param {EntryCandidate[]} candidates
 */
export function writeMeasuringEntry(dir, name, candidates) {
  const imports = candidates
    .map((c, i) => (c.module ? `import * as m${i} from ${JSON.stringify(c.module)}` : ''))
    .filter(Boolean)
  const setups = candidates.map(
    (c, i) =>
      `  const s${i} = await (async (m) => { ${c.setup ?? ''} })(${c.module ? `m${i}` : 'undefined'})`,
  )
  const list = candidates.map(
    (c, i) =>
      `    { id: ${JSON.stringify(c.id)}, run: ((m, s) => () => ${c.call})(${c.module ? `m${i}` : 'undefined'}, s${i}) },`,
  )
  return writeEntry(dir, name, [
    `import { measureRounds } from ${JSON.stringify(ROUNDS)}`,
    ...imports,
    '',
    'export default async function measure(options) {',
    ...setups,
    '  return measureRounds([',
    ...list,
    '  ], options)',
    '}',
  ])
}

/**
 * A module whose default export takes `{ [key]: plan }` and returns, per key, what conformance.mjs
 * observed, or the error that stopped it: one failing package never hides the others. The key is the
 * package's name, or any other key with the name in `plan.package` (a second plan for one package).
 * @param {string} dir
 * @param {string} name
 * @param {string[]} packages package names
 */
export function writeConformanceEntry(dir, name, packages) {
  return writeEntry(dir, name, [
    `import { observe } from ${JSON.stringify(CONFORMANCE)}`,
    `import { runtimeInfo } from ${JSON.stringify(PORTABLE)}`,
    ...packages.map((pkg, i) => `import * as p${i} from ${JSON.stringify(pkg)}`),
    '',
    `const modules = { ${packages.map((pkg, i) => `${JSON.stringify(pkg)}: p${i}`).join(', ')} }`,
    '',
    'export default async function conformance(plans) {',
    '  const results = {}',
    '  for (const [name, plan] of Object.entries(plans)) {',
    '    try {',
    '      results[name] = { ok: true, seen: await observe(modules[plan.package ?? name], plan) }',
    '    } catch (error) {',
    '      results[name] = { ok: false, error: String(error?.stack ?? error) }',
    '    }',
    '  }',
    '  return { runtime: runtimeInfo(), results }',
    '}',
  ])
}
