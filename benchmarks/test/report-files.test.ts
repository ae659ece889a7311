import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EXIT } from '../src/main.js'
import { cli, syntheticResults, tempDir, writeJson } from './fixtures.js'

// A results folder is untrusted input: its entries may be symbolic links pointing anywhere.

/** A folder holding one results file, and a file outside it that must never change. */
function folderAndVictim() {
  const root = tempDir()
  const dir = join(root, 'results')
  const outside = join(root, 'outside')
  mkdirSync(dir)
  mkdirSync(outside)
  writeJson(join(dir, 'run.json'), syntheticResults())
  const victim = join(outside, 'victim.txt')
  writeFileSync(victim, 'precious\n')
  return { dir, victim }
}

describe('report writes no file through a symbolic link', () => {
  test('<run>.md a symbolic link to a file outside the folder: refused, naming it; the target is untouched', async () => {
    const { dir, victim } = folderAndVictim()
    symlinkSync(victim, join(dir, 'run.md'))
    const run = await cli(['report', join(dir, 'run.json')])
    expect(run.code).toBe(EXIT.usage)
    expect(run.stderr).toContain(`${join(dir, 'run.md')}: a symbolic link`)
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
  })

  test('index.html a symbolic link to a file outside the folder: refused, naming it; the target is untouched', async () => {
    const { dir, victim } = folderAndVictim()
    symlinkSync(victim, join(dir, 'index.html'))
    const run = await cli(['report', dir])
    expect(run.code).toBe(EXIT.usage)
    expect(run.stderr).toContain(`${join(dir, 'index.html')}: a symbolic link`)
    expect(readFileSync(victim, 'utf8')).toBe('precious\n')
  })

  test('a regular report file is replaced as before', async () => {
    const { dir } = folderAndVictim()
    writeFileSync(join(dir, 'run.md'), 'stale')
    expect((await cli(['report', join(dir, 'run.json')])).code).toBe(EXIT.ok)
    expect(readFileSync(join(dir, 'run.md'), 'utf8')).toContain('Synthetic CPU')
  })
})
