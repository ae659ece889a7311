import { browserSkipNotice } from './availability.mjs'

/**
 * Vitest global setup: prints once per run, before any test, why the browser tests are skipped and how
 * to get the browsers (each test file decides for itself with the same `skipReason`, silently).
 */
export default function printBrowserNotice() {
  const notice = browserSkipNotice()
  if (notice) console.log(notice)
}
