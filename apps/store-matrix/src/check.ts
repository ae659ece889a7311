/** A failed step of a matrix check: the step names what was being verified, the reason what went wrong. */
export class CheckFailure extends Error {
  constructor(
    readonly step: string,
    readonly reason: string,
  ) {
    super(`${step}: ${reason}`)
    this.name = 'CheckFailure'
  }
}

export type Outcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly step: string; readonly reason: string }

/** Runs named steps in order; the first failure (a CheckFailure or any thrown error) is the outcome. */
export class Steps {
  private current = 'start'

  async run<T>(step: string, action: () => Promise<T>): Promise<T> {
    this.current = step
    return action()
  }

  expect(condition: boolean, reason: string): void {
    if (!condition) throw new CheckFailure(this.current, reason)
  }

  static async outcome(body: (steps: Steps) => Promise<void>): Promise<Outcome> {
    const steps = new Steps()
    try {
      await body(steps)
      return { ok: true }
    } catch (error) {
      if (error instanceof CheckFailure) return { ok: false, step: error.step, reason: error.reason }
      return {
        ok: false,
        step: steps.current,
        reason: error instanceof Error ? error.message : String(error),
      }
    }
  }
}

/** A short description of an unexpected reply, with the server's exposed error when there is one. */
export function describeReply(reply: { status: number; json?: Record<string, unknown> | undefined }): string {
  const error = reply.json?.error
  return typeof error === 'string' ? `HTTP ${reply.status}: ${error}` : `HTTP ${reply.status}`
}
