import type { Password } from '@authlab/core'

/** One call for a worker thread: which strategy (an absolute module path) with which options, and what to do. */
export interface WorkerTask {
  readonly id: number
  readonly module: string
  readonly options: unknown
  readonly method: 'hash' | 'verify'
  readonly args: readonly [Password] | readonly [string, Password]
}

/**
 * An error crosses the thread boundary by structured clone, which keeps `message` but drops `code`;
 * so failures come back as data and the main thread rebuilds the typed AuthlabError. `memoryMb` is
 * the worker's own V8 heap plus external memory (WebAssembly and ArrayBuffer backing stores) after
 * the task, so the pool can retire a thread that a large task left bloated.
 */
export type WorkerResult = { readonly id: number; readonly memoryMb: number } & (
  | { readonly ok: true; readonly value: string | boolean }
  | { readonly ok: false; readonly code: string | undefined; readonly message: string }
)
