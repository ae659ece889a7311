import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EXIT } from '../src/main.js'
import { cli, syntheticResults, tempDir, writeJson } from './fixtures.js'

// A results folder is untrusted input: its entries may be symbolic links, FIFOs or anything else.

const BIN = resolve(import.meta.dirname, '..', 'bin', 'authlab-bench.js')

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

describe('report <dir> reads regular files only and lists the others as skipped', () => {
  test('a dangling symbolic link named *.json is skipped, not a crash', async () => {
    const { dir } = folderAndVictim()
    symlinkSync(join(dir, 'nowhere.json'), join(dir, 'dangling.json'))
    const run = await cli(['report', dir])
    expect(run.code).toBe(EXIT.ok)
    const index = readFileSync(join(dir, 'index.html'), 'utf8')
    expect(index).toContain('dangling.json')
    expect(index).toContain('skipped: a symbolic link, not a regular file')
    expect(index).toContain('1 comparable, 0 in an older format, 1 skipped')
  })

  test('a FIFO named *.json is skipped instead of blocking the report forever', () => {
    const { dir } = folderAndVictim()
    const fifo = spawnSync('mkfifo', [join(dir, 'pipe.json')])
    expect(fifo.status).toBe(0)
    // In a child process, so a read that blocks is killed (after far longer than a report takes)
    // instead of blocking the test runner.
    const run = spawnSync(process.execPath, [BIN, 'report', dir], { encoding: 'utf8', timeout: 30_000 })
    expect(run.signal).toBeNull()
    expect(run.status).toBe(EXIT.ok)
    expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('skipped: a FIFO, not a regular file')
  })
})
