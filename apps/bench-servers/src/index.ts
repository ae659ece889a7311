/**
 * The bench's server suites, in a workspace of their own: real servers and stores under load, minutes
 * long. The bench finds this package by its `"authlab": { "benchSuites" }` and runs these beside its
 * own suites (ids-in-fastify in the default quick run; ids-in-frameworks, sign-in, http and stores when
 * named).
 */
import type { AnySuite } from '@authlab/benchmarks/harness'
import { httpSuite } from './http.js'
import { idsInFastifySuite } from './ids-in-fastify.js'
import { idsInFrameworksSuite } from './ids-in-frameworks.js'
import { signInSuite } from './sign-in.js'
import { storesSuite } from './stores.js'

export const suites: readonly AnySuite[] = [
  idsInFastifySuite,
  idsInFrameworksSuite,
  signInSuite,
  httpSuite,
  storesSuite,
]
