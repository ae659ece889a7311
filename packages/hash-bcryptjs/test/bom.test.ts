import { createHasher as nativeBcrypt } from '@authlab/hash-bcrypt'
import { createHasher as nodeRsBcrypt } from '@authlab/hash-node-rs-bcrypt'
import { expect, test } from 'vitest'
import { createHasher } from '../src/index.js'

// A leading U+FEFF (UTF-8 EF BB BF) is part of the password, not a byte-order mark to drop.
const WITH_BOM = '\uFEFFhunter2'
const WITHOUT_BOM = 'hunter2'

test('a leading U+FEFF is kept: the password with it and without it are different passwords', async () => {
  const bcryptjs = createHasher({ cost: 4 })
  const encoded = await bcryptjs.hash(WITH_BOM)
  expect(await bcryptjs.verify(encoded, WITHOUT_BOM)).toBe(false)
  expect(await bcryptjs.verify(encoded, WITH_BOM)).toBe(true)
  expect(await bcryptjs.verify(encoded, new TextEncoder().encode(WITH_BOM))).toBe(true)
})

test('the other bcrypt implementations agree in both directions', async () => {
  const bcryptjs = createHasher({ cost: 4 })
  for (const other of [nativeBcrypt({ cost: 4 }), nodeRsBcrypt({ cost: 4 })]) {
    const theirs = await other.hash(WITH_BOM)
    expect([await bcryptjs.verify(theirs, WITH_BOM), await bcryptjs.verify(theirs, WITHOUT_BOM)]).toEqual([
      true,
      false,
    ])
    const ours = await bcryptjs.hash(WITH_BOM)
    expect([await other.verify(ours, WITH_BOM), await other.verify(ours, WITHOUT_BOM)]).toEqual([true, false])
  }
})
