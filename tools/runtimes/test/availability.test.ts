import { existsSync } from 'node:fs'
import { expect, test } from 'vitest'
import { browserSkipNotice, requireRuntime, skipReason } from '../src/availability.mjs'

test('only a missing browser outside CI is skipped; with CI set nothing is', () => {
  const chromiumThere = existsSync('/usr/bin/chromium')
  expect(skipReason('chromium', {}) === undefined).toBe(chromiumThere)
  expect(skipReason('chromium', { CI: 'true' })).toBeUndefined()
  expect(skipReason('firefox', { CI: '1' })).toBeUndefined()
  expect(browserSkipNotice({ CI: 'true' })).toBeUndefined()
  // Runtimes from the npm registry are never skipped: npm ci installs them.
  expect(skipReason('node', {})).toBeUndefined()
  expect(skipReason('bun', {})).toBeUndefined()
})

test('the notice names the missing browsers and both ways to get them, on one line', () => {
  const notice = browserSkipNotice({})
  const missing = ['chromium', 'firefox'].filter((id) => skipReason(id, {}) !== undefined)
  if (missing.length === 0) return expect(notice).toBeUndefined()
  expect(notice).toContain(missing.join(' and '))
  expect(notice).toContain('apt-get install -y chromium firefox-esr')
  expect(notice).toContain('CI=true bash .ci/run')
  expect(notice).not.toContain('\n')
})

test('a runtime that cannot start is an error with its install command', () => {
  expect(() => requireRuntime('netscape')).toThrow(/netscape cannot start: unknown runtime/)
  if (!existsSync('/usr/bin/firefox-esr')) {
    expect(() => requireRuntime('firefox')).toThrow(/apt-get install -y firefox-esr.*\.ci\/run/)
  }
})
