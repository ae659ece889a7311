import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { checkIdGenerator } from '@authlab/core'
import { describe, expect, test } from 'vitest'
import { frameworkDefaults } from '../src/defaults.js'

const HERE = resolve(import.meta.dirname, '..')
const ROOT = resolve(HERE, '../..')
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
const defaults = frameworkDefaults()

/** The package as this workspace installed it for the app (its own node_modules first, then the root's). */
function installedDir(name: string): string {
  const dir = [join(HERE, 'node_modules', name), join(ROOT, 'node_modules', name)].find((d) => existsSync(d))
  if (!dir) throw new Error(`${name} is not installed`)
  return dir
}

describe.each(defaults.map((d) => [d.framework, d] as const))('%s', (_framework, entry) => {
  test(`${entry.package}@${entry.version} is the version installed, and its ${entry.source.file}:${entry.source.line} holds the default`, () => {
    const dir = installedDir(entry.package)
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version).toBe(entry.version)
    const line = readFileSync(join(dir, entry.source.file), 'utf8').split('\n')[entry.source.line - 1]
    expect(line).toContain(entry.source.code)
  })

  test('the callable default makes distinct IDs of its declared shape', () => {
    expect(() => checkIdGenerator(entry.generate, { samples: 1000 })).not.toThrow()
    if (entry.generate.info.entropyBits === 122) expect(entry.generate()).toMatch(UUID_V4)
  })
})

test('the README cites each default by the file and line checked above', () => {
  const readme = readFileSync(join(HERE, 'README.md'), 'utf8')
  const missing = defaults.filter((d) => !readme.includes(`${d.source.file}:${d.source.line}`))
  expect(missing.map((d) => d.framework)).toEqual([])
})

test("@hono/session's default is 160 bits written as 56 characters of base64 over hex digits", () => {
  const hono = defaults.find((d) => d.package === '@hono/session')
  const id = hono?.generate() ?? ''
  expect(id).toHaveLength(56)
  expect(Buffer.from(id, 'base64').toString('latin1')).toMatch(/^[0-9a-f]{40}$/)
})
