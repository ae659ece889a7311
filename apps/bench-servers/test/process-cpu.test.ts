import { describe, expect, test } from 'vitest'
import { processCpuMs } from '../src/http/process-cpu.js'

describe("another process's CPU time", () => {
  test('grows with the work this process does, every thread counted', () => {
    const before = processCpuMs(process.pid) as number
    // 50 ms of this process's own CPU time (a wall-clock loop gets less on a shared core).
    const cpu = () => process.cpuUsage().user / 1000
    const started = cpu()
    let x = 0
    while (cpu() - started < 50) x += Math.sqrt(x + 1)
    const after = processCpuMs(process.pid) as number
    expect(x).toBeGreaterThan(0)
    expect(after - before).toBeGreaterThanOrEqual(40)
  })

  test('a process that does not exist has none', () => {
    expect(processCpuMs(2 ** 30)).toBeUndefined()
  })
})
