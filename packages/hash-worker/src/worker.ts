import type { Password, PasswordHasher } from '@authlab/core'

/** One call for a worker thread: which strategy (an absolute module path) with which options, and what to do. */
export interface WorkerTask {
  readonly module: string
  readonly options: unknown
  readonly method: 'hash' | 'verify'
  readonly args: readonly [Password] | readonly [string, Password]
}

/**
 * An error crosses the thread boundary by structured clone, which keeps `message` but drops `code`;
 * so failures come back as data and the main thread rebuilds the typed AuthlabError.
 */
export type WorkerResult =
  | { readonly ok: true; readonly value: string | boolean }
  | { readonly ok: false; readonly code: unknown; readonly message: string }

// Each worker builds a strategy's hasher once per options set and keeps it for later tasks.
const hashers = new Map<string, PasswordHasher>()

async function hasherFor(module: string, options: unknown): Promise<PasswordHasher> {
  const key = `${module}\n${JSON.stringify(options)}`
  let hasher = hashers.get(key)
  if (!hasher) {
    const strategy = (await import(module)) as { createHasher(options: unknown): PasswordHasher }
    hasher = strategy.createHasher(options)
    hashers.set(key, hasher)
  }
  return hasher
}

/** piscina's task handler (the module's default export). */
export default async function runTask({ module, options, method, args }: WorkerTask): Promise<WorkerResult> {
  try {
    const hasher = await hasherFor(module, options)
    const value =
      method === 'hash'
        ? await hasher.hash(args[0])
        : await hasher.verify(args[0] as string, args[1] as Password)
    return { ok: true, value }
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown }
    return { ok: false, code, message: String(message ?? error) }
  }
}
