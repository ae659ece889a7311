import { Worker } from 'node:worker_threads'

// Evaluated source rather than a worker file, so the same code works from the ESM and the CommonJS
// build of this package; the generator module itself is loaded with a real dynamic import().
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
import(workerData.module).then((m) => {
  const make = m[workerData.exportName]
  if (typeof make !== 'function') throw new Error(workerData.module + ' has no export ' + workerData.exportName)
  const generate = make()
  const ids = []
  for (let i = 0; i < workerData.count; i++) ids.push(generate())
  parentPort.postMessage(ids)
})
`

/** Imports `module` in a fresh worker thread and returns `count` IDs generated there. */
export function idsFromWorker(module: string, exportName: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, exportName, count } })
    worker.once('message', (ids: string[]) => {
      resolve(ids)
      void worker.terminate()
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`worker exited with code ${code} before answering`)))
  })
}
