import { createRequire } from 'node:module'
import { getAlgorithm } from '@authlab/core'
import type { EntryCandidate } from '@authlab/runtimes/entry'
import {
  factoryOf,
  hashAlgorithms,
  hashOptions,
  type LoadedPackage,
  nodeEngineProblem,
} from '@authlab/workspace'
import { nativeHashers } from '../discover/baselines.js'
import { fromBench, fromServers, referenceLabel } from '../discover/references.js'
import { BENCH_PASSWORD } from '../discover/settings.js'

/** The suites that run in every runtime: they need nothing but the packages and the rounds loop. */
export const PORTABLE_SUITES = ['ids', 'hash', 'stretch'] as const
export type PortableSuite = (typeof PORTABLE_SUITES)[number]

export interface Candidate extends EntryCandidate {
  readonly label: string
  /** Left out, with the reason noted, when the runtime cannot load it (a framework's Node-only code). */
  readonly optional?: boolean
}

/** Candidates measured together in interleaved rounds, with the one their ratios divide by. */
export interface Group {
  readonly suite: PortableSuite
  readonly group: string
  readonly unit: string
  readonly baseline: string
  readonly candidates: readonly Candidate[]
  /** References of another runtime this group leaves out, each with why. */
  readonly notes?: readonly string[]
}

/**
 * What a runtime has built in and no package wraps, measured as a reference in that runtime's column
 * only, with why it is absent from the other runtimes (for their notes).
 */
interface BuiltIn {
  readonly runtimes: readonly string[]
  readonly absent: string
  readonly id: string
}

interface BuiltInHasher extends BuiltIn {
  readonly label: string
  readonly algorithm: string
  /** The expression's options at a bench setting, or undefined where the API cannot express it. */
  readonly options: (params: Readonly<Record<string, number>>) => object | undefined
}

const bunPassword = (algorithm: string, options: BuiltInHasher['options']): BuiltInHasher => ({
  runtimes: ['bun'],
  absent: "Bun's own API",
  id: `ref:Bun.password ${algorithm}`,
  label: `Bun.password ${algorithm} [ref]`,
  algorithm,
  options,
})

/**
 * Bun's own password API (Bun.password.hash, in Bun's native code): argon2id with memoryCost (KiB) and
 * timeCost and one lane, bcrypt with cost. Its argon2id has no parallelism option, so it runs p=1
 * settings only.
 */
const BUILT_IN_HASHERS: readonly BuiltInHasher[] = [
  bunPassword('argon2id', ({ m, t, p }) =>
    p === 1 ? { algorithm: 'argon2id', memoryCost: m, timeCost: t } : undefined,
  ),
  bunPassword('bcrypt', ({ cost }) => ({ algorithm: 'bcrypt', cost })),
]

/**
 * `crypto.randomUUIDv7()` from node:crypto (Node >= 24, and Bun's node:crypto): 74 random bits and a
 * millisecond timestamp (RFC 9562 §5.7), a reference many apps use as a token.
 */
const RANDOM_UUID_V7: BuiltIn & { readonly candidate: Candidate } = {
  runtimes: ['node', 'node24', 'bun'],
  absent: 'node:crypto randomUUIDv7 is in Node >= 24 and Bun',
  id: 'ref:randomUUIDv7',
  candidate: {
    id: 'ref:randomUUIDv7',
    label: referenceLabel('ref:randomUUIDv7'),
    module: 'node:crypto',
    call: 'm.randomUUIDv7()',
  },
}

const absentNote = (builtIn: BuiltIn, runtime: string) => `${builtIn.id} not in ${runtime}: ${builtIn.absent}`

const EMAIL = 'bench@example.com'
// Every derivation gets a salt of its own (a random tag per candidate, then a counter; the A/A
// control is the same code and must not replay its twin's inputs): Firefox's Web Crypto returns a
// repeated PBKDF2 derivation with identical inputs about 14× faster than a fresh one, which would be
// timed as speed.
const PASSWORD = JSON.stringify(BENCH_PASSWORD)
/** onepw fixes its parameters (KeyServerProtocol "stretch-KDF"): 20,000 PBKDF2 iterations, scrypt N=2^16. */
const ONEPW_PBKDF2 = { iterations: 20_000 }
const ONEPW_SCRYPT = { ln: 16, r: 8, p: 1 }

/**
 * The session frameworks' default generators, loaded from the files the http servers install (not
 * retyped). They use node:crypto, so they load in Node, Bun and Deno, and are left out elsewhere.
 */
function frameworkDefaults(): Candidate[] {
  const expressDir = fromServers.resolve('express-session')
  return [
    {
      id: 'ref:fastify-session',
      label: referenceLabel('ref:fastify-session'),
      module: fromServers.resolve('@fastify/session/lib/idGenerator.js'),
      setup: 'return (m.default ?? m)(true)',
      call: 's()',
      optional: true,
    },
    {
      id: 'ref:express-session',
      label: referenceLabel('ref:express-session'),
      module: createRequire(expressDir).resolve('uid-safe'),
      setup: 'return m.default ?? m',
      call: 's.sync(24)',
      optional: true,
    },
    {
      // better-auth's session token, from the @better-auth/core the bench installs; Web Crypto only.
      id: 'ref:better-auth',
      label: referenceLabel('ref:better-auth'),
      module: fromBench.resolve('@better-auth/core/utils/id'),
      setup: 'return m.generateId',
      call: 's(32)',
      optional: true,
    },
  ]
}

/** The same candidate again under another id: identical code, so its ratio shows the harness's noise. */
const control = (c: Candidate): Candidate => ({
  ...c,
  id: `${c.id} (A/A)`,
  label: `${c.label} [A/A control]`,
})

/** Hash packages claiming `runtime` that implement `algorithm`, each with its options at `params`. */
function implementations(
  loaded: readonly LoadedPackage[],
  runtime: string,
  algorithm: string,
  params: object,
) {
  return loaded.flatMap((pkg) => {
    if (pkg.kind !== 'hash' || !pkg.runtimes.includes(runtime as never)) return []
    const options = hashOptions(pkg, algorithm, params as Record<string, number>)
    if (!options) return []
    // Its label and capabilities are read from an instance made here, on the bench's Node.
    if (nodeEngineProblem(pkg)) return []
    const hasher = factoryOf(pkg)(options) as { info: { displayName: string }; derive?: unknown }
    return [
      { pkg, options, displayName: hasher.info.displayName, derives: typeof hasher.derive === 'function' },
    ]
  })
}

/** Puts the native implementation first (the baseline) when the runtime has it, else the first one. */
function withBaseline(
  suite: PortableSuite,
  group: string,
  unit: string,
  native: string | undefined,
  list: Candidate[],
  notes?: readonly string[],
): Group[] {
  if (list.length === 0) return []
  const sorted = [...list].sort((a, b) => Number(b.id === native) - Number(a.id === native))
  const base = sorted[0] as Candidate
  const candidates = [...sorted, control(base)]
  return [{ suite, group, unit, baseline: base.id, candidates, ...(notes ? { notes } : {}) }]
}

/**
 * The groups `suites` measure in `runtime`, from the packages whose manifests claim it: ids (every
 * generator, crypto.randomUUID() as the baseline, the frameworks' defaults where they load), hash (one
 * group per algorithm at its quick bench setting) and stretch (Mozilla's rows [1], [3] and [4]).
 */
export function groupsFor(
  runtime: string,
  suites: readonly PortableSuite[],
  loaded: readonly LoadedPackage[],
): Group[] {
  const groups: Group[] = []
  const claiming = loaded.filter((pkg) => pkg.runtimes.includes(runtime as never))
  if (suites.includes('ids')) {
    const uuid: Candidate = {
      id: 'ref:randomUUID',
      label: referenceLabel('ref:randomUUID'),
      call: 'crypto.randomUUID()',
    }
    const generators = claiming
      .filter((pkg) => pkg.kind === 'id')
      .map((pkg): Candidate => {
        const info = (factoryOf(pkg)() as { info: { displayName: string } }).info
        return {
          id: pkg.name,
          label: info.displayName,
          module: pkg.name,
          setup: 'return m.createIdGenerator()',
          call: 's()',
        }
      })
    const v7 = RANDOM_UUID_V7.runtimes.includes(runtime)
    groups.push({
      suite: 'ids',
      group: 'session IDs',
      unit: 'IDs/s',
      baseline: uuid.id,
      candidates: [
        uuid,
        control(uuid),
        ...(v7 ? [RANDOM_UUID_V7.candidate] : []),
        ...generators,
        ...frameworkDefaults(),
      ],
      notes: v7 ? [] : [absentNote(RANDOM_UUID_V7, runtime)],
    })
  }
  if (suites.includes('hash')) {
    const algorithms = [
      ...new Set(claiming.filter((p) => p.kind === 'hash').flatMap((p) => hashAlgorithms(p))),
    ]
    for (const algorithm of algorithms.sort()) {
      const setting = getAlgorithm(algorithm).bench[0]
      if (!setting) continue
      const list = implementations(claiming, runtime, algorithm, setting.params).map(
        ({ pkg, options, displayName }): Candidate => ({
          id: pkg.name,
          label: displayName,
          module: pkg.name,
          setup: `return m.createHasher(${JSON.stringify(options)})`,
          call: `s.hash(${PASSWORD})`,
        }),
      )
      const notes: string[] = []
      for (const builtIn of BUILT_IN_HASHERS.filter((b) => b.algorithm === algorithm)) {
        const options = builtIn.options(setting.params)
        if (!builtIn.runtimes.includes(runtime)) notes.push(absentNote(builtIn, runtime))
        else if (!options) notes.push(`${builtIn.id} left out: it cannot express ${setting.label}`)
        else
          list.push({
            id: builtIn.id,
            label: builtIn.label,
            call: `Bun.password.hash(${PASSWORD}, ${JSON.stringify(options)})`,
          })
      }
      groups.push(...withBaseline('hash', setting.label, 'hashes/s', nativeHashers()[algorithm], list, notes))
    }
  }
  if (suites.includes('stretch')) groups.push(...stretchGroups(claiming, runtime))
  return groups
}

/** Mozilla's rows: [1] the 20,000 PBKDF2 iterations alone; [3] the chain with native scrypt; [4] with WASM or pure JS. */
function stretchGroups(claiming: readonly LoadedPackage[], runtime: string): Group[] {
  const pbkdf2 = implementations(claiming, runtime, 'pbkdf2-sha256', ONEPW_PBKDF2)
    .filter((i) => i.derives)
    .map(
      ({ pkg, options, displayName }): Candidate => ({
        id: pkg.name,
        label: `[1] ${displayName}`,
        module: pkg.name,
        setup: `return { kdf: m.createHasher(${JSON.stringify(options)}), salt: crypto.randomUUID(), n: 0 }`,
        call: `s.kdf.derive(${PASSWORD}, s.salt + s.n++, 32)`,
      }),
    )
  const groups = withBaseline(
    'stretch',
    '[1] PBKDF2-SHA256 20,000 iterations',
    'ops/s',
    nativeHashers()['pbkdf2-sha256'],
    pbkdf2,
  )
  for (const chain of claiming.filter(
    (pkg) => pkg.kind === 'stretch' && typeof pkg.exports.createStretcher === 'function',
  )) {
    const list = implementations(claiming, runtime, 'scrypt', ONEPW_SCRYPT)
      .filter((i) => i.derives)
      .map(({ pkg, options, displayName }): Candidate => {
        const row = pkg.name === nativeHashers().scrypt ? '[3]' : '[4]'
        return {
          id: `${chain.name}+${pkg.name}`,
          label: `${row} scrypt: ${displayName}`,
          module: chain.name,
          // The scrypt backend is imported where the entry runs; a bundler follows the literal import.
          setup: `const { createHasher } = await import(${JSON.stringify(pkg.name)}); return { chain: m.createStretcher({ scrypt: createHasher(${JSON.stringify(options)}) }), tag: crypto.randomUUID().slice(0, 8), n: 0 }`,
          call: `s.chain.stretch(s.tag + s.n++ + ${JSON.stringify(EMAIL)}, ${PASSWORD}, new Uint8Array(32).fill(0x5a))`,
        }
      })
    const native = `${chain.name}+${nativeHashers().scrypt}`
    groups.push(
      ...withBaseline('stretch', `${chain.name} chain (scrypt N=2^16 r=8 p=1)`, 'ops/s', native, list),
    )
  }
  return groups
}
