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
    child.once('exit', (code) => reject(new Error(`${entry} ${args.join(' ')} exited with ${code}`)))
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)))
  })
  return { child, firstLine }
}

/** Runs a child that answers one JSON line and exits; resolves that answer once the child is gone. */
export async function askChild<T>(entry: string, args: readonly string[]): Promise<T> {
  const { child, firstLine } = spawnJsonChild(entry, args)
  const answer = (await firstLine) as T
  if (child.exitCode === null) await new Promise((done) => child.once('exit', done))
  return answer
}
