import { createRequire } from 'node:module'
import { factoryOf, type LoadedPackage } from '@authlab/workspace'
import { fromBench, fromServers, referenceLabel } from '../../discover/references.js'
import type { PortableSuite } from '../../harness/suite.js'
import {
  absentNote,
  type BuiltIn,
  type RuntimeCandidate,
  type RuntimeGroup,
  runtimeControl,
} from '../../runtimes/group.js'
import type { IdsBudget } from './measure.js'

/**
 * `crypto.randomUUIDv7()` from node:crypto (Node >= 24, and Bun's node:crypto): 74 random bits and a
 * millisecond timestamp (RFC 9562 §5.7), a reference many apps use as a token.
 */
const RANDOM_UUID_V7: BuiltIn & { readonly candidate: RuntimeCandidate } = {
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

/**
 * The session frameworks' default generators, loaded from the files the http servers install (not
 * retyped). They use node:crypto, so they load in Node, Bun and Deno, and are left out elsewhere.
 */
function frameworkDefaults(): RuntimeCandidate[] {
  const expressDir = fromServers.resolve('express-session')
  const at = (id: string, module: string, setup: string, call: string): RuntimeCandidate => ({
    id,
    label: referenceLabel(id),
    module,
    setup,
    call,
    optional: true,
  })
  return [
    at(
      'ref:fastify-session',
      fromServers.resolve('@fastify/session/lib/idGenerator.js'),
      'return (m.default ?? m)(true)',
      's()',
    ),
    at(
      'ref:express-session',
      createRequire(expressDir).resolve('uid-safe'),
      'return m.default ?? m',
      's.sync(24)',
    ),
    // better-auth's session token, from the @better-auth/core the bench installs; Web Crypto only.
    at('ref:better-auth', fromBench.resolve('@better-auth/core/utils/id'), 'return m.generateId', 's(32)'),
  ]
}

/** Every generator claiming the runtime, crypto.randomUUID() as the baseline, the frameworks' defaults where they load. */
function groups(runtime: string, claiming: readonly LoadedPackage[]): RuntimeGroup[] {
  const uuid: RuntimeCandidate = {
    id: 'ref:randomUUID',
    label: referenceLabel('ref:randomUUID'),
    call: 'crypto.randomUUID()',
  }
  const generators = claiming
    .filter((pkg) => pkg.kind === 'id')
    .map((pkg): RuntimeCandidate => {
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
  return [
    {
      group: 'session IDs',
      key: { setting: 'defaults', operation: 'generate' },
      unit: 'IDs/s',
      baseline: uuid.id,
      candidates: [
        uuid,
        runtimeControl(uuid),
        ...(v7 ? [RANDOM_UUID_V7.candidate] : []),
        ...generators,
        ...frameworkDefaults(),
      ],
      notes: v7 ? [] : [absentNote(RANDOM_UUID_V7, runtime)],
    },
  ]
}

/** An ids batch in another runtime lasts at least this long: browsers coarsen performance.now to ~1 ms. */
const BATCH_MS = 20

export const portable: PortableSuite<IdsBudget> = {
  kinds: ['id'],
  groups,
  minBatchMs: () => BATCH_MS,
}
