import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { dirname, isAbsolute, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
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
import {
  type CalibratedAlgorithm,
  type CalibrationResult,
  calibrate,
  DEFAULTS,
  LIMITS,
  OutOfTimeError,
  resolveSettings,
} from './index.js'

/** The package each algorithm is calibrated with unless `--package` names another installed one. */
const DEFAULT_PACKAGES: Record<CalibratedAlgorithm, string> = {
  argon2id: '@authlab/hash-argon2',
  bcrypt: '@authlab/hash-bcrypt',
  scrypt: '@authlab/hash-scrypt',
  'pbkdf2-sha256': '@authlab/hash-pbkdf2',
}

const USAGE = `authlab-calibrate --target 250ms [--concurrency 8] [--max-memory 64MiB] [--filter argon2]
                  [--package @authlab/hash-wasm] [--samples 12] [--max-time 10min]
                  [--json calibration.json] [--allow-load]

Measures each algorithm's hasher on this machine and prints parameters whose median hash time with
--concurrency logins at once (default: this machine's cores) is near the target, never below OWASP's
minimums; for each, logins/s per core and an attacker's GPU guess rate, then the algorithm to use.
Limits: --target at most ${LIMITS.maxTargetMs / 1000}s, --concurrency ${LIMITS.maxConcurrency}, --samples ${LIMITS.maxSamples}, --max-memory ${LIMITS.maxMemory / 2 ** 30}GiB.
--max-time bounds the whole run (default ${DEFAULTS.maxTimeMs / 60_000}min, at most ${LIMITS.maxTimeMs / 60_000}min): a measurement starts only
when what was measured predicts it ends in time; what it could not measure is listed.
Exit codes: 0 done, 1 a hasher failed (the others are still reported), 2 usage, 3 too loaded to
measure (refused unless --allow-load).`

/** A command line that cannot be run as given: the usage is printed and the exit code is 2. */
export class UsageError extends Error {}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 }

export function parseDuration(text: string, flag = '--target'): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|h)?$/.exec(text.trim())
  if (!match) throw new UsageError(`${flag} must look like 250ms, 0.25s or 10min, got ${text}`)
  return Number(match[1]) * (DURATION_UNITS[match[2] ?? 'ms'] ?? 1)
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

/** The command line as a function: returns the exit code (0 done, 1 a hasher failed, 2 usage, 3 too loaded). */
export async function main(argv: readonly string[], io: CalibrateIo = PROCESS_IO): Promise<number> {
  let plan: Plan | 'help'
  try {
    plan = parsePlan(argv, io)
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
  const print = (line: string) => io.stdout(`${line}\n`)
  if (plan === 'help') {
    print(USAGE)
    return 0
  }
  const outcome = await measureAll(plan, io)
  if (typeof outcome === 'number') return outcome
  printResults(outcome, plan, print)
  if (plan.json) writeJson(plan, outcome)
  return outcome.failed.length > 0 ? 1 : 0
}

/** A command line read and checked, before anything is measured. */
interface Plan {
  readonly targetMs: number
  readonly concurrency: number
  readonly samples: number
  readonly maxMemory: number
  readonly maxTimeMs: number
  readonly cores: number
  readonly packages: readonly string[]
  readonly filter: string | undefined
  readonly json: string | undefined
  readonly allowLoad: boolean
  readonly describe: string
}

function parsePlan(argv: readonly string[], io: CalibrateIo): Plan | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      target: { type: 'string' },
      concurrency: { type: 'string' },
      'max-memory': { type: 'string', default: '64MiB' },
      'max-time': { type: 'string', default: `${DEFAULTS.maxTimeMs / 60_000}min` },
      filter: { type: 'string' },
      package: { type: 'string', multiple: true },
      samples: { type: 'string', default: String(DEFAULTS.samples) },
      json: { type: 'string' },
      help: { type: 'boolean' },
      'allow-load': { type: 'boolean', default: false },
    },
  })
  if (values.help) return 'help'
  if (!values.target) throw new UsageError('--target is required')
  const targetMs = parseDuration(values.target)
  const cores = io.machine?.cores ?? availableParallelism()
  // Logins at once decide the answer (8 at once on 2 cores each take 4× as long): with no figure given,
  // plan for as many as there are cores, as calibrate() does, and say so.
  const concurrency = values.concurrency ? positiveInteger(values.concurrency, '--concurrency') : cores
  const samples = positiveInteger(values.samples, '--samples')
  const maxMemory = parseBytes(values['max-memory'])
  const maxTimeMs = parseDuration(values['max-time'], '--max-time')
  const atMost = (flag: string, bound: string, given: string | undefined) =>
    new UsageError(`${flag} must be at most ${bound}, got ${given}`)
  if (targetMs > LIMITS.maxTargetMs) throw atMost('--target', `${LIMITS.maxTargetMs / 1000}s`, values.target)
  if (concurrency > LIMITS.maxConcurrency)
    throw atMost('--concurrency', String(LIMITS.maxConcurrency), values.concurrency)
  if (samples > LIMITS.maxSamples) throw atMost('--samples', String(LIMITS.maxSamples), values.samples)
  if (maxMemory > LIMITS.maxMemory)
    throw atMost('--max-memory', `${LIMITS.maxMemory / 2 ** 30}GiB (core's caps)`, values['max-memory'])
  if (maxTimeMs > LIMITS.maxTimeMs)
    throw atMost('--max-time', `${LIMITS.maxTimeMs / 60_000}min`, values['max-time'])
  // The library's own checks too (a zero --max-time, say), so no candidate fails on an option later.
  resolveSettings({ targetMs, concurrency, samples, maxMemory, maxTimeMs })
  if (values.json) checkWritable(values.json)
  const assumed = values.concurrency
    ? `${concurrency} logins at once (--concurrency)`
    : `${concurrency} logins at once (this machine's ${cores} cores, the default; --concurrency <your peak logins at once> to plan for yours)`
  return {
    targetMs,
    concurrency,
    samples,
    maxMemory,
    maxTimeMs,
    cores,
    packages: values.package ?? Object.values(DEFAULT_PACKAGES),
    filter: values.filter,
    json: values.json,
    allowLoad: values['allow-load'],
    describe: `target ${targetMs} ms per login with ${assumed}, max memory ${values['max-memory']} per hash, at most ${values['max-time']} in all`,
  }
}

interface Outcome {
  readonly results: Array<CalibrationResult & { package: string }>
  /** Not installed, or not loadable: nothing to measure. */
  readonly skipped: Array<{ package: string; reason: string }>
  /** Loaded, but no candidate could be measured: its error. */
  readonly failed: Array<{ package: string; reason: string }>
  /** Loaded, but the run's --max-time was spent before it could be measured. */
  readonly outOfTime: Array<{ package: string; reason: string }>
}

/** Calibrates each package in turn; one that fails is reported, never the end of the others' results. */
async function measureAll(plan: Plan, io: CalibrateIo): Promise<Outcome | number> {
  const print = (line: string) => io.stdout(`${line}\n`)
  const clock = io.machine?.clock ?? (() => performance.now())
  const deadline = clock() + plan.maxTimeMs
  const outcome: Outcome = { results: [], skipped: [], failed: [], outOfTime: [] }
  const load1 = io.machine?.load1() ?? loadavg()[0] ?? 0
  print(
    `${plan.describe}; ${plan.cores} cores (${cpus()[0]?.model ?? 'unknown CPU'}), load ${load1.toFixed(2)}, ` +
      `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
  )
  const load = checkLoad(load1, plan.cores)
  let loadSaid = false
  for (const name of plan.packages) {
    const loaded = await loadFactory(name)
    if (typeof loaded === 'string') {
      outcome.skipped.push({ package: name, reason: loaded })
      continue
    }
    if (plan.filter && !`${name} ${loaded.algorithm}`.includes(plan.filter)) continue
    // Judged once, before the first measurement: a run that measures nothing is not refused.
    if (!loadSaid && load.kind !== 'ok') {
      if (load.kind === 'refuse' && !plan.allowLoad) {
        io.stderr(`authlab-calibrate: ${load.message}\n`)
        return 3
      }
      print(`warning: ${load.message}`)
    }
    loadSaid = true
    const remainingMs = deadline - clock()
    if (remainingMs <= 0) {
      outcome.outOfTime.push({ package: name, reason: '--max-time was spent before it was reached' })
      continue
    }
    io.stdout(`${name} (${loaded.algorithm}):`)
    try {
      const result = await calibrate({
        algorithm: loaded.algorithm as CalibratedAlgorithm,
        factory: loaded.factory,
        targetMs: plan.targetMs,
        concurrency: plan.concurrency,
        maxMemory: plan.maxMemory,
        samples: plan.samples,
        maxTimeMs: remainingMs,
        clock,
        onMeasured: (m) => io.stdout(` ${JSON.stringify(m.params)} ${m.medianMs.toFixed(0)} ms;`),
      })
      outcome.results.push({ ...result, package: name })
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string }
      const reason = `${code ? `${code} ` : ''}${String(message ?? error)}`
      ;(error instanceof OutOfTimeError ? outcome.outOfTime : outcome.failed).push({ package: name, reason })
    }
    io.stdout('\n')
  }
  return outcome
}

function printResults(outcome: Outcome, plan: Plan, print: (line: string) => void): void {
  print('')
  for (const r of outcome.results) {
    const off = `${r.medianMs >= plan.targetMs ? '+' : ''}${((r.medianMs / plan.targetMs - 1) * 100).toFixed(0)} %`
    print(
      `${r.met ? 'met   ' : 'missed'} ${r.package}: ${r.snippet}  median ${r.medianMs.toFixed(0)} ms (${off}), p99 ${r.p99Ms.toFixed(0)} ms`,
    )
    if (r.reason) print(`       ${r.reason}`)
    else if (r.stopped) print(`       the search stopped: ${r.stopped.message}`)
    if (r.concurrencyNote) print(`       note: ${r.concurrencyNote}`)
    print(`       server: ${serverSide(r, plan.cores)}`)
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
  const pick = recommend(outcome.results)
  if (pick) {
    print('')
    print(`recommended: ${pick.best.algorithm} with ${pick.best.package}, ${pick.best.snippet}`)
    print(`  why: ${pick.why}`)
    print(`  cost: ${serverSide(pick.best, plan.cores)}`)
  }
  for (const f of outcome.failed) print(`failed ${f.package}: ${f.reason}`)
  for (const t of outcome.outOfTime) print(`not measured ${t.package}: ${t.reason}`)
  for (const s of outcome.skipped) print(`skipped ${s.package}: ${s.reason}`)
}

function writeJson(plan: Plan, outcome: Outcome): void {
  const pick = recommend(outcome.results)
  const machine = {
    cores: plan.cores,
    concurrency: plan.concurrency,
    maxTimeMs: plan.maxTimeMs,
    recommended: pick ? { package: pick.best.package, snippet: pick.best.snippet, why: pick.why } : null,
    cpu: cpus()[0]?.model,
    node: process.version,
    load: loadavg(),
  }
  const { results, skipped, failed, outOfTime } = outcome
  writeFileSync(
    plan.json as string,
    `${JSON.stringify({ machine, results, skipped, failed, outOfTime }, null, 2)}\n`,
  )
}
