import { expect, test } from 'vitest'
import { chiSquareSurvival, chiSquareUniform } from '../src/index.js'

// Critical values from standard χ² tables (e.g. NIST/SEMATECH e-Handbook §1.3.6.7.4).
test.each([
  [3.841, 1, 0.05],
  [23.209, 10, 0.01],
  [82.529, 63, 0.05],
  [44.314, 25, 0.01],
])('χ²=%f with %i df has p ≈ %f', (x, df, p) => {
  expect(chiSquareSurvival(x, df)).toBeCloseTo(p, 3)
})

test('extreme statistics give tiny p-values, not NaN or negative numbers', () => {
  const p = chiSquareSurvival(400, 63)
  expect(p).toBeGreaterThan(0)
  expect(p).toBeLessThan(1e-40)
})

test('chiSquareUniform is 0 for perfectly even counts and grows with imbalance', () => {
  expect(chiSquareUniform([10, 10, 10, 10])).toBe(0)
  expect(chiSquareUniform([40, 0, 0, 0])).toBe(120)
})
