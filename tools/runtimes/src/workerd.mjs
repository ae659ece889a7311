import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { processCpuClock } from './cpu-clock.mjs'

const GLUE = fileURLToPath(new URL('./workerd-glue.mjs', import.meta.url))

/**
 * The Workers compatibility date every run uses (developers.cloudflare.com/workers/configuration/
 * compatibility-dates): from 2026-08-04 on, `nodejs_compat` is on by default, so node:crypto's
 * scryptSync and pbkdf2Sync exist as they do on Cloudflare for a Worker created today.
 */
export const COMPATIBILITY_DATE = '2026-11-01'

/**
 * Shortest batch, in ms of CPU, when batches are timed by workerd's CPU time: each reading is one
 * subrequest to the host (0.13 to 0.15 ms of workerd's CPU, measured over 400 readings), so a 50 ms
 * batch carries under 1 % of clock overhead. With the 10 ms tick counters (no schedstat) the floor is 500 ms,
 * so that a reading's ±1 tick is at most 2 % of a batch.
 */
const MIN_CPU_BATCH_MS = { schedstat: 50, stat: 500 }

/** How long workerd may take to start listening (it compiles the bundle first). */
const START_TIMEOUT_MS = 30_000

/**
 * Runs `entry`'s default export inside workerd (Cloudflare's Workers runtime, the same binary
 * `wrangler dev` runs) and returns its JSON result, as runInRuntime does for the other runtimes.
 * The entry is bundled as a module worker, the way wrangler bundles one: esbuild with the `workerd`,
 * `worker` and `browser` export conditions, Node built-ins left to workerd's `nodejs_compat`, and each
 * imported `.wasm` file declared as a Wasm module (workerd refuses to compile WebAssembly from bytes at
 * run time, so a package's WebAssembly must arrive precompiled, as Workers deliver it).
 * One workerd process serves the one request that runs the entry, and stops after it.
 * @param {{ id: string, command: string }} runtime
 * @param {string} entry absolute path
 * @param {unknown} input
 * @param {{ timeoutMs: number, version: string }} options
 */
export async function runInWorkerd(runtime, entry, input, { timeoutMs, version }) {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-workerd-'))
  /** @type {Array<() => void>} */
  const cleanup = [() => rmSync(dir, { recursive: true, force: true })]
  try {
    const wasm = await bundleWorker(entry, dir)
    writeFileSync(join(dir, 'config.capnp'), capnpConfig(wasm))
    const server = await startWorkerd(runtime.command, dir)
    cleanup.unshift(() => server.child.kill('SIGKILL'))
    const clock = processCpuClock(/** @type {number} */ (server.child.pid))
    const host = { version, clock: undefined }
    if (clock.ok) {
      const clockServer = await serveClock(clock.clock.read)
      cleanup.unshift(() => clockServer.close())
      Object.assign(host, {
        clock: {
          url: `http://127.0.0.1:${clockServer.port}/cpu`,
          source: clock.clock.source,
          resolutionMs: clock.clock.resolutionMs,
          minBatchMs: MIN_CPU_BATCH_MS[clock.clock.source],
        },
      })
    }
    const response = await untilFirst(
      fetch(`http://127.0.0.1:${server.port}/`, { method: 'POST', body: JSON.stringify({ input, host }) }),
      server.exited.then(() => `${runtime.id} exited: ${server.stderr()}`),
      timeoutMs,
      `${runtime.id} timed out after ${timeoutMs} ms`,
    )
    const answer = /** @type {any} */ (await response.json().catch(() => undefined))
    if (answer?.ok) return answer.result
    throw new Error(`${runtime.id}: ${answer?.error ?? `HTTP ${response.status}`} | ${server.stderr()}`)
  } finally {
    for (const step of cleanup) step()
  }
}

/**
 * `work`'s value, or an error with the reason `failure` gives first, or `timedOut` after `timeoutMs`.
 * @template T
 * @param {Promise<T>} work
 * @param {Promise<string>} failure
 * @param {number} timeoutMs
 * @param {string} timedOut
 * @returns {Promise<T>}
 */
function untilFirst(work, failure, timeoutMs, timedOut) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const stopped = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(timedOut)), timeoutMs)
    failure.then((reason) => reject(new Error(reason)))
  })
  return /** @type {Promise<T>} */ (Promise.race([work, stopped])).finally(() => clearTimeout(timer))
}

/**
 * Bundles the entry behind the worker glue into `<dir>/worker.js`, copies each `.wasm` it imports to
 * `<dir>/wasm/`, and returns their module names.
 * @param {string} entry
 * @param {string} dir
 */
async function bundleWorker(entry, dir) {
  /** @type {Map<string, string>} */
  const wasm = new Map()
  await build({
    stdin: {
      contents: `import run from ${JSON.stringify(entry)}\nimport { serveEntry } from ${JSON.stringify(GLUE)}\nexport default serveEntry(run)\n`,
      resolveDir: dir,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    // wrangler's conditions for a Worker bundle (workers-sdk, packages/wrangler/src/deployment-bundle).
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    outfile: join(dir, 'worker.js'),
    // CommonJS dependencies that `require` a Node built-in reach workerd's through createRequire
    // (nodejs_compat's node:module); esbuild's require shim calls the `require` in scope.
    banner: {
      js: "import { createRequire as __authlabCreateRequire } from 'node:module'\nconst require = __authlabCreateRequire('file:///worker.js')",
    },
    plugins: [
      {
        name: 'workerd-modules',
        setup(b) {
          const builtins = new Set(builtinModules.filter((name) => !name.startsWith('_')))
          b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
            const name = args.path.replace(/^node:/, '')
            return builtins.has(name) ? { path: `node:${name}`, external: true } : undefined
          })
          b.onResolve({ filter: /\.wasm$/ }, async (args) => {
            if (args.pluginData?.wasm) return undefined
            const found = await b.resolve(args.path, {
              kind: args.kind,
              resolveDir: args.resolveDir,
              pluginData: { wasm: true },
            })
            if (found.errors.length > 0) return { errors: found.errors }
            const name = wasm.get(found.path) ?? `wasm/${wasm.size}-${basename(found.path)}`
            wasm.set(found.path, name)
            return { path: `./${name}`, external: true }
          })
        },
      },
    ],
    logLevel: 'silent',
  })
  mkdirSync(join(dir, 'wasm'), { recursive: true })
  for (const [path, name] of wasm) copyFileSync(path, join(dir, name))
  return [...wasm.values()]
}

/**
 * workerd's own config format (Cap'n Proto text; schema: workerd's src/workerd/server/workerd.capnp):
 * one worker on a loopback port the OS picks, its fetches allowed to loopback (the host's clock, a
 * helper service) as well as the public internet, and V8's gc() exposed as in the other runtimes.
 * @param {string[]} wasm module names
 */
function capnpConfig(wasm) {
  const modules = [
    '(name = "worker.js", esModule = embed "worker.js")',
    ...wasm.map((name) => `(name = ${JSON.stringify(name)}, wasm = embed ${JSON.stringify(name)})`),
  ]
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "outbound", network = (allow = ["public", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
  v8Flags = ["--expose-gc"],
);
const worker :Workerd.Worker = (
  modules = [
    ${modules.join(',\n    ')},
  ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  globalOutbound = "outbound",
);
`
}

/**
 * Starts `workerd serve` on the config in `dir` and waits for the port it listens on, which workerd
 * writes to the control file descriptor (`--control-fd`) as `{"event":"listen","port":...}`.
 * @param {string} command
 * @param {string} dir
 */
function startWorkerd(command, dir) {
  const child = spawn(command, ['serve', join(dir, 'config.capnp'), '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += chunk))
  const lastLines = () => stderr.trim().split('\n').slice(-3).join(' | ')
  const exited = new Promise((resolve) => child.on('close', resolve))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`workerd did not listen within ${START_TIMEOUT_MS} ms: ${lastLines()}`))
    }, START_TIMEOUT_MS)
    const controlFd = /** @type {import('node:stream').Readable} */ (child.stdio[3])
    let control = ''
    controlFd.on('data', (chunk) => {
      control += chunk
      const listen = control
        .split('\n')
        .flatMap((line) => (line.includes('"listen"') ? [JSON.parse(line)] : []))
        .at(0)
      if (!listen) return
      clearTimeout(timer)
      resolve({ child, port: /** @type {number} */ (listen.port), exited, stderr: lastLines })
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`workerd exited before listening: ${lastLines()}`))
    })
  })
}

/**
 * The host's side of the CPU clock: GET answers `{ ms }`, workerd's CPU time so far.
 * @param {() => number} read
 * @returns {Promise<{ port: number, close: () => void }>}
 */
function serveClock(read) {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ ms: read() }))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: /** @type {import('node:net').AddressInfo} */ (server.address()).port,
        close: () => server.close(),
      }),
    ),
  )
}
