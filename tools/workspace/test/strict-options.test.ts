import { resolve } from 'node:path'
import { getAlgorithm, type PasswordHasher } from '@authlab/core'
import { describe, expect, test } from 'vitest'
import { discoverPackages, factoryOf, loadPackages, nodeEngineProblem } from '../src/index.mjs'

// Every strategy package in the workspace, discovered: a new package is checked with no edit here.
const ROOT = resolve(import.meta.dirname, '../../..')
const loaded = await loadPackages(discoverPackages(ROOT))

const thrownBy = (action: () => unknown) => {
  try {
    action()
  } catch (error) {
    return error as {
      code?: string
      message: string
      detail?: { suggestion?: string; validOptions: string[] }
    }
  }
  throw new Error('expected an InvalidOptionError, but the call succeeded')
}
const INVALID = 'ERR_AUTHLAB_INVALID_OPTION'

for (const outcome of loaded) {
  if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
  const { pkg } = outcome
  // Built on a newer Node's API: on this Node creating it is the typed error its own test checks.
  const tooOld = nodeEngineProblem(pkg)
  if (tooOld) {
    console.log(`${pkg.name} options not checked here: ${tooOld}`)
    continue
  }
  const create = factoryOf(pkg)

  describe(`${pkg.name} refuses options it would otherwise ignore`, () => {
    test('null, an array or a string instead of options', () => {
      for (const options of [null, [], 'bytes']) expect(thrownBy(() => create(options)).code).toBe(INVALID)
    })

    test('every valid key, mistyped, is refused with that key suggested', () => {
      const probe = thrownBy(() => create({ zzzzzz: 1 }))
      expect(probe.code).toBe(INVALID)
      for (const key of probe.detail?.validOptions ?? []) {
        const error = thrownBy(() => create({ [`${key}x`]: 1 }))
        expect(error.code).toBe(INVALID)
        expect(error.detail?.suggestion, `${key}x`).toBe(key)
        expect(error.message).toContain(`Did you mean "${key}"?`)
      }
    })

    if (pkg.kind !== 'hash') return
    const { info } = create() as PasswordHasher
    const profile = getAlgorithm(info.algorithm)

    test(`other libraries' names for ${info.algorithm}'s options point to ours`, () => {
      for (const [alias, key] of Object.entries(profile.aliases)) {
        const error = thrownBy(() => create({ [alias]: 12 }))
        expect(error.code).toBe(INVALID)
        expect(error.detail?.suggestion, alias).toBe(key)
      }
    })

    test('cost parameters of the wrong type or range', () => {
      for (const key of Object.keys(info.params)) {
        for (const value of [String(info.params[key]), Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
          expect(thrownBy(() => create({ [key]: value })).code, `${key}: ${String(value)}`).toBe(INVALID)
        }
      }
    })

    test('a policy flag given as a string', () => {
      expect(thrownBy(() => create({ policy: { allowNul: 'no' } })).code).toBe(INVALID)
    })
  })
}

test('the three silent-default calls users reported now throw with the right suggestion', () => {
  const factory = (name: string) => {
    const found = loaded.find((outcome) => outcome.ok && outcome.pkg.name === name)
    if (!found?.ok) throw new Error(`${name} not discovered`)
    return factoryOf(found.pkg)
  }
  expect(thrownBy(() => factory('@authlab/hash-scrypt')({ cost: 12 })).detail?.suggestion).toBe('ln')
  expect(thrownBy(() => factory('@authlab/hash-argon2')({ memoryCost: 65536 })).detail?.suggestion).toBe('m')
  expect(thrownBy(() => factory('@authlab/hash-bcrypt')({ rounds: 12 })).detail?.suggestion).toBe('cost')
})
