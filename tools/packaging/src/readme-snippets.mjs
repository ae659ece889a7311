import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { REPO_ROOT, workspaceDirs } from './workspace.mjs'

/**
 * @typedef {{ readme: string, line: number, lang: 'ts' | 'js', code: string, path?: string, marker?: string }} Snippet
 */

// A block may say where it belongs, as in ```ts path=packages/id-fast/test/example.test.ts: it is then
// checked as that file, so relative imports resolve as they would for a contributor writing it.
// The line just before a block may be a marker, `<!-- snippet: … -->`, saying how it runs (see snippetRun).
const MARKER = /^<!-- snippet: (.*) -->$/
const FENCE = /^```(ts|typescript|js|javascript|mjs)(?:\s+path=(\S+))?\s*$/

/** The Markdown files a user reads first: the root README, CONTRIBUTING and every workspace's README. */
export function readmeFiles(root = REPO_ROOT) {
  return [
    join(root, 'README.md'),
    join(root, 'CONTRIBUTING.md'),
    ...workspaceDirs(root).map((dir) => join(dir, 'README.md')),
  ]
    .filter((file) => existsSync(file))
    .map((file) => relative(root, file))
}

/**
 * Every TypeScript and JavaScript code block of a Markdown file, with the line its code starts on.
 * @param {string} readme path relative to `root`
 * @returns {Snippet[]}
 */
export function extractSnippets(readme, root = REPO_ROOT) {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n')
  /** @type {Snippet[]} */
  const snippets = []
  for (let i = 0; i < lines.length; i++) {
    const fence = FENCE.exec(lines[i] ?? '')
    const lang = fence?.[1]
    if (!lang) continue
    const start = i + 1
    let end = start
    while (end < lines.length && !(lines[end] ?? '').startsWith('```')) end++
    snippets.push({
      readme,
      line: start + 1,
      lang: lang.startsWith('t') ? 'ts' : 'js',
      code: lines.slice(start, end).join('\n'),
      ...(fence?.[2] ? { path: fence[2] } : {}),
      ...(MARKER.test(lines[i - 1] ?? '') ? { marker: MARKER.exec(lines[i - 1] ?? '')?.[1]?.trim() } : {}),
    })
    i = end
  }
  return snippets
}

/**
 * Where each snippet is checked, and the text checked there: its declared path in the repository, or
 * a module of its own under `dir` (inside the repository, so imports resolve against the workspace's
 * node_modules exactly as in a user's project). Nothing is written: the checker reads these from
 * memory. A trailing `export {}` makes each a module, so top-level await works and names never clash.
 * @param {Snippet[]} snippets
 * @param {string} dir
 * @returns {Map<string, { snippet: Snippet, text: string }>}
 */
export function snippetFiles(snippets, dir, root = REPO_ROOT) {
  return new Map(
    snippets.map((snippet, index) => {
      const name = `${snippet.readme.replace(/[/.]/g, '_')}_${index}.${snippet.lang === 'ts' ? 'mts' : 'mjs'}`
      const file = snippet.path ? join(root, snippet.path) : join(dir, name)
      return [file, { snippet, text: `${snippet.code}\nexport {}\n` }]
    }),
  )
}
