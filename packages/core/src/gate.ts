/**
 * A bounded concurrency gate: `slots` jobs run at once and at most `queueLimit` wait, in arrival order.
 * When both are full, `tryEnter` refuses at once instead of growing a backlog whose every entry would
 * time out anyway (an HTTP service answers 503, RFC 9110 §15.6.4; a library throws OverloadError).
 * A finishing job hands its slot straight to the next in line, so a newcomer arriving in between
 * cannot take it as well.
 */
export interface Gate {
  /** Resolves with a release function once a slot is free, or returns null when the queue is full. */
  tryEnter(): Promise<() => void> | null
  readonly running: number
  readonly queued: number
}

export function createGate(slots: number, queueLimit: number): Gate {
  let running = 0
  const waiting: (() => void)[] = []

  const release = () => {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
  // A release function works once, so a double call cannot free a slot that someone else holds.
  const once = () => {
    let done = false
    return () => {
      if (!done) {
        done = true
        release()
      }
    }
  }

  return {
    tryEnter() {
      if (running < slots) {
        running++
        return Promise.resolve(once())
      }
      if (waiting.length >= queueLimit) return null
      return new Promise((resolve) => waiting.push(() => resolve(once())))
    },
    get running() {
      return running
    },
    get queued() {
      return waiting.length
    },
  }
}
