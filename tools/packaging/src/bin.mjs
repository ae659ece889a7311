import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/**
 * Absolute path of a dependency's CLI, read from its `bin` field: tools like attw export no
 * `./dist/index.js` subpath, and `npx` would add a process and a registry look-up per call.
 * @param {string} packageName @param {string} [binName]
 */
export function binPath(packageName, binName) {
  const manifestPath = require.resolve(`${packageName}/package.json`)
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'))
  /** @type {string | undefined} */
  const relativePath = typeof bin === 'string' ? bin : bin?.[binName ?? packageName.split('/').pop() ?? '']
  if (!relativePath) throw new Error(`${packageName} has no bin named ${binName ?? 'after itself'}`)
  return join(dirname(manifestPath), relativePath)
}
