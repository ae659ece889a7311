import { describe, expect, test } from 'vitest'
import { idBatch, idSink, sampleIds, yardstick } from '../src/suites/ids/measure.js'

function countingGenerator() {
  let calls = 0
  return {
    generate: () => {
      calls++
      return 'x'.repeat(32)
    },
    calls: () => calls,
  }
}

describe('the ids harness', () => {
  test('a batch makes exactly n IDs; the test-only slow knob makes 10 % more, uncounted', () => {
    const plain = countingGenerator()
    expect(idBatch(plain.generate, false)(1000)).toBe(32_000)
    expect(plain.calls()).toBe(1000)
    const slowed = countingGenerator()
    idBatch(slowed.generate, true)(1000)
    expect(slowed.calls()).toBe(1100)
  })

  test('sampling sizes the batch from the warm-up and reports per-ID times; the IDs reach the sink', () => {
    const before = idSink()
    const round = sampleIds(idBatch(countingGenerator().generate, false), idBatch(yardstick, false), {
      warmupMs: 5,
      sampleMs: 1,
      samples: 3,
    })
    expect(round.batch).toBeGreaterThanOrEqual(256)
    expect(round.cpuNsPerId).toBeGreaterThan(0)
    expect(round.wallNsPerId).toBeGreaterThan(0)
    expect(round.vsYardstick).toBeGreaterThan(0)
    expect(idSink()).toBeGreaterThan(before)
  })

  test('the relative speed is paired: a generator that is the yardstick reads about 1, one doing twice its work about 0.5', () => {
    const sampling = { warmupMs: 20, sampleMs: 1, samples: 15 }
    const same = sampleIds(idBatch(yardstick, false), idBatch(yardstick, false), sampling)
    const twice = sampleIds(
      idBatch(() => crypto.randomUUID() + crypto.randomUUID(), false),
      idBatch(yardstick, false),
      sampling,
    )
    // Wide bounds: this checks which way the ratio points and its rough size, not the machine.
    expect(same.vsYardstick).toBeGreaterThan(0.7)
    expect(same.vsYardstick).toBeLessThan(1.4)
    expect(twice.vsYardstick).toBeGreaterThan(0.3)
    expect(twice.vsYardstick).toBeLessThan(0.75)
  })
})
