export type Runtime =
  | { id: string; label: string; kind: 'process'; command: string; args: string[] }
  | { id: string; label: string; kind: 'browser'; browser: 'chrome' | 'firefox'; executable: string }
  | { id: string; label: string; kind: 'workerd'; command: string; version: string }
export type Resolved = { ok: true; runtime: Runtime } | { ok: false; id: string; reason: string }

export declare const RUNTIME_IDS: readonly string[]
/** The Workers compatibility date workerd runs entries with. */
export declare const COMPATIBILITY_DATE: string
export declare function installRuntimes(options?: { quiet?: boolean }): void
export declare function resolveRuntime(id: string): Resolved
/** The entry's JSON result: its shape is the entry's own, which callers know and this module does not. */
export declare function runInRuntime(
  runtime: Runtime,
  entry: string,
  input: unknown,
  options?: { timeoutMs?: number },
  // biome-ignore lint/suspicious/noExplicitAny: the result is whatever JSON the caller's entry returns
): Promise<any>

/**
 * Starts an installed browser headless through puppeteer-core (no browser download), with the flags
 * the runtimes use, for other code that drives a page (e.g. a test of an HTML report).
 */
export declare function launchBrowser(
  runtime: { browser: 'chrome' | 'firefox'; executable: string },
  options: { timeoutMs: number },
): Promise<import('puppeteer-core').Browser>
