import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'
import { extractSnippets, readmeFiles, snippetFiles } from '../src/readme-snippets.mjs'
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
const problems = diagnosticsByFile(new Map([...files].map(([file, { text }]) => [file, text])), STRICT)

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
