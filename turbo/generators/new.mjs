#!/usr/bin/env node
// Non-interactive entry to the strategy scaffold (the same templates as `npx turbo gen strategy`):
//   npm run new -- --kind id --name x --wraps y
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { nextSteps, scaffoldStrategy } from './scaffold.mjs'

const usage = 'usage: npm run new -- --kind id|hash --name <name> --wraps <dependency, e.g. node:crypto>'

try {
  const { values } = parseArgs({
    options: { kind: { type: 'string' }, name: { type: 'string' }, wraps: { type: 'string' } },
    strict: true,
  })
  const { kind, name, wraps } = values
  if (!kind || !name || !wraps) throw new Error(usage)
  const root = resolve(import.meta.dirname, '../..')
  const { packageName, files } = scaffoldStrategy(root, { kind, name, wraps })
  process.stdout.write(`created ${packageName}\n${files.map((file) => `  ${file}\n`).join('')}`)
  process.stdout.write(`next: ${nextSteps(packageName)}\n`)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 2
}
