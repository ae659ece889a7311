import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runInRuntime } from '@authlab/runtimes'
import { requireRuntime } from '@authlab/runtimes/availability'
import { expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const README = fileURLToPath(new URL('../README.md', import.meta.url))
const MARKER = 'test/worker-readme.test.ts runs this block inside workerd'

/** The README's Worker, as written: the first js block after its marker. */
function readmeWorker(): string {
  const lines = readFileSync(README, 'utf8').split('\n')
  const at = lines.findIndex((line) => line.includes(MARKER))
  const start = lines.indexOf('```js', at) + 1
  const end = lines.indexOf('```', start)
  if (at < 0 || start === 0 || end < 0) throw new Error(`no js block after "${MARKER}" in ${README}`)
  return lines.slice(start, end).join('\n')
}

// Inside the repository (packages resolve from its node_modules), beside the other generated entries.
const dir = join(REPO, 'tools/runtimes/generated')
mkdirSync(dir, { recursive: true })
writeFileSync(join(dir, 'hash-wasm-readme-worker.mjs'), `${readmeWorker()}\n`)
const ENTRY = join(dir, 'hash-wasm-readme-worker-entry.mjs')
writeFileSync(
  ENTRY,
  `import worker from './hash-wasm-readme-worker.mjs'
const post = (path, body) =>
  worker.fetch(new Request('http://worker' + path, { method: 'POST', body: JSON.stringify(body) }))
export default async function () {
  const seen = []
  for (const [path, body] of [
    ['/signup', { user: 'ada', password: 'correct horse' }],
    ['/signup', { user: 'ada', password: 'again' }],
    ['/signup', { user: 'bob', password: '' }],
    ['/login', { user: 'ada', password: 'correct horse' }],
    ['/login', { user: 'ada', password: 'correct hors' }],
    ['/login', { user: 'eve', password: 'x' }],
  ]) seen.push((await post(path, body)).status)
  return seen
}
`,
)

// The Worker a reader copies from the README, run in workerd as wrangler would bundle it: the .wasm
// import arrives as a compiled module, and argon2id at OWASP's setting signs up and logs in.
test('the README Worker signs up and logs in inside workerd', { timeout: 60_000 }, async () => {
  const statuses = await runInRuntime(requireRuntime('workerd'), ENTRY, {})
  expect(statuses).toEqual([201, 409, 400, 204, 401, 401])
})
