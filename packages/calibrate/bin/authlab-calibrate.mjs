#!/usr/bin/env node
// Committed, not built: npm links a bin only if its target exists at install time, and this file
// always does; the code it runs is the build.
import { main } from '../dist/esm/cli.js'

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error) => {
    console.error(`authlab-calibrate: ${error.message}`)
    process.exitCode = 1
  },
)
