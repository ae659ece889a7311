#!/usr/bin/env node
// Dual build (ESM + CommonJS) of one workspace package, in the layout tshy made common: dist/esm and
// dist/cjs, each with its own .d.ts, and dist/cjs/package.json declaring "type": "commonjs" so Node and
// TypeScript read those files as CJS. Dual output lets CommonJS and `moduleResolution: node16` consumers
// use the packages without require(esm) warnings on Node 20.
// One compile per package: `tsc` type-checks and emits the ESM build with its declarations; the CJS
// build is TypeScript's own per-file transpile (ts.transpileModule, as under isolatedModules, which the
// base tsconfig sets) with the options a second `tsc` run used, and the same declaration files (both
// emits were byte-identical for every file of this workspace: the declarations do not depend on the
// module kind here). tools/packaging's publint, attw and pack-install tests check the result.
// It builds into a scratch folder and swaps it in at the end, so a consumer never sees half a dist/.
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'

const cwd = process.cwd()
const require = createRequire(import.meta.url)
const tsc = require.resolve('typescript/bin/tsc')
const ts = require('typescript')
const scratch = join(cwd, `dist.${process.pid}`)
const dist = join(cwd, 'dist')
mkdirSync(scratch, { recursive: true })

/** The scratch tsconfig of one build: the package's own, with that build's module kind and output. */
function writeConfig(dir, compilerOptions) {
  const config = join(scratch, `tsconfig.${dir}.json`)
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../tsconfig.json',
      include: ['../src'],
      compilerOptions: { ...compilerOptions, noEmit: false, rootDir: '../src', outDir: dir },
    }),
  )
  return config
}

/** Every file CommonJS consumers load, transpiled file by file; the declarations copied from ESM. */
function transpileCommonJs(config) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      },
    },
  )
  if (!parsed) throw new Error(`cannot read ${config}`)
  const { rootDir, outDir } = parsed.options
  const compilerOptions = { ...parsed.options, declaration: false, declarationMap: false }
  for (const file of parsed.fileNames) {
    if (/\.d\.[cm]?ts$/.test(file)) continue
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file })
    const out = join(outDir, relative(rootDir, file)).replace(/\.([cm]?)ts$/, '.$1js')
    mkdirSync(dirname(out), { recursive: true })
    writeFileSync(out, outputText)
  }
  const esm = join(scratch, 'esm')
  for (const file of readdirSync(esm, { recursive: true })) {
    if (!/\.d\.[cm]?ts$/.test(file)) continue
    mkdirSync(dirname(join(outDir, file)), { recursive: true })
    copyFileSync(join(esm, file), join(outDir, file))
  }
}

try {
  const esm = writeConfig('esm', { module: 'NodeNext', moduleResolution: 'NodeNext' })
  execFileSync(process.execPath, [tsc, '-p', esm], { stdio: 'inherit' })
  const cjs = writeConfig('cjs', { module: 'CommonJS', moduleResolution: 'Bundler' })
  transpileCommonJs(cjs)
  for (const config of [esm, cjs]) rmSync(config)
  writeFileSync(join(scratch, 'cjs', 'package.json'), '{ "type": "commonjs" }\n')
  rmSync(dist, { recursive: true, force: true })
  renameSync(scratch, dist)
  // MIT asks that the notice travel with every copy; npm packs a package-root LICENSE whatever
  // "files" says, so the repository's one LICENSE is placed beside each manifest at build time.
  if (!JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')).private) {
    copyFileSync(join(cwd, '../../LICENSE'), join(cwd, 'LICENSE'))
  }
} catch (error) {
  // tsc has already printed its diagnostics; a stack trace of this script would only bury them.
  if (!(error instanceof Error && 'status' in error)) console.error(String(error))
  rmSync(scratch, { recursive: true, force: true })
  process.exit(1)
}
