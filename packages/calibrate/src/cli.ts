import { writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import type { PasswordHasher } from '@authlab/core'
import { type CalibratedAlgorithm, type CalibrationResult, calibrate } from './index.js'

/** The package each algorithm is calibrated with unless `--package` names another installed one. */
const DEFAULT_PACKAGES: Record<CalibratedAlgorithm, string> = {
  argon2id: '@authlab/hash-argon2',
  bcrypt: '@authlab/hash-bcrypt',
  scrypt: '@authlab/hash-scrypt',
  'pbkdf2-sha256': '@authlab/hash-pbkdf2',
}

const USAGE = `authlab-calibrate --target 250ms [--concurrency 8] [--max-memory 64MiB] [--filter argon2]
                  [--package @authlab/hash-wasm] [--samples 12] [--json calibration.json]

Measures each algorithm's hasher on this machine and prints parameters whose median hash time at the
given concurrency is near the target, never below OWASP's minimums.`

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim())
  if (!match) throw new Error(`--target must look like 250ms or 0.25s, got ${text}`)
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1)
}

export function parseBytes(text: string): number {
  const match = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i.exec(text.trim())
  if (!match) throw new Error(`--max-memory must look like 64MiB, got ${text}`)
  const units: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }
  return Number(match[1]) * (units[(match[2] ?? 'B').toLowerCase()] ?? 1)
}

type Factory = (params: Readonly<Record<string, number>>) => PasswordHasher

async function loadFactory(name: string): Promise<{ algorithm: string; factory: Factory } | string> {
  try {
    const mod = (await import(name)) as { createHasher?: Factory }
    if (typeof mod.createHasher !== 'function') return `${name} exports no createHasher`
    return { algorithm: mod.createHasher({}).info.algorithm, factory: mod.createHasher }
  } catch {
    return `${name} is not installed (npm i ${name})`
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      target: { type: 'string' },
      concurrency: { type: 'string', default: '1' },
      'max-memory': { type: 'string', default: '64MiB' },
      filter: { type: 'string' },
      package: { type: 'string', multiple: true },
      samples: { type: 'string', default: '12' },
      json: { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (values.help || !values.target) {
    console.log(USAGE)
    return values.help ? 0 : 2
  }
  const targetMs = parseDuration(values.target)
  const names = values.package ?? Object.values(DEFAULT_PACKAGES)
  const results: Array<CalibrationResult & { package: string }> = []
  const skipped: Array<{ package: string; reason: string }> = []
  console.log(
    `target ${targetMs} ms at concurrency ${values.concurrency}, max memory ${values['max-memory']} per hash; ` +
      `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load ${loadavg()[0]?.toFixed(2)}, ` +
      `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
  )
  for (const name of names) {
    const loaded = await loadFactory(name)
    if (typeof loaded === 'string') {
      skipped.push({ package: name, reason: loaded })
      continue
    }
    if (values.filter && !`${name} ${loaded.algorithm}`.includes(values.filter)) continue
    process.stdout.write(`${name} (${loaded.algorithm}):`)
    const result = await calibrate({
      algorithm: loaded.algorithm as CalibratedAlgorithm,
      factory: loaded.factory,
      targetMs,
      concurrency: Number(values.concurrency),
      maxMemory: parseBytes(values['max-memory']),
      samples: Number(values.samples),
      onMeasured: (m) => process.stdout.write(` ${JSON.stringify(m.params)} ${m.medianMs.toFixed(0)} ms;`),
    })
    process.stdout.write('\n')
    results.push({ ...result, package: name })
  }
  console.log('')
  for (const r of results) {
    const off = `${r.medianMs >= targetMs ? '+' : ''}${((r.medianMs / targetMs - 1) * 100).toFixed(0)} %`
    console.log(
      `${r.met ? 'met   ' : 'missed'} ${r.package}: ${r.snippet}  median ${r.medianMs.toFixed(0)} ms (${off}), p99 ${r.p99Ms.toFixed(0)} ms`,
    )
    if (r.reason) console.log(`       ${r.reason}`)
  }
  for (const s of skipped) console.log(`skipped ${s.package}: ${s.reason}`)
  if (values.json) {
    const machine = {
      cores: availableParallelism(),
      cpu: cpus()[0]?.model,
      node: process.version,
      load: loadavg(),
    }
    writeFileSync(values.json, `${JSON.stringify({ machine, results, skipped }, null, 2)}\n`)
  }
  return 0
}
