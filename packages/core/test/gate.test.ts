import { expect, test } from 'vitest'
import { createGate } from '../src/index.js'

test('a gate runs `slots` jobs, queues `queueLimit` in arrival order and refuses the rest at once', async () => {
  const gate = createGate(1, 1)
  const first = await gate.tryEnter()
  const second = gate.tryEnter()
  expect(gate.tryEnter()).toBeNull()
  expect({ running: gate.running, queued: gate.queued }).toEqual({ running: 1, queued: 1 })
  first?.()
  // A second release of the same slot is ignored: it must not free the slot the next job now holds.
  first?.()
  const release = await second
  expect({ running: gate.running, queued: gate.queued }).toEqual({ running: 1, queued: 0 })
  expect(gate.tryEnter()).not.toBeNull()
  expect(gate.tryEnter()).toBeNull()
  release?.()
})
