import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { dirname, isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { formatGuessRate, isAuthlabError, type PasswordHasher } from '@authlab/core'
import {
  attackerFor,
  checkLoad,
  describeReference,
  inconsistencies,
  loginsPerSecondPerCore,
  recommend,
} from './advice.js'
import { type CalibratedAlgorithm, type CalibrationResult, calibrate, LIMITS } from './index.js'

/** The package each algorithm is calibrated with unless `--package` names another installed one. */
const DEFAULT_PACKAGES: Record<CalibratedAlgorithm, string> = {
  argon2id: '@authlab/hash-argon2',
  bcrypt: '@authlab/hash-bcrypt',
  scrypt: '@authlab/hash-scrypt',
  'pbkdf2-sha256': '@authlab/hash-pbkdf2',
}

const USAGE = `authlab-calibrate --target 250ms [--concurrency 8] [--max-memory 64MiB] [--filter argon2]
                  [--package @authlab/hash-wasm] [--samples 12] [--json calibration.json] [--allow-load]

Measures each algorithm's hasher on this machine and prints parameters whose median hash time with
--concurrency logins at once (default: this machine's cores) is near the target, never below OWASP's
minimums; for each, logins/s per core and an attacker's GPU guess rate, then the algorithm to use.
Refuses to measure at a load average of the core count or more unless --allow-load (exit 3).`

/** A command line that cannot be run as given: the usage is printed and the exit code is 2. */
export class UsageError extends Error {}

export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim())
  if (!match) throw new UsageError(`--target must look like 250ms or 0.25s, got ${text}`)
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1)
}

export function parseBytes(text: string): number {
  const match = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i.exec(text.trim())
  if (!match) throw new UsageError(`--max-memory must look like 64MiB, got ${text}`)
  const units: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }
  return Number(match[1]) * (units[(match[2] ?? 'B').toLowerCase()] ?? 1)
}

type Factory = (params: Readonly<Record<string, number>>) => PasswordHasher

/**
 * What `import()` is given for `--package`: a path (`./hasher.mjs`, `/abs/x.js`) from the directory the
 * command was typed in, a package name as is. A bare `import('./x')` would resolve from this file.
 */
export function importSpecifier(name: string, cwd = process.cwd()): string {
  const isPath = name.startsWith('.') || isAbsolute(name)
  return isPath ? pathToFileURL(resolve(cwd, name)).href : name
}

async function loadFactory(name: string): Promise<{ algorithm: string; factory: Factory } | string> {
  const specifier = importSpecifier(name)
  let mod: { createHasher?: Factory }
  try {
    mod = (await import(specifier)) as { createHasher?: Factory }
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string }
    // Only a module that is missing itself is "not installed"; one whose own code throws, or that
    // imports something missing, says what went wrong.
    if (specifier.startsWith('file:') && !existsSync(resolve(name))) return `${name}: no such file`
    const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND'
    if (notFound && (message ?? '').includes(`'${name}'`)) return `${name} is not installed (npm i ${name})`
    return `${name} failed to import: ${String(message ?? error).split('\n')[0]}`
  }
  try {
    if (typeof mod.createHasher !== 'function') return `${name} exports no createHasher`
    return { algorithm: mod.createHasher({}).info.algorithm, factory: mod.createHasher }
  } catch (error) {
    return `${name}: createHasher({}) failed: ${(error as Error).message}`
  }
}

/** Refuses a `--json` path that cannot be written before anything is measured, not after the run. */
function checkWritable(file: string): void {
  const path = resolve(file)
  try {
    if (existsSync(path)) {
      if (statSync(path).isDirectory()) throw new Error('it is a directory')
      accessSync(path, constants.W_OK)
    } else accessSync(dirname(path), constants.W_OK)
  } catch (error) {
    const reason = (error as { code?: string }).code ?? (error as Error).message
    throw new UsageError(`--json ${file} cannot be written (${reason})`)
  }
}

/** Where the command writes; a caller embedding it (authlab-bench calibrate, a test) passes its own. */
export interface CalibrateIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** The machine as the command sees it; a test passes a fixed one (default: node:os, performance.now). */
  readonly machine?: {
    readonly cores: number
    readonly load1: () => number
    readonly clock?: () => number
  }
}

const PROCESS_IO: CalibrateIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}

function positiveInteger(text: string, name: string): number {
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < 1)
    throw new UsageError(`${name} must be a positive integer, got ${text}`)
  return value
}

function formatDays(days: number): string {
  return days >= 100 ? Math.round(days).toLocaleString('en-US') : days.toPrecision(3)
}

/** What the setting costs the server, from its measured median at the concurrency it planned for. */
function serverSide(r: CalibrationResult, cores: number): string {
  const perCore = loginsPerSecondPerCore(r.medianMs, r.concurrency, cores)
  const used = Math.min(r.concurrency, cores)
  return `${r.medianMs.toFixed(0)} ms per login with ${r.concurrency} at once = ${perCore.toFixed(1)} logins/s per core (${(perCore * used).toFixed(1)} on the ${used} busy)`
}

/** The command line as a function: returns the exit code (0 done, 2 usage, 3 too loaded to measure). */
export async function main(argv: readonly string[], io: CalibrateIo = PROCESS_IO): Promise<number> {
  try {
    return await run(argv, io)
  } catch (error) {
    if (
      !(error instanceof UsageError) &&
      !isAuthlabError(error) &&
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true
    )
      throw error
    io.stderr(`authlab-calibrate: ${(error as Error).message}\n\n${USAGE}\n`)
    return 2
  }
}

async function run(argv: readonly string[], io: CalibrateIo): Promise<number> {
  const print = (line: string) => io.stdout(`${line}\n`)
  const { values } = parseArgs({
    args: [...argv],
    options: {
      target: { type: 'string' },
      concurrency: { type: 'string' },
      'max-memory': { type: 'string', default: '64MiB' },
      filter: { type: 'string' },
      package: { type: 'string', multiple: true },
      samples: { type: 'string', default: '12' },
      json: { type: 'string' },
      help: { type: 'boolean' },
      'allow-load': { type: 'boolean', default: false },
    },
  })
  if (values.help) {
    print(USAGE)
    return 0
  }
  if (!values.target) throw new UsageError('--target is required')
  const targetMs = parseDuration(values.target)
  const cores = io.machine?.cores ?? availableParallelism()
  // Logins at once decide the answer (8 at once on 2 cores each take 4× as long): with no figure given,
  // plan for as many as there are cores, and say so.
  const concurrency = values.concurrency ? positiveInteger(values.concurrency, '--concurrency') : cores
  const samples = positiveInteger(values.samples, '--samples')
  const maxMemory = parseBytes(values['max-memory'])
  if (targetMs > LIMITS.maxTargetMs)
    throw new UsageError(`--target must be at most ${LIMITS.maxTargetMs / 1000}s, got ${values.target}`)
  if (concurrency > LIMITS.maxConcurrency)
    throw new UsageError(`--concurrency must be at most ${LIMITS.maxConcurrency}, got ${values.concurrency}`)
  if (samples > LIMITS.maxSamples)
    throw new UsageError(`--samples must be at most ${LIMITS.maxSamples}, got ${values.samples}`)
  if (values.json) checkWritable(values.json)
  const names = values.package ?? Object.values(DEFAULT_PACKAGES)
  const results: Array<CalibrationResult & { package: string }> = []
  const skipped: Array<{ package: string; reason: string }> = []
  const load1 = io.machine?.load1() ?? loadavg()[0] ?? 0
  const assumed = values.concurrency
    ? `${concurrency} logins at once (--concurrency)`
    : `${concurrency} logins at once (this machine's ${cores} cores, the default; --concurrency <your peak logins at once> to plan for yours)`
  print(
    `target ${targetMs} ms per login with ${assumed}, max memory ${values['max-memory']} per hash; ` +
      `${cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load ${load1.toFixed(2)}, ` +
      `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
  )
  const load = checkLoad(load1, cores)
  let loadSaid = false
  for (const name of names) {
    const loaded = await loadFactory(name)
    if (typeof loaded === 'string') {
      skipped.push({ package: name, reason: loaded })
      continue
    }
    if (values.filter && !`${name} ${loaded.algorithm}`.includes(values.filter)) continue
    // Judged once, before the first measurement: a run that measures nothing is not refused.
    if (!loadSaid && load.kind !== 'ok') {
      if (load.kind === 'refuse' && !values['allow-load']) {
        io.stderr(`authlab-calibrate: ${load.message}\n`)
        return 3
      }
      print(`warning: ${load.message}`)
    }
    loadSaid = true
    io.stdout(`${name} (${loaded.algorithm}):`)
    const result = await calibrate({
      algorithm: loaded.algorithm as CalibratedAlgorithm,
      factory: loaded.factory,
      targetMs,
      concurrency,
      maxMemory,
      samples,
      ...(io.machine?.clock ? { clock: io.machine.clock } : {}),
      onMeasured: (m) => io.stdout(` ${JSON.stringify(m.params)} ${m.medianMs.toFixed(0)} ms;`),
    })
    io.stdout('\n')
    results.push({ ...result, package: name })
  }
  print('')
  for (const r of results) {
    const off = `${r.medianMs >= targetMs ? '+' : ''}${((r.medianMs / targetMs - 1) * 100).toFixed(0)} %`
    print(
      `${r.met ? 'met   ' : 'missed'} ${r.package}: ${r.snippet}  median ${r.medianMs.toFixed(0)} ms (${off}), p99 ${r.p99Ms.toFixed(0)} ms`,
    )
    if (r.reason) print(`       ${r.reason}`)
    print(`       server: ${serverSide(r, cores)}`)
    const a = attackerFor(r)
    if (a) {
      print(
        `       attacker: ≈ ${formatGuessRate(a.guessesPerSecond)} per GPU, ${formatDays(a.gpuDaysPerWordList)} GPU-days per 10^10 guesses (${a.note})`,
      )
      print(`       source: ${describeReference(a.reference)}`)
    }
    for (const line of inconsistencies(r.algorithm, r.tried))
      print(`       warning: ${line}: the machine was busy while it measured; measure again on an idle one`)
  }
  const pick = recommend(results)
  if (pick) {
    print('')
    print(`recommended: ${pick.best.algorithm} with ${pick.best.package}, ${pick.best.snippet}`)
    print(`  why: ${pick.why}`)
    print(`  cost: ${serverSide(pick.best, cores)}`)
  }
  for (const s of skipped) print(`skipped ${s.package}: ${s.reason}`)
  if (values.json) {
    const machine = {
      cores,
      concurrency,
      recommended: pick ? { package: pick.best.package, snippet: pick.best.snippet, why: pick.why } : null,
      cpu: cpus()[0]?.model,
      node: process.version,
      load: loadavg(),
    }
    writeFileSync(values.json, `${JSON.stringify({ machine, results, skipped }, null, 2)}\n`)
  }
  return 0
}
