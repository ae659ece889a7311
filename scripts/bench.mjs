#!/usr/bin/env node
// `npm run bench`: write the workspace's JavaScript (cached), then run the bench app with the arguments
// given after `--`. The bench needs JavaScript, not a type check (that is `npm test`'s build), so
// scripts/build-workspace.mjs --js-only transpiles each file on its own, several times faster than the
// checked build. Its output is kept back and shown only when it fails: the first lines a user sees, and
// every line, are the bench's own, sized to the terminal.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

process.stderr.write('bench: transpiling the workspace (cached)…\n')
const build = spawnSync(
  process.execPath,
  [join(root, 'scripts', 'build-workspace.mjs'), '--quiet', '--js-only'],
  {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  },
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
