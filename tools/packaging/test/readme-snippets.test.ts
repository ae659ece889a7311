import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { extractSnippets, readmeFiles, snippetFiles } from '../src/readme-snippets.mjs'
import { consumerReadmes, DECORATORS, snippetModule, snippetRun, snippetRuns } from '../src/snippet-runs.mjs'
import { publishablePackages, REPO_ROOT } from '../src/workspace.mjs'

// What a user copies from a README must compile where they paste it: strict TypeScript, and
// JavaScript checked as TypeScript would check it (checkJs), against the built packages.
const STRICT: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  allowJs: true,
  checkJs: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  types: ['node'],
  ...DECORATORS,
}

/** Type-checks in-memory files (path → text) as if they were on disk beside the real ones. */
function diagnosticsByFile(files: Map<string, string>, options: ts.CompilerOptions): Map<string, string[]> {
  const host = ts.createCompilerHost(options)
  const { fileExists, readFile } = host
  host.fileExists = (name) => files.has(name) || fileExists(name)
  host.readFile = (name) => files.get(name) ?? readFile(name)
  const getSourceFile = host.getSourceFile
  host.getSourceFile = (name, language, ...rest) => {
    const text = files.get(name)
    return text === undefined
      ? getSourceFile(name, language, ...rest)
      : ts.createSourceFile(name, text, language)
  }
  const program = ts.createProgram([...files.keys()], options, host)
  const found = new Map<string, string[]>()
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '(options)'
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0
    const list = found.get(file) ?? []
    list.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
    found.set(file, list)
  }
  return found
}

const readmes = readmeFiles()
const snippets = readmes.flatMap((readme) => extractSnippets(readme))
const files = snippetFiles(snippets, join(REPO_ROOT, 'node_modules/.cache/authlab-readme-snippets'))
// The published packages' READMEs are checked in a program of their own, as in a user's project: a
// declaration another workspace brings (apps/servers augments express-session's SessionData) must not
// make their code compile.
const published = new Set(consumerReadmes())
const program = (keep: (readme: string) => boolean) =>
  diagnosticsByFile(
    new Map(
      [...files].filter(([, { snippet }]) => keep(snippet.readme)).map(([file, { text }]) => [file, text]),
    ),
    STRICT,
  )
const problems = new Map([
  ...program((readme) => published.has(readme)),
  ...program((readme) => !published.has(readme)),
])

test('the READMEs hold code to check', () => {
  expect(snippets.length).toBeGreaterThan(20)
})

describe.each(readmes.filter((readme) => snippets.some((s) => s.readme === readme)))('%s', (readme) => {
  test('every ts/js code block type-checks in strict mode', () => {
    const report = [...files]
      .filter(([, { snippet }]) => snippet.readme === readme)
      .flatMap(([file, { snippet }]) =>
        (problems.get(file) ?? []).map((p) => {
          const [line, message] = [Number(p.slice(0, p.indexOf(':'))), p.slice(p.indexOf(':') + 2)]
          return `${readme}:${snippet.line + line}: ${message}`
        }),
      )
    expect(report).toEqual([])
  })
})

test('every package’s declarations compile for target ES2020 with skipLibCheck off', () => {
  const dir = join(REPO_ROOT, 'node_modules/.cache/authlab-es2020')
  const importer = publishablePackages()
    .map((pkg, i) => `import * as p${i} from '${pkg.manifest.name}'\nvoid p${i}`)
    .join('\n')
  const entry = join(dir, 'imports-every-package.mts')
  const found = diagnosticsByFile(new Map([[entry, importer]]), {
    ...STRICT,
    target: ts.ScriptTarget.ES2020,
    lib: ['lib.es2020.d.ts'],
    skipLibCheck: false,
  })
  // Only our own declarations are judged here; a third-party .d.ts that needs a newer lib is theirs.
  const ours = [...found].filter(
    ([file]) => /@authlab|packages\//.test(file) || file.includes('authlab-es2020'),
  )
  expect(ours.flatMap(([file, list]) => list.map((p) => `${file}:${p}`))).toEqual([])
})

test('every README code block a user reads is run by the consumer test, or its marker says why not', () => {
  const runs = snippetRuns()
  expect(runs.filter((run) => !('notRun' in run)).length).toBeGreaterThan(20)
  const unexplained = runs
    .filter((run) => 'notRun' in run && run.notRun.trim().length < 10)
    .map(
      ({ snippet }) =>
        `${snippet.readme}:${snippet.line}: add <!-- snippet: not run, <why> --> or make it run`,
    )
  expect(unexplained).toEqual([])
})

test('a marker is read from the line before a block; CommonJS is the same code with require', () => {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-snippets-'))
  writeFileSync(
    join(dir, 'README.md'),
    [
      '<!-- snippet: esm+cjs -->',
      '```js',
      "import express from 'express'",
      "import { generateId as id, hasher } from '@authlab/x'",
      'const app = express()',
      'app.listen(Number(process.env.PORT ?? 3000))',
      '```',
      '',
      '```ts path=packages/x/test/a.test.ts',
      'x',
      '```',
    ].join('\n'),
  )
  const [server, file] = extractSnippets('README.md', dir)
  if (!server || !file) throw new Error('two blocks expected')
  expect(snippetRun(server)).toMatchObject({ kind: 'session', modules: ['esm', 'cjs'] })
  expect(snippetRun(file)).toMatchObject({ notRun: '' })
  expect(snippetModule(server, 'cjs', 0).text).toBe(
    [
      "const express = require('express')",
      "const { generateId: id, hasher } = require('@authlab/x')",
      'const app = express()',
      'app.listen(Number(process.env.PORT ?? 3000))',
      '',
    ].join('\n'),
  )
  expect(() => snippetRun({ ...server, marker: 'sometimes' })).toThrow(/unknown snippet marker/)
})

test('a marker may name the flow, other runtimes and a block shared by several READMEs', () => {
  const [server] = extractSnippets('README.md', writeReadme(['```js', 'app.listen(3000)', '```']))
  if (!server) throw new Error('a block expected')
  expect(snippetRun({ ...server, marker: 'flow=magic-link, runs=bun deno, once' })).toMatchObject({
    kind: 'magic-link',
    modules: ['esm'],
    runtimes: ['bun', 'deno'],
    once: true,
  })
  expect(snippetRun(server)).toMatchObject({ kind: 'session', runtimes: [] })
  expect(() => snippetRun({ ...server, marker: 'flow=telepathy' })).toThrow(/unknown snippet marker/)
  expect(() => snippetRun({ ...server, marker: 'runs=node12' })).toThrow(/unknown snippet marker/)
  // The shared framework blocks of the ID packages run once, from the first README that holds them.
  const shared = snippetRuns().filter((run) => 'notRun' in run && run.notRun.startsWith('the same code'))
  expect(shared.length).toBeGreaterThan(0)
  for (const run of shared) expect(run.snippet.marker).toContain('once')
})

function writeReadme(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-snippets-'))
  writeFileSync(join(dir, 'README.md'), lines.join('\n'))
  return dir
}
