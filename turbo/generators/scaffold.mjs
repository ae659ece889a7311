import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

/**
 * The strategy scaffold, shared by `npx turbo gen strategy` (config.ts) and `npm run new` (new.mjs):
 * one template set under templates/ (common/ plus one folder per kind; `.tmpl` files, rendered by
 * plain `{{key}}` substitution, no Handlebars) so both entries write byte-identical packages.
 */
export const KINDS = /** @type {const} */ ({
  id: {
    label: 'session-ID generator',
    keywords: ['session', 'session-id', 'genid', 'express-session', 'fastify-session'],
  },
  hash: { label: 'password hasher', keywords: ['password-hashing', 'password', 'login'] },
})

/** npm's rules for the unscoped part of a name, narrowed to what reads well in a folder and a table. */
const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/
/** Package specs and Node API names only: the value lands inside TS string literals and JSON. */
const WRAPS_PATTERN = /^[A-Za-z0-9@/._:+-]{1,80}$/
/** A PHC function identifier (the PHC string format: `[a-z0-9-]{1,32}`), also `info.algorithm`. */
const ALGORITHM_PATTERN = /^[a-z0-9-]{1,32}$/
/** The algorithms core already has a profile for: a new one needs a name of its own. */
const CORE_ALGORITHMS = ['bcrypt', 'scrypt', 'argon2id', 'pbkdf2-sha256']

/**
 * @typedef {{ kind: string, name: string, wraps: string, algorithm?: string }} StrategyAnswers
 * @typedef {{ dir: string, packageName: string, files: string[] }} ScaffoldResult
 */

/** Returns the problem with one answer, or true; used by the prompts and by scaffoldStrategy. */
export const validate = {
  /** @param {string} kind */
  kind: (kind) => Object.hasOwn(KINDS, kind) || `kind must be one of: ${Object.keys(KINDS).join(', ')}`,
  /** @param {string} name */
  name: (name) =>
    NAME_PATTERN.test(name) ||
    'name must be 1-40 lowercase letters, digits or dashes, starting with a letter or digit',
  /** @param {string} wraps */
  wraps: (wraps) =>
    WRAPS_PATTERN.test(wraps) ||
    'wraps must be an npm package or Node API name (letters, digits, @ / . _ : + -)',
  /** @param {string} algorithm */
  algorithm: (algorithm) =>
    (ALGORITHM_PATTERN.test(algorithm) && !CORE_ALGORITHMS.includes(algorithm)) ||
    `algorithm must be a new PHC identifier (1-32 of a-z, 0-9, -), not one of ${CORE_ALGORITHMS.join(', ')}`,
}

/**
 * Writes packages/<kind>-<name> from the templates and returns what it wrote. Refuses bad answers
 * and an existing folder before writing anything. With `algorithm` (hash packages only), the package
 * also gets `src/profile.ts`, that algorithm's profile, and uses it: a new algorithm is this one
 * package, with no edit to core.
 * @param {string} root repository root
 * @param {StrategyAnswers} answers
 * @returns {ScaffoldResult}
 */
export function scaffoldStrategy(root, { kind, name, wraps, algorithm = '' }) {
  const bareName = name.startsWith(`${kind}-`) ? name.slice(kind.length + 1) : name
  for (const [key, value] of /** @type {const} */ ([
    ['kind', kind],
    ['name', bareName],
    ['wraps', wraps],
  ])) {
    const verdict = validate[key](value)
    if (verdict !== true) throw new Error(`${verdict} (got ${JSON.stringify(value)})`)
  }
  if (algorithm) {
    if (kind !== 'hash') throw new Error(`a new algorithm needs kind "hash" (got ${JSON.stringify(kind)})`)
    const verdict = validate.algorithm(algorithm)
    if (verdict !== true) throw new Error(`${verdict} (got ${JSON.stringify(algorithm)})`)
  }
  const kindInfo = KINDS[/** @type {keyof typeof KINDS} */ (kind)]
  const folder = `${kind}-${bareName}`
  const dir = join(root, 'packages', folder)
  if (existsSync(dir)) throw new Error(`${relative(root, dir)} already exists; pick another name`)

  const values = {
    packageName: `@authlab/${folder}`,
    folder,
    kind,
    wraps,
    displayName: `${bareName} (starter)`,
    description: `${kindInfo.label} wrapping ${wraps}: scaffolded starting implementation on node:crypto`,
    // Laid out as Biome formats package.json, so `biome ci` passes on a fresh package.
    keywords: JSON.stringify([...kindInfo.keywords, bareName, 'authlab'], null, 2).replaceAll('\n', '\n  '),
    coreVersion: workspaceVersion(root, 'core'),
    conformanceVersion: workspaceVersion(root, 'conformance'),
    engines: JSON.stringify(readJson(join(root, 'package.json')).engines?.node ?? '>=20.19'),
    algorithm,
  }
  const templates = join(root, 'turbo', 'generators', 'templates')
  const folders = ['common', kind, ...(algorithm ? ['algorithm'] : [])]
  // A later folder's template replaces an earlier one's for the same file (algorithm/ over hash/).
  const byTarget = new Map(
    folders
      .flatMap((folder) => templateFiles(join(templates, folder)))
      .map(({ base, file }) => [join(dir, relative(base, file).replace(/\.tmpl$/, '')), file]),
  )
  const files = [...byTarget].map(([target, file]) => {
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, render(readFileSync(file, 'utf8'), values, file))
    return relative(root, target)
  })
  return { dir, packageName: values.packageName, files }
}

/**
 * What to run after generating, the same from both entries (CONTRIBUTING.md "Adding a strategy").
 * @param {string} packageName
 */
export function nextSteps(packageName) {
  const dir = `packages/${packageName.replace('@authlab/', '')}`
  return `npm install (links the new workspace), npx turbo run build --filter=${packageName}, npx vitest run ${dir}`
}

/**
 * `{{key}}` substitution; an unknown key is a template bug, so it throws instead of writing "".
 * @param {string} template @param {Record<string, string>} values @param {string} file
 */
export function render(template, values, file) {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key) => {
    if (!Object.hasOwn(values, key)) throw new Error(`${file}: unknown template key {{${key}}}`)
    return /** @type {string} */ (values[key])
  })
}

/** @param {string} base @returns {{ base: string, file: string }[]} */
function templateFiles(base) {
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => ({ base, file: join(entry.parentPath, entry.name) }))
    .sort((a, b) => a.file.localeCompare(b.file))
}

/**
 * New packages depend on the exact versions the workspace has, as every package here does.
 * @param {string} root @param {string} folder
 */
function workspaceVersion(root, folder) {
  return readJson(join(root, 'packages', folder, 'package.json')).version
}

/** @param {string} file */
function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'))
}
