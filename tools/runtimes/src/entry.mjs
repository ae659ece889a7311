import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROUNDS = fileURLToPath(new URL('./rounds.mjs', import.meta.url))

/**
 * @typedef {{ id: string, module?: string, setup?: string, call: string }} EntryCandidate
 *   `module` is imported as `m`; `setup` runs once (after imports, may use `await`) and `call` is the
 *   expression measured, e.g. { module: '@authlab/id-fast', call: 'm.generateId()' } or
 *   { call: 'crypto.randomUUID()' }.
 */

/**
 * Writes a module that imports the candidates statically (so a bundler can follow them for the
 * browsers) and whose default export measures them with the shared rounds loop. It is written under
 * `dir`, which must sit inside the repository so that package imports resolve from its node_modules
 * in Node, Bun and Deno alike, but not inside a node_modules folder: Deno treats modules there as npm
 * package code, which may not import the repository's own files.
 * @param {string} dir
 * @param {string} name
 * @param {EntryCandidate[]} candidates
 */
export function writeMeasuringEntry(dir, name, candidates) {
  mkdirSync(dir, { recursive: true })
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
  const text = [
    `import { measureRounds } from ${JSON.stringify(ROUNDS)}`,
    ...imports,
    '',
    'export default async function measure(options) {',
    ...setups,
    '  return measureRounds([',
    ...list,
    '  ], options)',
    '}',
    '',
  ].join('\n')
  const file = join(dir, `${name}.mjs`)
  writeFileSync(file, text)
  return file
}
