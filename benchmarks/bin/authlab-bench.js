#!/usr/bin/env node
// Committed so npm links the command at install time, before any build: with the bin pointing into
// dist/, a fresh `npm ci` linked nothing and `npx authlab-bench` asked the registry for that name.
import { existsSync } from 'node:fs'

const cli = new URL('../dist/cli.js', import.meta.url)
if (!existsSync(cli)) {
  process.stderr.write('authlab-bench is not built yet: run `npm run build` at the repository root first.\n')
  process.exit(2)
}
await import(cli.href)
