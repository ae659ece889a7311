import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/**
 * Starts `node <entry> <args>` (pinned to `cpu` with taskset when given) and resolves its first stdout
 * line as JSON: the protocol of every measuring or serving child of the bench. A child that exits before
 * answering rejects with its exit code; its stderr goes to ours.
 */
export function spawnJsonChild(
  entry: string,
  args: readonly string[],
  cpu?: number,
  env?: NodeJS.ProcessEnv,
) {
  const nodeArgs = [entry, ...args]
  const [command, commandArgs] =
    cpu === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(cpu), process.execPath, ...nodeArgs]]
  const child = spawn(command, commandArgs, { stdio: ['pipe', 'pipe', 'inherit'], env: env ?? process.env })
  const firstLine = new Promise<unknown>((resolve, reject) => {
    // 'close' comes after the child's stdout has ended, so an answer it wrote just before exiting wins.
    child.once('close', (code, signal) =>
      reject(new Error(`${entry} ${args.join(' ')} exited with ${code ?? signal} before answering`)),
    )
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
  })
  return { child, firstLine }
}

/**
 * Runs a child that answers one JSON line and exits; resolves that answer once the child is gone. With
 * `timeoutMs`, a child that has not answered and exited by then is killed and the call rejects: the
 * child may run someone else's code, which may never return.
 */
export async function askChild<T>(entry: string, args: readonly string[], timeoutMs?: number): Promise<T> {
  const { child, firstLine } = spawnJsonChild(entry, args)
  const exited = new Promise((done) => child.once('exit', done))
  const work = (async () => {
    const answer = (await firstLine) as T
    if (child.exitCode === null && child.signalCode === null) await exited
    return answer
  })()
  if (timeoutMs === undefined) return work
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no answer within ${timeoutMs} ms (killed)`))
    }, timeoutMs)
  })
  try {
    return await Promise.race([work, limit])
  } finally {
    clearTimeout(timer)
  }
}
