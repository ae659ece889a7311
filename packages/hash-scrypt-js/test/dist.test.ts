import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { test } from 'vitest'

// Vitest transforms imports, so it cannot see how plain Node loads the published builds. scrypt-js is
// CommonJS behind a UMD wrapper: a named ESM import of it fails only under Node's own loader.
const dist = (format: 'esm' | 'cjs') => fileURLToPath(new URL(`../dist/${format}/index.js`, import.meta.url))
const script = (load: string) =>
  `${load}.then((m) => m.createHasher({ ln: 4 }).hash('pw')).then((h) => process.stdout.write(h))`

test('the ESM build loads and hashes under plain Node', () => {
  const out = execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    script(`import(${JSON.stringify(dist('esm'))})`),
  ])
  assert.match(out.toString(), /^\$scrypt\$ln=4,r=8,p=1\$/)
})

test('the CommonJS build loads and hashes under plain Node', () => {
  const out = execFileSync(process.execPath, [
    '-e',
    script(`Promise.resolve(require(${JSON.stringify(dist('cjs'))}))`),
  ])
  assert.match(out.toString(), /^\$scrypt\$ln=4,r=8,p=1\$/)
})
