// Why Node's crypto.argon2 costs more CPU than a SIMD build, and grows worse with memory: per argon2id
// hash, the CPU split into user and system time and the minor page faults, for crypto.argon2 (async, on
// the libuv threadpool) and argon2Sync, against @node-rs/argon2 (Rust, SIMD) in the same process, at
// three memory sizes (t=2, p=1), once with glibc's default allocator settings and once with its
// mmap threshold raised and one arena (GLIBC_TUNABLES). OpenSSL allocates the Argon2 memory per call
// (providers/implementations/kdfs/argon2.c); glibc serves an allocation above its mmap threshold
// (dynamic, at most 32 MiB) with a fresh mmap, so every 4 KiB page of it faults and is zeroed by the
// kernel on each call, and a threadpool thread's arena cannot hold a 64 MiB block at all.
// Each setting runs in a child process on this Node; one timing workload at a time.
// Usage: node packages/hash-node-crypto-argon2/bench/allocator.mjs [hashes per row] > allocator.json
import { spawnSync } from 'node:child_process'
import { cpus, loadavg, release } from 'node:os'
import { fileURLToPath } from 'node:url'

const HASHES = Number(process.argv[2] ?? 12)
const MEMORY_KIB = [19456, 32768, 65536]
const TUNED =
  'glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=536870912:glibc.malloc.arena_max=1'

if (process.argv[2] === '--child') {
  const { argon2, argon2Sync, randomBytes } = await import('node:crypto')
  const { createRequire } = await import('node:module')
  const rust = createRequire(fileURLToPath(new URL('../../hash-argon2/package.json', import.meta.url)))(
    '@node-rs/argon2',
  )
  const count = Number(process.argv[3])
  const nonce = randomBytes(16)
  const message = Buffer.from('correct horse battery staple')
  const params = (memory) => ({ message, nonce, parallelism: 1, tagLength: 32, memory, passes: 2 })
  const impls = {
    'crypto.argon2': (m) =>
      new Promise((resolve, reject) => argon2('argon2id', params(m), (e, k) => (e ? reject(e) : resolve(k)))),
    'crypto.argon2Sync': async (m) => argon2Sync('argon2id', params(m)),
    '@node-rs/argon2': (m) =>
      rust.hashRaw(message, { memoryCost: m, timeCost: 2, parallelism: 1, outputLen: 32, salt: nonce }),
  }
  const rows = []
  for (const m of MEMORY_KIB) {
    const samples = Object.fromEntries(Object.keys(impls).map((name) => [name, []]))
    // The first calls of each thread pay the allocator's warm-up; they are reported apart.
    const first = {}
    for (let i = 0; i < count + 4; i++) {
      for (const [name, run] of Object.entries(impls)) {
        const before = process.resourceUsage()
        await run(m)
        const after = process.resourceUsage()
        const sample = {
          userMs: (after.userCPUTime - before.userCPUTime) / 1000,
          systemMs: (after.systemCPUTime - before.systemCPUTime) / 1000,
          faults: after.minorPageFault - before.minorPageFault,
        }
        if (i === 0) first[name] = sample
        if (i >= 4) samples[name].push(sample)
      }
    }
    const median = (values) => values.sort((a, b) => a - b)[values.length >> 1]
    for (const [name, list] of Object.entries(samples)) {
      rows.push({
        implementation: name,
        memoryKiB: m,
        cpuMs: median(list.map((s) => s.userMs + s.systemMs)),
        userMs: median(list.map((s) => s.userMs)),
        systemMs: median(list.map((s) => s.systemMs)),
        minorFaults: median(list.map((s) => s.faults)),
        firstCallCpuMs: first[name].userMs + first[name].systemMs,
      })
    }
  }
  process.stdout.write(JSON.stringify(rows))
} else {
  const self = fileURLToPath(import.meta.url)
  const run = (env) => {
    const child = spawnSync(process.execPath, [self, '--child', String(HASHES)], {
      env: { ...process.env, GLIBC_TUNABLES: env },
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    })
    if (child.status !== 0) throw new Error(child.stderr)
    return JSON.parse(child.stdout)
  }
  const started = loadavg()[0]
  const settings = { 'glibc defaults': run(''), [`GLIBC_TUNABLES=${TUNED}`]: run(TUNED) }
  console.log(
    JSON.stringify(
      {
        environment: {
          cpu: cpus()[0]?.model,
          cores: cpus().length,
          os: `Linux ${release()}`,
          node: process.version,
          openssl: process.versions.openssl,
          loadAverage: [started, loadavg()[0]],
          date: new Date().toISOString(),
        },
        method: `t=2 p=1, 32-byte tag; per hash, this process's CPU (user + system) and minor page faults from process.resourceUsage(); median of ${HASHES} hashes after 4 discarded, the three implementations alternating; the first call's CPU beside it`,
        settings,
      },
      null,
      2,
    ),
  )
}
