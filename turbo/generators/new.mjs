#!/usr/bin/env node
// Non-interactive entry to the strategy scaffold (the same templates as `npx turbo gen strategy`):
//   npm run new -- --kind id --name x --wraps y
//   npm run new -- --kind hash --name x --wraps y --algorithm <new PHC id>   (a new algorithm's profile too)
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { nextSteps, scaffoldStrategy } from './scaffold.mjs'

const usage =
  'usage: npm run new -- --kind id|hash --name <name> --wraps <dependency, e.g. node:crypto> [--algorithm <new PHC id>]'

try {
  const { values } = parseArgs({
    options: {
      kind: { type: 'string' },
      name: { type: 'string' },
      wraps: { type: 'string' },
      algorithm: { type: 'string' },
    },
    strict: true,
  })
  const { kind, name, wraps, algorithm } = values
  if (!kind || !name || !wraps) throw new Error(usage)
  const root = resolve(import.meta.dirname, '../..')
  const { packageName, files } = scaffoldStrategy(root, { kind, name, wraps, algorithm })
  process.stdout.write(`created ${packageName}\n${files.map((file) => `  ${file}\n`).join('')}`)
  process.stdout.write(`next: ${nextSteps(packageName)}\n`)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 2
}
