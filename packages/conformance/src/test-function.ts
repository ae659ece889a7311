/**
 * The one thing a suite needs from a test runner: Vitest's and Jest's `test(name, fn, timeout)`.
 * For node:test pass `(name, fn, timeout) => test(name, { timeout }, fn)`.
 */
export type TestFunction = (name: string, fn: () => void | Promise<void>, timeout?: number) => unknown
