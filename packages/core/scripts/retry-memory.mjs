// Peak memory of a hasher built with `maxConcurrent` while callers refused with an OverloadError keep
// retrying, the load that a login endpoint under a password-guessing burst sees. Prints one JSON line.
//
//   node packages/core/scripts/retry-memory.mjs <package dir> [ln=17] [callers=8] [derivations=24]
//
// e.g. `node packages/core/scripts/retry-memory.mjs packages/hash-noble` after `npm run build`.
// A memory figure, not a timing one: the derivation count ends the run, not a clock.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const [dir, ln = '17', callers = '8', derivations = '24'] = process.argv.slice(2)
if (!dir) throw new Error('usage: retry-memory.mjs <package dir> [ln] [callers] [derivations]')
const MiB = 2 ** 20
const atStart = process.memoryUsage()
const { createHasher } = await import(pathToFileURL(resolve(dir, 'dist/esm/index.js')).href)
const hasher = createHasher({ ln: Number(ln), r: 8, p: 1 })
const stored = await hasher.hash('correct horse battery staple')

let peakArrayBuffers = 0
let peakRss = 0
const sample = () => {
  const now = process.memoryUsage()
  peakArrayBuffers = Math.max(peakArrayBuffers, now.arrayBuffers)
  peakRss = Math.max(peakRss, now.rss)
}
const sampler = setInterval(sample, 2)
let completed = 0
let refused = 0
async function caller() {
  while (completed < Number(derivations)) {
    try {
      await hasher.verify(stored, 'wrong password')
      completed++
    } catch (error) {
      if (error.code !== 'ERR_AUTHLAB_OVERLOAD') throw error
      refused++
      await new Promise((done) => setTimeout(done, 1))
    }
    sample()
  }
}
await Promise.all(Array.from({ length: Number(callers) }, caller))
clearInterval(sampler)

const maxConcurrent = 4
const vBytes = 128 * 8 * 2 ** Number(ln)
console.log(
  JSON.stringify({
    package: dir,
    runtime: process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`,
    ln: Number(ln),
    callers: Number(callers),
    completed,
    refused,
    boundMiB: (maxConcurrent * vBytes) / MiB,
    rssAtStartMiB: Math.round(atStart.rss / MiB),
    peakArrayBuffersMiB: Math.round(peakArrayBuffers / MiB),
    peakRssMiB: Math.round(peakRss / MiB),
  }),
)
