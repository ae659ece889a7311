import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import ts from 'typescript'
import { extractSnippets } from './readme-snippets.mjs'
import { REPO_ROOT, readManifest } from './workspace.mjs'

/**
 * @typedef {import('./readme-snippets.mjs').Snippet} Snippet
 * @typedef {'login' | 'session' | 'script' | 'session-cookies' | 'sealed-session' | 'magic-link' | 'better-auth'} RunKind
 * @typedef {'bun' | 'deno'} OtherRuntime
 * @typedef {{ snippet: Snippet, kind: RunKind, modules: ('esm' | 'cjs')[], runtimes: OtherRuntime[], once?: true } | { snippet: Snippet, notRun: string }} SnippetRun
 */

/**
 * The flows a marker may name (`flow=<kind>`), beyond the two a server snippet is recognised by: a
 * session whose cookies must all go back (koa-session signs its cookie in a second one), a session
 * sealed in its cookie (the ID is not readable there: h3, @hono/session), an Auth.js magic-link sign-in
 * (the link is read from the snippet's stdout) and better-auth's email sign-up and sign-in.
 * @type {readonly RunKind[]}
 */
export const FLOWS = [
  'login',
  'session',
  'script',
  'session-cookies',
  'sealed-session',
  'magic-link',
  'better-auth',
]
/** @type {readonly OtherRuntime[]} */
const OTHER_RUNTIMES = ['bun', 'deno']

/** The READMEs a user of the published packages reads: the repository's and each package's. */
export function consumerReadmes(root = REPO_ROOT) {
  const packages = join(root, 'packages')
  return [
    join(root, 'README.md'),
    ...readdirSync(packages)
      .sort()
      .map((name) => join(packages, name, 'README.md')),
  ]
    .filter((file) => existsSync(file))
    .map((file) => relative(root, file))
}

/**
 * How the consumer test runs a snippet, as written. A server (it calls `app.listen`) is started on a
 * free PORT and driven over HTTP: a login server through sign-up, login and `/me`, any other through
 * two requests that must share one session. Anything else runs to its end and must exit 0 with nothing
 * on stderr. The marker before the block may say `not run, <why>`, which must give a reason, or list,
 * comma-separated: `esm+cjs` (the README offers CommonJS too, by `require` in place of `import`: both
 * are run), `flow=<kind>` (one of FLOWS, for a server the default recognition misses), `runs=bun deno`
 * (the README says it runs there too: it is also run there) and `once` (a block shared by several
 * package READMEs: the same code with another package's name runs only from the first of them).
 * @param {Snippet} snippet @returns {SnippetRun}
 */
export function snippetRun(snippet) {
  const marker = snippet.marker ?? ''
  const notRun = /^not run,\s*(.*)$/.exec(marker)
  if (notRun) return { snippet, notRun: notRun[1] ?? '' }
  const tokens = marker === '' ? [] : marker.split(',').map((token) => token.trim())
  /** @type {RunKind | undefined} */
  let flow
  /** @type {OtherRuntime[]} */
  let runtimes = []
  for (const token of tokens) {
    const [key, value = ''] = token.split('=')
    if (key === 'flow' && FLOWS.includes(/** @type {RunKind} */ (value)))
      flow = /** @type {RunKind} */ (value)
    else if (
      key === 'runs' &&
      value.split(/\s+/).every((id) => OTHER_RUNTIMES.includes(/** @type {OtherRuntime} */ (id)))
    )
      runtimes = /** @type {OtherRuntime[]} */ (value.split(/\s+/))
    else if (token !== 'esm+cjs' && token !== 'once')
      throw new Error(`${snippet.readme}:${snippet.line}: unknown snippet marker "${marker}"`)
  }
  // A block with path= is a file of this repository (relative imports): it needs a marker saying so.
  if (snippet.path) return { snippet, notRun: '' }
  const server = /\bapp\.listen\(/.test(snippet.code)
  const kind = flow ?? (!server ? 'script' : /\.post\('\/login'/.test(snippet.code) ? 'login' : 'session')
  return {
    snippet,
    kind,
    modules: tokens.includes('esm+cjs') ? ['esm', 'cjs'] : ['esm'],
    runtimes,
    ...(tokens.includes('once') ? { once: /** @type {const} */ (true) } : {}),
  }
}

/** Every snippet of the consumer READMEs with how it runs. */
export function snippetRuns(root = REPO_ROOT) {
  /** @type {Map<string, string>} code with its package's name taken out → where it runs */
  const first = new Map()
  return consumerReadmes(root).flatMap((readme) => {
    const name = readManifest(join(root, dirname(readme))).name
    return extractSnippets(readme, root).map((snippet) => {
      const run = snippetRun(snippet)
      if (!('once' in run)) return run
      const shared = snippet.code.replaceAll(name, '{{package}}')
      const where = first.get(shared)
      if (where === undefined) first.set(shared, `${readme}:${snippet.line}`)
      return where === undefined
        ? run
        : { snippet, notRun: `the same code with this package's name runs from ${where}` }
    })
  })
}

/**
 * TypeScript's decorators as NestJS uses them (NestJS's own tsconfig sets both): a user's NestJS snippet
 * compiles and runs with these. Code without decorators compiles the same either way.
 */
export const DECORATORS = { experimentalDecorators: true, emitDecoratorMetadata: true }

const IMPORT = /^import\s+(?:(\w+)|\{([^}]*)\})\s+from\s+('[^']+')\s*$/

/**
 * The CommonJS a README means by "the same with `require` in place of each `import`": a default import
 * becomes `const x = require(m)`, named ones `const { a, b: c } = require(m)`.
 * @param {string} code
 */
export function toCommonJs(code) {
  return code
    .split('\n')
    .map((line) => {
      if (!line.startsWith('import ')) return line
      const match = IMPORT.exec(line)
      if (!match) throw new Error(`no CommonJS form for: ${line}`)
      const [, name, names, from] = match
      const binding = name ?? `{ ${(names ?? '').trim().replace(/\s+as\s+/g, ': ')} }`
      return `const ${binding} = require(${from})`
    })
    .join('\n')
}

/**
 * The file the consumer test writes for one run of a snippet: JavaScript as written, TypeScript with its
 * types removed (what tsc or Node's type stripping leave), so the floor Node runs it too.
 * @param {Snippet} snippet @param {'esm' | 'cjs'} module @param {number} index
 */
export function snippetModule(snippet, module, index) {
  const base = `snippet-${index}-${snippet.readme.replace(/[/.]/g, '_')}-${snippet.line}`
  const js =
    snippet.lang === 'ts'
      ? ts.transpileModule(snippet.code, {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, ...DECORATORS },
        }).outputText
      : snippet.code
  return module === 'cjs'
    ? { file: `${base}.cjs`, text: `${toCommonJs(js)}\n` }
    : { file: `${base}.mjs`, text: `${js}\n` }
}

/**
 * The registry packages the snippets import (not @authlab's own, not Node's builtins): a consumer
 * installs them beside the tarballs, as a user following the README would.
 * @param {Snippet[]} snippets
 */
export function snippetDependencies(snippets) {
  const names = snippets.flatMap(({ code }) =>
    [...code.matchAll(/^import\s[^'\n]*'([^'.][^']*)'/gm)].map(([, spec]) => {
      const parts = (spec ?? '').split('/')
      return (spec ?? '').startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '')
    }),
  )
  return [...new Set(names)]
    .filter((name) => !name.startsWith('@authlab/') && !name.startsWith('node:'))
    .sort()
}
