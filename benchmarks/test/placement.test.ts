import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { describe, expect, test } from 'vitest'
import { configurationKey, knownCallMs, recordCallMs } from '../src/harness/call-cost.js'
import { allowedCpus, hasTaskset, onMeasureCore, pinMainThread } from '../src/harness/placement.js'

/** The CPUs a thread of this process may run on, as the kernel reports them. */
function allowed(tid: number | 'self' = 'self'): string {
  const file = tid === 'self' ? '/proc/self/status' : `/proc/self/task/${tid}/status`
  return /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(file, 'utf8'))?.[1] ?? ''
}

const cpus = allowedCpus()
const last = cpus.at(-1)
// Where taskset or a second allowed CPU is missing, each test checks that nothing was pinned instead.
const pinning = cpus.length >= 2 && hasTaskset()

describe('where measured work runs', () => {
  test('the CPUs this process may use are read from the kernel', () => {
    expect(cpus.length).toBeGreaterThanOrEqual(1)
    expect(cpus.length).toBeLessThanOrEqual(availableParallelism())
  })

  test('a one-core suite runs on the last allowed CPU, every thread, and is let go afterwards', async () => {
    const before = allowed()
    const inside = await onMeasureCore(async (cpu) => ({ cpu, list: allowed() }))
    expect(inside).toEqual(pinning ? { cpu: last, list: String(last) } : { cpu: undefined, list: before })
    expect(allowed()).toBe(before)
  })

  test('the process is let go also when the suite throws', async () => {
    const before = allowed()
    await expect(onMeasureCore(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(allowed()).toBe(before)
  })

  test('pinning the main thread leaves the threads that exist free', () => {
    const before = allowed()
    const others = readdirSync('/proc/self/task').filter((tid) => Number(tid) !== process.pid)
    expect(others.length).toBeGreaterThan(0)
    const pinned = pinMainThread()
    try {
      if (!pinning) return expect(pinned).toBeUndefined()
      expect(pinned?.last).toBe(last)
      expect(allowed(process.pid)).toBe(String(last))
      for (const tid of others) expect(allowed(Number(tid))).toBe(before)
    } finally {
      pinned?.release()
    }
    expect(allowed(process.pid)).toBe(before)
  })
})

describe('warm-call times shared between suites', () => {
  test('the first time recorded for a configuration is kept', () => {
    const key = configurationKey('test:candidate', `bcrypt cost=${Math.random()}`)
    expect(knownCallMs(key)).toBeUndefined()
    recordCallMs(key, 12)
    recordCallMs(key, 99)
    recordCallMs(configurationKey('test:candidate', 'NaN'), Number.NaN)
    expect(knownCallMs(key)).toBe(12)
    expect(knownCallMs(configurationKey('test:candidate', 'NaN'))).toBeUndefined()
  })
})
