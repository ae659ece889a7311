#!/usr/bin/env node
// `npm run bench`: build the workspace with turbo (cached), then run the bench app with the arguments
// given after `--`. turbo prints a banner on every run (its version, the "Packages in scope" list of every
// workspace, one line of over 600 characters, and a task summary) and has no flag to leave it out, so the
// build's output is kept back and shown only when the build fails: the first lines a user sees, and every
// line, are the bench's own, sized to the terminal.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const turbo = createRequire(import.meta.url).resolve('turbo/bin/turbo')

process.stderr.write('bench: building the workspace (turbo run build, cached)…\n')
const build = spawnSync(
  process.execPath,
  [turbo, 'run', 'build', '--output-logs=errors-only', '--no-update-notifier'],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 },
)
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '')
  process.stderr.write(build.stderr ?? '')
  process.stderr.write(
    `bench: the build failed (${build.error?.message ?? `exit ${build.status ?? build.signal}`})\n`,
  )
  process.exit(build.status || 1)
}

const bench = spawnSync(process.execPath, ['dist/cli.js', ...process.argv.slice(2)], {
  cwd: join(root, 'benchmarks'),
  stdio: 'inherit',
})
if (bench.error) throw bench.error
process.exit(bench.status ?? 1)
