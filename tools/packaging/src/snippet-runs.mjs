import { existsSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { extractSnippets } from './readme-snippets.mjs'
import { REPO_ROOT } from './workspace.mjs'

/**
 * @typedef {import('./readme-snippets.mjs').Snippet} Snippet
 * @typedef {'login' | 'session' | 'script'} RunKind
 * @typedef {{ snippet: Snippet, kind: RunKind, modules: ('esm' | 'cjs')[] } | { snippet: Snippet, notRun: string }} SnippetRun
 */

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
 * on stderr. The marker before the block may add `esm+cjs` (the README offers CommonJS too, by
 * `require` in place of `import`: both are run) or say `not run, <why>`, which must give a reason.
 * @param {Snippet} snippet @returns {SnippetRun}
 */
export function snippetRun(snippet) {
  const marker = snippet.marker ?? ''
  const notRun = /^not run,\s*(.*)$/.exec(marker)
  if (notRun) return { snippet, notRun: notRun[1] ?? '' }
  if (marker !== '' && marker !== 'esm+cjs')
    throw new Error(`${snippet.readme}:${snippet.line}: unknown snippet marker "${marker}"`)
  // A block with path= is a file of this repository (relative imports): it needs a marker saying so.
  if (snippet.path) return { snippet, notRun: '' }
  const server = /\bapp\.listen\(/.test(snippet.code)
  const kind = !server ? 'script' : /\.post\('\/login'/.test(snippet.code) ? 'login' : 'session'
  return { snippet, kind, modules: marker === 'esm+cjs' ? ['esm', 'cjs'] : ['esm'] }
}

/** Every snippet of the consumer READMEs with how it runs. */
export function snippetRuns(root = REPO_ROOT) {
  return consumerReadmes(root).flatMap((readme) => extractSnippets(readme, root).map(snippetRun))
}

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
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
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
