import { parentPort } from 'node:worker_threads'
import type { Password, PasswordHasher } from '@authlab/core'
import type { WorkerResult, WorkerTask } from './protocol.js'

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

/** A strategy may throw anything (`throw null` included); keep an authlab code, describe the rest. */
function describeFailure(error: unknown): { code: string | undefined; message: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return { code: typeof code === 'string' ? code : undefined, message: `${error.name}: ${error.message}` }
  }
  return { code: undefined, message: `threw a non-Error value: ${String(error)}` }
}

function memoryMb(): number {
  const { heapUsed, external } = process.memoryUsage()
  return (heapUsed + external) / 2 ** 20
}

async function run({ id, module, options, method, args }: WorkerTask): Promise<WorkerResult> {
  try {
    const hasher = await hasherFor(module, options)
    const value =
      method === 'hash'
        ? await hasher.hash(args[0])
        : await hasher.verify(args[0] as string, args[1] as Password)
    return { id, ok: true, value, memoryMb: memoryMb() }
  } catch (error) {
    return { id, ok: false, ...describeFailure(error), memoryMb: memoryMb() }
  }
}

parentPort?.on('message', (task: WorkerTask) => {
  void run(task).then((result) => parentPort?.postMessage(result))
})
