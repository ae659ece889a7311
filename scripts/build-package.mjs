#!/usr/bin/env node
// Dual build (ESM + CommonJS) of one workspace package with plain `tsc`, in the layout tshy made
// common: dist/esm and dist/cjs, each with its own .d.ts, and dist/cjs/package.json declaring
// "type": "commonjs" so Node and TypeScript read those files as CJS. Dual output lets CommonJS and
// `moduleResolution: node16` consumers use the packages without require(esm) warnings on Node 20.
// It builds into a scratch folder and swaps it in at the end, so a consumer never sees half a dist/.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const cwd = process.cwd()
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const scratch = join(cwd, `dist.${process.pid}`)
const dist = join(cwd, 'dist')
mkdirSync(scratch, { recursive: true })

const builds = [
  { dir: 'esm', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } },
  { dir: 'cjs', compilerOptions: { module: 'CommonJS', moduleResolution: 'Bundler' } },
]
try {
  for (const { dir, compilerOptions } of builds) {
    const config = join(scratch, `tsconfig.${dir}.json`)
    writeFileSync(
      config,
      JSON.stringify({
        extends: '../tsconfig.json',
        include: ['../src'],
        compilerOptions: { ...compilerOptions, noEmit: false, rootDir: '../src', outDir: dir },
      }),
    )
    execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' })
    rmSync(config)
  }
  writeFileSync(join(scratch, 'cjs', 'package.json'), '{ "type": "commonjs" }\n')
  rmSync(dist, { recursive: true, force: true })
  renameSync(scratch, dist)
  // MIT asks that the notice travel with every copy; npm packs a package-root LICENSE whatever
  // "files" says, so the repository's one LICENSE is placed beside each manifest at build time.
  if (!JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')).private) {
    copyFileSync(join(cwd, '../../LICENSE'), join(cwd, 'LICENSE'))
  }
} catch {
  // tsc has already printed its diagnostics; a stack trace of this script would only bury them.
  rmSync(scratch, { recursive: true, force: true })
  process.exit(1)
}
