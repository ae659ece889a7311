export type Runtime =
  | { id: string; label: string; kind: 'process'; command: string; args: string[] }
  | { id: string; label: string; kind: 'browser'; browser: 'chrome' | 'firefox'; executable: string }
export type Resolved = { ok: true; runtime: Runtime } | { ok: false; id: string; reason: string }

export declare const RUNTIME_IDS: readonly string[]
export declare function installRuntimes(options?: { quiet?: boolean }): void
export declare function resolveRuntime(id: string): Resolved
export declare function runInRuntime(
  runtime: Runtime,
  entry: string,
  input: unknown,
  options?: { timeoutMs?: number },
): Promise<any>
