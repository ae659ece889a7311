import type { LoadedPackage } from '@authlab/workspace'
import { nativeHashers } from '../../discover/baselines.js'
import type { PortableSuite } from '../../harness/suite.js'
import {
  implementations,
  PASSWORD,
  type RuntimeCandidate,
  type RuntimeGroup,
  withBaseline,
} from '../../runtimes/group.js'
import { edgeRemoteGroup } from './edge-remote.js'
import { EMAIL, ONEPW_SCRYPT, PBKDF2_20K, STRETCH_SETTINGS, type StretchBudget } from './jobs.js'

const derive = { operation: 'derive', unit: 'ops/s' } as const

/** Row [1]: the 20,000 PBKDF2 iterations alone, each derivation with a salt of its own. */
function pbkdf2Group(runtime: string, claiming: readonly LoadedPackage[]): RuntimeGroup[] {
  const list = implementations(claiming, PBKDF2_20K.family, PBKDF2_20K.options, runtime)
    .filter((i) => i.derives)
    .map(
      ({ pkg, options, displayName }): RuntimeCandidate => ({
        id: pkg.name,
        label: `[1] ${displayName}`,
        module: pkg.name,
        setup: `return { kdf: m.createHasher(${JSON.stringify(options)}), salt: crypto.randomUUID(), n: 0 }`,
        call: `s.kdf.derive(${PASSWORD}, s.salt + s.n++, 32)`,
      }),
    )
  const group = {
    group: '[1] PBKDF2-SHA256 20,000 iterations',
    key: { setting: STRETCH_SETTINGS.pbkdf2, operation: derive.operation },
    unit: derive.unit,
  }
  return withBaseline(group, nativeHashers()['pbkdf2-sha256'], list)
}

/** Rows [3] and [4] of one chain: its scrypt step native, or compiled to WASM or JS. */
function chainGroup(
  runtime: string,
  chain: LoadedPackage,
  claiming: readonly LoadedPackage[],
): RuntimeGroup[] {
  const list = implementations(claiming, ONEPW_SCRYPT.family, ONEPW_SCRYPT.options, runtime)
    .filter((i) => i.derives)
    .map(({ pkg, options, displayName }): RuntimeCandidate => {
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
  const group = {
    group: `${chain.name} chain (scrypt N=2^16 r=8 p=1)`,
    key: { setting: STRETCH_SETTINGS.chain, operation: derive.operation },
    unit: derive.unit,
  }
  return withBaseline(group, `${chain.name}+${nativeHashers().scrypt}`, list)
}

/** Mozilla's rows: [1] the 20,000 PBKDF2 iterations alone; [3] the chain with native scrypt; [4] with WASM or pure JS. */
function groups(runtime: string, claiming: readonly LoadedPackage[]): RuntimeGroup[] {
  const chains = claiming.filter(
    (pkg) => pkg.kind === 'stretch' && typeof pkg.exports.createStretcher === 'function',
  )
  return [
    ...pbkdf2Group(runtime, claiming),
    ...chains.flatMap((chain) => chainGroup(runtime, chain, claiming)),
    ...edgeRemoteGroup(runtime, claiming),
  ]
}

export const portable: PortableSuite<StretchBudget> = {
  kinds: ['stretch', 'hash'],
  groups,
  minBatchMs: (budget) => budget.roundMs,
}
