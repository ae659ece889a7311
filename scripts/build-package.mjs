#!/usr/bin/env node
// Dual build (ESM + CommonJS) of one workspace package with plain `tsc`, in the layout tshy made
// common: dist/esm and dist/cjs, each with its own .d.ts, and dist/cjs/package.json declaring
// "type": "commonjs" so Node and TypeScript read those files as CJS. Dual output lets CommonJS and
// `moduleResolution: node16` consumers use the packages without require(esm) warnings on Node 20.
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'

const cwd = process.cwd()
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
const dist = join(cwd, 'dist')
rmSync(dist, { recursive: true, force: true })
mkdirSync(dist, { recursive: true })

const builds = [
  { dir: 'esm', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } },
  { dir: 'cjs', compilerOptions: { module: 'CommonJS', moduleResolution: 'Bundler' } },
]
for (const { dir, compilerOptions } of builds) {
  const config = join(dist, `tsconfig.${dir}.json`)
  writeFileSync(
    config,
    JSON.stringify({
      extends: '../tsconfig.json',
      include: ['../src'],
      compilerOptions: { ...compilerOptions, noEmit: false, rootDir: '../src', outDir: dir },
    }),
  )
  try {
    execFileSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' })
  } finally {
    rmSync(config)
  }
}
writeFileSync(join(dist, 'cjs', 'package.json'), '{ "type": "commonjs" }\n')
