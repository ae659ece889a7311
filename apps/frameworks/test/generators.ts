import { resolve } from 'node:path'
import type { IdGenerator } from '@authlab/core'
import { discoverPackages, factoryOf, loadPackages } from '@authlab/workspace'

export const ROOT = resolve(import.meta.dirname, '../../..')

export interface GeneratorUnderTest {
  /** The package name, which every failure message starts with. */
  readonly name: string
  readonly generate: IdGenerator
}

/**
 * Every workspace package declaring `"authlab": { "kind": "id" }`, with its default generator, found by
 * the registry every consumer uses, so a new ID package is a row here with no edit. A package that does
 * not load throws: a missing row must fail the run, not vanish from the matrix.
 */
export async function discoverGenerators(): Promise<GeneratorUnderTest[]> {
  const loaded = await loadPackages(discoverPackages(ROOT).filter((pkg) => pkg.kind === 'id'))
  return loaded.map((outcome) => {
    if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
    return { name: outcome.pkg.name, generate: factoryOf(outcome.pkg)() as IdGenerator }
  })
}

/**
 * The one generator an app is given, delegating to the generator under test now: one server per
 * framework serves every generator in turn. It remembers every ID each generator issued, so a test can
 * tell the framework's ID came from the generator and not from the framework's own default.
 */
export class GeneratorSwitch {
  #current: GeneratorUnderTest
  readonly #issued = new Map<string, Set<string>>()

  /** Starts on `first`: an app checks its generator once before it serves. */
  constructor(first: GeneratorUnderTest) {
    this.#current = first
    this.use(first)
  }

  use(generator: GeneratorUnderTest): void {
    this.#current = generator
    if (!this.#issued.has(generator.name)) this.#issued.set(generator.name, new Set())
  }

  readonly generateId = (): string => {
    const current = this.#current
    const id = current.generate()
    this.#issued.get(current.name)?.add(id)
    return id
  }

  issued(name: string, id: unknown): boolean {
    return typeof id === 'string' && (this.#issued.get(name)?.has(id) ?? false)
  }
}
