import type { AnySuite } from '../harness/suite.js'

/** The CLI's exit codes; the help text lists them. */
export const EXIT = { ok: 0, regression: 1, usage: 2, unreadable: 3, internal: 4 } as const

export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Workspace root to discover packages in (default: the repository containing this app). */
  readonly root?: string
  /** More suite folders beside the discovered ones (a suite of your own, or a test's). */
  readonly suiteDirs?: readonly string[]
}

/** A usage mistake: exit 2 with the reason and the usage. */
export class UsageError extends Error {}

/** The options every command shares the parser of (src/main.ts). */
export interface Values {
  readonly suite?: string
  readonly runtime?: string
  readonly filter?: string
  readonly full: boolean
  readonly quick: boolean
  readonly out?: string
  readonly candidate?: string[]
  readonly seed?: string
  readonly rtt?: string
  readonly threshold?: string
  readonly alpha?: string
  readonly format?: string
  readonly absolute: boolean
  readonly wide: boolean
  readonly explain: boolean
  readonly from?: string[]
  readonly check: boolean
}

/** What a command runs with. */
export interface Invocation {
  readonly values: Values
  /** The command's own arguments, after its name. */
  readonly args: readonly string[]
  readonly argv: readonly string[]
  readonly io: Io
  /** The repository root and where relative paths start (where the command was typed). */
  readonly root: string
  readonly startDir: string
  readonly suites: readonly AnySuite[]
}

/** A command of the table src/main.ts dispatches on and builds `--help` from. */
export interface Command {
  /** Its synopsis lines, after `authlab-bench`. */
  readonly usage: (suites: readonly AnySuite[]) => string
  readonly run: (invocation: Invocation) => Promise<number>
}

/** A number option that must be a non-negative number. */
export function percentOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`${name} must be a non-negative number, got "${value}"`)
  return n
}
