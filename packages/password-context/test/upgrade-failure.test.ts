import { OverloadError, TimeoutError } from '@authlab/core'
import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { expect, test } from 'vitest'
import { createPasswordContext } from '../src/index.js'
import { spy } from './spy.js'

test.each([new OverloadError('hasher pool full'), new TimeoutError('worker did not answer')])(
  'a right legacy password whose upgrade hash fails ($code) is valid, says why, and upgrades later',
  async (failure) => {
    const current = spy(argon2({ m: 1024, t: 1, p: 1 }))
    const context = createPasswordContext({ current: current.hasher, legacy: [bcrypt({ cost: 4 })] })
    const stored = await bcrypt({ cost: 4 }).hash('hunter2hunter2')

    current.failNextHash(failure)
    expect(await context.verify(stored, 'hunter2hunter2')).toEqual({ valid: true, upgradeError: failure })
    // The old hash is untouched and still reported; the next login makes the replacement.
    expect(context.needsUpgrade(stored)).toBe(true)
    const later = await context.verify(stored, 'hunter2hunter2')
    expect(later).toEqual({ valid: true, rehashed: expect.stringMatching(/^nfc:\$argon2id\$/) })
  },
)
