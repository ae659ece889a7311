/**
 * `npm run capacity -w @authlab/stretch-helper [-- --duration 20s --rtt 30ms --out file]`: the helper
 * pinned to CPU 0, this client re-run pinned to CPU 1 (with taskset, when present), offered load at
 * 0.5×, 1× and 2× the helper's capacity. Prints a table and writes the figures with the environment
 * they were measured in (results/capacity.json by default).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, platform, release } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { type CapacityResult, runCapacity } from './capacity.js'
import { parseDurationMs } from './duration.js'

const CLIENT_CPU = '1'
const HELPER_CPU = 0

function pinSelf(): void {
  if (process.env.AUTHLAB_CAPACITY_PINNED) return
  if (spawnSync('taskset', ['--version']).status !== 0) return
  const again = spawnSync('taskset', ['-c', CLIENT_CPU, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, AUTHLAB_CAPACITY_PINNED: CLIENT_CPU },
  })
  process.exit(again.status ?? 1)
}

function environment() {
  let commit = 'unknown'
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {}
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    // The machine's cores: availableParallelism() here would count only the one this process is pinned to.
    cores: cpus().length,
    os: `${platform()} ${release()}`,
    runtime: `node ${process.version}`,
    commit,
    date: new Date().toISOString(),
    loadAverageAtStart: loadavg().map((x) => Number(x.toFixed(2))),
    clientPinnedTo: process.env.AUTHLAB_CAPACITY_PINNED ?? null,
  }
}

function table(result: CapacityResult): string {
  const rtt = result.rttMs ? `, simulated RTT ${result.rttMs} ms` : ', loopback'
  const lines = [
    `helper: ${result.helperCores} core${result.helperPinned ? ' (pinned)' : ''}, scrypt ${result.scryptMs.toFixed(0)} ms → capacity ${result.capacityPerS.toFixed(2)}/s; ${result.arrivals}, ${result.durationMs / 1000} s per level, deadline ${result.timeoutMs} ms${rtt}`,
    'load   offered/s  arrived/s  completed/s  p50 ms  p99 ms  503s  retries  errors  wrong  unanswered  helper RSS MiB',
  ]
  for (const l of result.levels) {
    const errors = Object.values(l.errors).reduce((a, b) => a + b, 0)
    lines.push(
      [
        `${l.multiplier}×`.padEnd(5),
        l.offeredPerS.toFixed(2).padStart(10),
        l.arrivedPerS.toFixed(2).padStart(10),
        l.completedPerS.toFixed(2).padStart(12),
        l.p50Ms.toFixed(0).padStart(7),
        l.p99Ms.toFixed(0).padStart(7),
        String(l.status503).padStart(5),
        String(l.retries).padStart(8),
        String(errors).padStart(7),
        String(l.wrong).padStart(6),
        String(l.unanswered).padStart(11),
        (l.helperPeakRssMiB?.toFixed(0) ?? '-').padStart(14),
      ].join(' '),
    )
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { duration: { type: 'string' }, rtt: { type: 'string' }, out: { type: 'string' } },
  })
  pinSelf()
  const env = environment()
  const result = await runCapacity({
    helperCpu: HELPER_CPU,
    durationMs: values.duration === undefined ? 20_000 : parseDurationMs(values.duration, '--duration'),
    rttMs: values.rtt === undefined ? 0 : parseDurationMs(values.rtt, '--rtt'),
    onProgress: (message) => process.stderr.write(`${message}\n`),
  })
  const here = dirname(fileURLToPath(import.meta.url))
  const out = resolve(values.out ?? join(here, '..', 'results', 'capacity.json'))
  mkdirSync(dirname(out), { recursive: true })
  const loadAverageAtEnd = loadavg().map((x) => Number(x.toFixed(2)))
  writeFileSync(out, `${JSON.stringify({ environment: { ...env, loadAverageAtEnd }, ...result }, null, 2)}\n`)
  process.stdout.write(
    `${table(result)}\nload average at start ${env.loadAverageAtStart.join(' ')}, at end ${loadAverageAtEnd.join(' ')}\nwritten to ${out}\n`,
  )
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
