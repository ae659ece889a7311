import { availableParallelism } from 'node:os'
import type { Candidates } from '../model/candidates.js'
import type { Failure, Row, SuiteRecord } from '../model/types.js'
import type { Views } from '../model/view.js'
import { renderTerminal, type TerminalOptions } from '../report/terminal.js'
import { decideRows } from '../stats/decide.js'
import { onMeasureCore, placementNote } from './placement.js'
import type { AnySuite, Mode, Progress, SuiteRow } from './suite.js'

/** What the suites on this Node run with. */
export interface SuitesRun {
  readonly suites: readonly AnySuite[]
  readonly mode: Mode
  /** Seeds the round orders; recorded, so a schedule can be replayed. */
  readonly seed: number
  /** `--rtt` in ms, for the suites that call a remote service (recorded with the command line). */
  readonly simulatedRttMs?: number
  readonly stdout: (text: string) => void
  readonly progress: (suite: string) => Progress
  readonly terminal: TerminalOptions
}

/** Each suite's view, by name, from the declarations. */
export const viewsOf =
  (suites: readonly AnySuite[]): Views =>
  (name) =>
    suites.find((s) => s.name === name)?.view ?? {}

/**
 * The suite's name on its rows; a figure no clean round produced (NaN) becomes 0 with a flag, because
 * results files hold numbers only and a reader must not take it for a measurement.
 */
function stamp(suite: string, row: SuiteRow): Row {
  const details = Object.fromEntries(
    Object.entries(row.details).filter(([, v]) => typeof v === 'string' || Number.isFinite(v)),
  )
  if (Number.isFinite(row.value)) return { suite, ...row, details }
  return { suite, ...row, value: 0, details, flags: [...row.flags, { kind: 'no-figure' }] }
}

/**
 * One suite on this Node, its table printed when it finishes. `interlude` (for a suite that spreads its
 * rounds) runs the suites after it; the ids suite's pin is released meanwhile, and its time is not the
 * suite's.
 */
async function runSuite(
  options: SuitesRun,
  candidates: Candidates,
  suite: AnySuite,
  interlude?: () => Promise<void>,
) {
  const progress = options.progress(suite.name)
  const failures: Failure[] = []
  let awayMs = 0
  const timed =
    interlude &&
    (async () => {
      progress.note('the other suites run now; the remaining rounds after them')
      const left = performance.now()
      await interlude()
      awayMs += performance.now() - left
    })
  const budget = suite.budget[options.mode]
  const ctx = {
    budget,
    mode: options.mode,
    progress,
    cores: availableParallelism(),
    seed: options.seed,
    simulatedRttMs: options.simulatedRttMs,
    failed: (candidate: string, reason: string) => void failures.push({ candidate, reason }),
  }
  const started = performance.now()
  const { rows, notes } =
    suite.placement === 'one-core'
      ? await onMeasureCore(async (cpu, away) => {
          const result = await suite.run(candidates, {
            ...ctx,
            ...(timed ? { interlude: () => away(timed) } : {}),
          })
          return { rows: result.rows, notes: [placementNote(cpu), ...result.notes] }
        })
      : await suite.run(candidates, { ...ctx, ...(timed ? { interlude: timed } : {}) })
  progress.note(`done in ${((performance.now() - started - awayMs) / 1000).toFixed(1)} s`)
  const record: SuiteRecord = {
    name: suite.name,
    description: suite.description,
    method: suite.method(budget),
    processRounds: suite.roundsAreProcesses === true,
    notes,
    failures,
    rows: decideRows(rows.map((row) => stamp(suite.name, row))),
  }
  options.stdout(renderTerminal(record, suite.view ?? {}, options.terminal))
  return record
}

/**
 * The suites on this Node, one after another. A suite that spreads its rounds runs the suites after it
 * in its interlude, once, halfway through its own rounds, and finishes last; the results keep the order
 * the suites were named in.
 */
export async function runSuites(options: SuitesRun, candidates: Candidates): Promise<SuiteRecord[]> {
  const records = new Map<number, SuiteRecord>()
  const runFrom = async (first: number): Promise<void> => {
    for (let index = first; index < options.suites.length; index++) {
      if (records.has(index)) continue
      const suite = options.suites[index] as AnySuite
      let ran = false
      const interlude =
        suite.spreadsRounds && index < options.suites.length - 1
          ? async () => {
              if (ran) return
              ran = true
              await runFrom(index + 1)
            }
          : undefined
      records.set(index, await runSuite(options, candidates, suite, interlude))
    }
  }
  await runFrom(0)
  return options.suites.map((_, index) => records.get(index) as SuiteRecord)
}
