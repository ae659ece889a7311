#!/usr/bin/env node
// Builds and typechecks every workspace in one Node process, in dependency order, so lib.*.d.ts,
// @types/node and every dependency's declarations are parsed once rather than by a `tsc` per package
// and per task.
//
// Per workspace, one TypeScript program over its tsconfig.json (src and test, the typecheck's files)
// gives the type errors and emits, for the files its build covers, what the per-package build emits:
// - packages with the dual build (scripts/build-package.mjs): dist/esm (tsc, NodeNext, with .d.ts) and
//   dist/cjs (ts.transpileModule per file with module CommonJS, the .d.ts copied from ESM, and a
//   package.json declaring "type": "commonjs"), plus the repository LICENSE beside a public manifest;
// - packages built by `tsc -p tsconfig.build.json` (benchmarks, apps/stretch-helper): that config's
//   files and outDir;
// - packages with no build script (tools/*): typecheck only.
// Emit does not depend on which other files are in the program (isolatedModules is set in
// tsconfig.base.json), so emitting src from the src + test program writes the same files as a src-only
// one. Parsed declaration files are shared between programs with the same options, which is most of
// the saving.
//
// A workspace whose inputs (its tsconfig's files, configs, manifest, the lockfile, this script, the
// TypeScript version) and whose dependencies' builds are unchanged since its last success is skipped:
// keys live in node_modules/.cache/authlab-build.json. The key also covers the
// files outside the workspace that its last program read (see inputKey).
//
// --js-only writes only the JavaScript a workspace runs, each file transpiled on its own (which
// isolatedModules makes equal to the program's emit): no type check, no declarations. `npm run bench`
// needs nothing more, and skipping the type check is most of a full build's time.
// Its cache entries never vouch for a full build.
//
// Usage: node scripts/build-workspace.mjs [--quiet] [--force] [--js-only] [name-or-dir …]
//   --quiet prints only errors; --force ignores the cache; names (or directories) limit the run to
//   those workspaces and what they depend on.
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const require = createRequire(import.meta.url)
const ts = require('typescript')

const args = process.argv.slice(2)
const quiet = args.includes('--quiet')
const force = args.includes('--force')
const jsOnly = args.includes('--js-only')
const only = args.filter((a) => !a.startsWith('--'))
const log = (line) => {
  if (!quiet) process.stdout.write(`${line}\n`)
}

/** Every workspace directory of the root manifest's globs (`dir/*` or a plain directory). */
function workspaces() {
  const globs = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).workspaces
  const dirs = globs.flatMap((glob) =>
    glob.endsWith('/*')
      ? readdirSync(join(ROOT, glob.slice(0, -2)), { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => join(ROOT, glob.slice(0, -2), e.name))
      : [join(ROOT, glob)],
  )
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
}

/** Workspaces ordered so that each comes after every workspace it depends on (any dependency kind). */
function dependencyOrder(all) {
  const byName = new Map(all.map((w) => [w.manifest.name, w]))
  const depsOf = (w) =>
    Object.keys({ ...w.manifest.dependencies, ...w.manifest.devDependencies, ...w.manifest.peerDependencies })
      .map((name) => byName.get(name))
      .filter((d) => d !== undefined)
  const order = []
  const state = new Map()
  const visit = (w, path) => {
    if (state.get(w) === 'done') return
    if (state.get(w) === 'visiting') {
      throw new Error(`workspace dependency cycle: ${[...path, w].map((x) => x.manifest.name).join(' → ')}`)
    }
    state.set(w, 'visiting')
    for (const d of depsOf(w)) visit(d, [...path, w])
    state.set(w, 'done')
    order.push(w)
  }
  const roots =
    only.length === 0
      ? all
      : only.map((want) => {
          const w = byName.get(want) ?? all.find((x) => resolve(x.dir) === resolve(want))
          if (!w) throw new Error(`no workspace named ${want}`)
          return w
        })
  for (const w of roots) visit(w, [])
  return order.map((w) => ({ ...w, deps: depsOf(w) }))
}

/** How the workspace builds, read from its `build` script: the dual build, a tsconfig, or none. */
function buildKind(manifest) {
  const script = manifest.scripts?.build
  if (script === undefined) return { kind: 'none' }
  if (script.includes('scripts/build-package.mjs')) return { kind: 'dual' }
  const tsc = /^tsc -p (\S+)$/.exec(script)
  if (tsc) return { kind: 'tsconfig', config: tsc[1] }
  throw new Error(`${manifest.name}: build script ${JSON.stringify(script)} is not one this script knows`)
}

function parseConfig(file, extra = {}) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  }
  const parsed = ts.getParsedCommandLineOfConfigFile(file, extra, host)
  if (!parsed) throw new Error(`cannot read ${file}`)
  if (parsed.errors.length > 0) report(parsed.errors)
  return parsed
}

const formatHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
}
let failed = false
function report(diagnostics) {
  if (diagnostics.length === 0) return
  failed = true
  process.stderr.write(
    process.stderr.isTTY
      ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost)
      : ts.formatDiagnostics(diagnostics, formatHost),
  )
}

// Parsed source files shared between programs whose options parse and bind files alike (the language
// service's document registry keys them the same way). Every file is read after the workspaces it
// belongs to were built (dependency order), and no file is written twice, so a cached file is current.
const sourceCache = new Map()
function cachingHost(options) {
  const host = ts.createCompilerHost(options, true)
  const settings = JSON.stringify([
    options.target,
    options.module,
    options.moduleResolution,
    options.allowJs,
    options.checkJs,
    options.jsx,
    options.moduleDetection,
    options.resolveJsonModule,
  ])
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const format = typeof languageVersion === 'object' ? languageVersion.impliedNodeFormat : undefined
    const key = `${settings}\0${format}\0${fileName}`
    const cached = sourceCache.get(key)
    if (cached && !shouldCreate) return cached
    const file = getSourceFile(fileName, languageVersion, onError, shouldCreate)
    if (file) sourceCache.set(key, file)
    return file
  }
  return host
}

function hashFiles(hash, files) {
  for (const file of [...files].sort()) {
    hash.update(`\0${relative(ROOT, file)}\0`)
    hash.update(existsSync(file) ? readFileSync(file) : 'missing')
  }
}

const cacheFile = join(ROOT, 'node_modules', '.cache', 'authlab-build.json')
const cache = !force && existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, 'utf8')) : {}
const commonInputs = (() => {
  const hash = createHash('sha256')
  hash.update(ts.version)
  hashFiles(hash, [
    fileURLToPath(import.meta.url),
    join(ROOT, 'tsconfig.base.json'),
    join(ROOT, 'package-lock.json'),
    join(ROOT, 'LICENSE'),
  ])
  return hash.digest('hex')
})()

const keys = new Map()
/**
 * The key of a workspace's inputs: its manifest, configs and tsconfig files, its dependencies' keys,
 * and `outside`, the other files its last program read that no key covers (a test importing another
 * workspace's source, a JSON import, a dependency's emitted declarations): recorded after each success.
 */
function inputKey(w, configs, parsed, outside) {
  const hash = createHash('sha256')
  hash.update(commonInputs)
  for (const d of w.deps) hash.update(keys.get(d.manifest.name) ?? 'unbuilt')
  hashFiles(hash, [join(w.dir, 'package.json'), ...configs, ...parsed.flatMap((p) => p.fileNames)])
  hash.update('\0outside')
  hashFiles(
    hash,
    outside.map((file) => join(ROOT, file)),
  )
  return hash.digest('hex')
}

/**
 * The files a program read beyond its root files, outside node_modules (see inputKey), relative to the
 * root: a copy of the workspace (the scaffold test's) computes the same keys.
 */
function outsideFiles(program, rootNames) {
  const roots = new Set(rootNames)
  return program
    .getSourceFiles()
    .map((f) => f.fileName)
    .filter((f) => !roots.has(f) && !f.includes('/node_modules/'))
    .map((f) => relative(ROOT, f))
}

/** Whether the outputs a cached key vouches for are still there. */
function outputsPresent(w, build) {
  if (build.kind === 'none') return true
  if (build.kind === 'dual')
    return existsSync(join(w.dir, 'dist', 'esm')) && existsSync(join(w.dir, 'dist', 'cjs'))
  return existsSync(build.outDir)
}

/**
 * Each file transpiled on its own into outDir, with the paths `srcRoot` gives (src/a/b.ts → a/b.js),
 * which isolatedModules makes equal to a program's emit: an ES module (ESNext) where `esm`, else
 * CommonJS; a .cts file is CommonJS (.cjs) either way, as NodeNext emits it.
 */
function transpileFiles(files, srcRoot, outDir, options, esm) {
  for (const file of files) {
    if (/\.d\.[cm]?ts$/.test(file)) continue
    const compilerOptions = {
      ...options,
      noEmit: false,
      declaration: false,
      declarationMap: false,
      module: esm && !file.endsWith('.cts') ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    }
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file })
    const out = join(outDir, relative(srcRoot, file)).replace(/\.([cm]?)ts$/, '.$1js')
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, outputText)
  }
}

/** The dual build's dist/cjs manifest, and the LICENSE beside a public one (MIT asks that the notice travel with every copy; see build-package.mjs). */
function finishDual(w, cjs) {
  writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n')
  if (!w.manifest.private) copyFileSync(join(ROOT, 'LICENSE'), join(w.dir, 'LICENSE'))
}

/** The build's JavaScript without the program (--js-only): ESM, and the dual build's dist/cjs. */
function transpileOnly(w, build, emitFiles, checkOptions, buildOptions) {
  const scratch = join(w.dir, `dist.${process.pid}`)
  const srcRoot =
    build.kind === 'tsconfig' ? (buildOptions.rootDir ?? join(w.dir, 'src')) : join(w.dir, 'src')
  const options = buildOptions ?? checkOptions
  rmSync(scratch, { recursive: true, force: true })
  if (build.kind === 'dual') {
    transpileFiles(emitFiles, srcRoot, join(scratch, 'esm'), options, true)
    transpileFiles(emitFiles, srcRoot, join(scratch, 'cjs'), options, false)
    finishDual(w, join(scratch, 'cjs'))
  } else {
    transpileFiles(emitFiles, srcRoot, scratch, options, true)
  }
  rmSync(build.outDir, { recursive: true, force: true })
  renameSync(scratch, build.outDir)
}

function buildOne(w) {
  const name = w.manifest.name
  const build = buildKind(w.manifest)
  const checkConfig = join(w.dir, 'tsconfig.json')
  const configs = [checkConfig]
  const check = parseConfig(checkConfig)
  let emitFiles = new Set()
  let buildOptions
  if (build.kind === 'dual') {
    emitFiles = new Set(check.fileNames.filter((f) => f.startsWith(`${join(w.dir, 'src')}/`)))
    build.outDir = join(w.dir, 'dist')
  } else if (build.kind === 'tsconfig') {
    const file = join(w.dir, build.config)
    configs.push(file)
    const parsed = parseConfig(file)
    buildOptions = parsed.options
    emitFiles = new Set(parsed.fileNames)
    build.outDir = parsed.options.outDir
  }
  const previous = cache[name]
  const key = inputKey(w, configs, [check], previous?.outside ?? [])
  keys.set(name, key)
  if ((previous?.key === key || (jsOnly && previous?.jsKey === key)) && outputsPresent(w, build)) {
    return
  }
  delete cache[name]
  const started = performance.now()
  if (jsOnly) {
    if (build.kind !== 'none') transpileOnly(w, build, emitFiles, check.options, buildOptions)
    cache[name] = { jsKey: key, outside: previous?.outside ?? [] }
    log(`${name}: transpiled (${Math.round(performance.now() - started)} ms)`)
    return
  }

  // One program: the typecheck's files and options; emit on, for the build's files only.
  const scratch = join(w.dir, `dist.${process.pid}`)
  const emitOptions =
    build.kind === 'tsconfig'
      ? { ...buildOptions, rootDir: undefined, outDir: scratch, noEmit: false }
      : { ...check.options, noEmit: false, declaration: true, outDir: scratch }
  // The check config's own options decide everything but where and what is emitted.
  const options = {
    ...check.options,
    noEmit: build.kind === 'none',
    outDir: emitOptions.outDir,
    // The repository root: a test may import another workspace's source (store-matrix imports
    // benchmarks/src), and rootDir must hold every file of the program. Output paths are relocated.
    rootDir: ROOT,
    declaration: emitOptions.declaration,
    declarationMap: emitOptions.declarationMap,
    sourceMap: emitOptions.sourceMap,
  }
  if (build.kind !== 'none') delete options.noEmit
  const program = ts.createProgram({
    rootNames: check.fileNames,
    options,
    host: cachingHost(options),
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(check),
  })
  const diagnostics = [...ts.getPreEmitDiagnostics(program)]
  if (diagnostics.length > 0) {
    report(diagnostics)
    log(`${name}: type errors`)
    return
  }
  if (build.kind === 'none') {
    const outside = outsideFiles(program, check.fileNames)
    cache[name] = { key: inputKey(w, configs, [check], outside), outside }
    keys.set(name, cache[name].key)
    log(`${name}: typechecked (${Math.round(performance.now() - started)} ms)`)
    return
  }

  // The build config's rootDir (src) decides output paths: src/a/b.ts → <outDir>/a/b.js.
  const srcRoot =
    build.kind === 'tsconfig' ? (buildOptions.rootDir ?? join(w.dir, 'src')) : join(w.dir, 'src')
  const target = build.kind === 'dual' ? join(scratch, 'esm') : scratch
  const relocate = (file) => join(target, relative(join(scratch, relative(ROOT, srcRoot)), file))
  rmSync(scratch, { recursive: true, force: true })
  const written = []
  const writeFile = (file, text) => {
    const out = relocate(file)
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, text)
    written.push(out)
  }
  const emitDiagnostics = []
  for (const file of emitFiles) {
    const source = program.getSourceFile(file)
    if (!source) throw new Error(`${name}: ${file} is in the build but not in the program`)
    const result = program.emit(source, writeFile, undefined, false)
    emitDiagnostics.push(...result.diagnostics)
  }
  if (build.kind === 'tsconfig' && buildOptions.declaration === false) {
    for (const out of written.filter((f) => /\.d\.[cm]?ts$/.test(f))) rmSync(out)
  }
  if (emitDiagnostics.length > 0) {
    report(emitDiagnostics)
    rmSync(scratch, { recursive: true, force: true })
    log(`${name}: build errors`)
    return
  }

  if (build.kind === 'dual') {
    // CommonJS: TypeScript's per-file transpile with the options build-package.mjs uses.
    const esm = join(scratch, 'esm')
    const cjs = join(scratch, 'cjs')
    transpileFiles(emitFiles, srcRoot, cjs, check.options, false)
    for (const file of readdirSync(esm, { recursive: true })) {
      if (!/\.d\.[cm]?ts$/.test(file)) continue
      mkdirSync(dirname(join(cjs, file)), { recursive: true })
      copyFileSync(join(esm, file), join(cjs, file))
    }
    finishDual(w, cjs)
  }
  rmSync(build.outDir, { recursive: true, force: true })
  renameSync(scratch, build.outDir)
  const outside = outsideFiles(program, check.fileNames)
  cache[name] = { key: inputKey(w, configs, [check], outside), outside }
  keys.set(name, cache[name].key)
  log(`${name}: built and typechecked (${Math.round(performance.now() - started)} ms)`)
}

const started = performance.now()
const order = dependencyOrder(workspaces())
for (const w of order) {
  try {
    buildOne(w)
  } catch (error) {
    failed = true
    process.stderr.write(`${w.manifest.name}: ${error instanceof Error ? error.message : String(error)}\n`)
  }
}
mkdirSync(dirname(cacheFile), { recursive: true })
writeFileSync(cacheFile, `${JSON.stringify(cache, null, 2)}\n`)
if (failed) {
  process.stderr.write('build-workspace: failed (see the errors above)\n')
  process.exit(1)
}
log(`build-workspace: ${order.length} workspaces in ${((performance.now() - started) / 1000).toFixed(1)} s`)
