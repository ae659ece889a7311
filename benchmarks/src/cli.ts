#!/usr/bin/env node
import { readFileSync } from 'node:fs'
import { nodeProblem } from './node-floor.js'

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string }
}
const problem = nodeProblem(process.versions.node, manifest.engines.node)
if (problem) {
  process.stderr.write(`${problem}\n`)
  process.exit(2)
}

// Two experimental APIs run on purpose: Web Crypto's Argon2id (a candidate) and vm.measureMemory (how
// @authlab/core frees a bounded KDF's slot after a collection). Their notices would open every run's
// output; any other warning is printed as Node prints it.
const EXPECTED = /Argon2id Web Crypto|vm\.measureMemory/
process.removeAllListeners('warning')
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && EXPECTED.test(warning.message)) return
  process.stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`)
})

// Imported only now: below the floor, loading the bench's modules is what fails.
const { EXIT, main } = await import('./main.js')

// `authlab-bench compare … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  throw error
})

try {
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
} catch (error) {
  // An unexpected failure must not exit 1, which compare uses for "regression".
  process.stderr.write(`authlab-bench: internal error: ${(error as Error)?.stack ?? String(error)}\n`)
  process.exitCode = EXIT.internal
}
