import type { Suite } from '../types.js'
import { concurrencySuite } from './concurrency.js'
import { hashSuite } from './hash.js'
import { httpSuite, idsInFastifySuite } from './http.js'
import { idsSuite } from './ids.js'
import { lagSuite } from './lag.js'
import { storesSuite } from './stores.js'
import { stretchSuite } from './stretch.js'

/** Every suite, in run order. Adding one = one import and one entry here (see README "Adding a suite"). */
export const SUITES: readonly Suite[] = [
  idsSuite,
  hashSuite,
  lagSuite,
  concurrencySuite,
  stretchSuite,
  idsInFastifySuite,
  httpSuite,
  storesSuite,
]

/** The suites `compare` may judge one run against one: each of their rounds runs in a fresh process. */
export const PROCESS_ROUND_SUITES: ReadonlySet<string> = new Set(
  SUITES.filter((s) => s.roundsAreProcesses).map((s) => s.name),
)
