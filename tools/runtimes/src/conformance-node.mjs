// The Node half of the cross-runtime conformance run: what to ask each package to do inside a runtime
// (plans built from the algorithm profiles and the published vectors), and the verdict on what it
// brought back, judged here on Node against the declared metadata and Node's own hashers.

import { nearMiss, ONEPW_VECTOR, SAFE_ID_CHARACTERS, VECTOR_SETS } from '@authlab/conformance'
import { DEFAULT_PASSWORD_POLICY, getAlgorithm, storedHashWork } from '@authlab/core'
import {
  factoryOf,
  hashAlgorithms,
  hashAlgorithmsIn,
  hashOptions,
  nodeEngineProblem,
} from '@authlab/workspace'

const PASSWORD = 'pässwörd 🔑'
/** IDs drawn for the format check, and for the loop check that many times over. */
const IDS = 2000
/** Below this a call is too short for a 1 ms timer to tell blocking from not: too fast to judge. */
const MIN_JUDGED_MS = 20

const encoder = new TextEncoder()
/** @param {import('@authlab/core').PasswordPolicy} policy @param {string} password */
const accepts = ({ minBytes, maxBytes, allowNul }, password) => {
  const bytes = encoder.encode(password)
  return bytes.length >= minBytes && bytes.length <= maxBytes && (allowNul || !bytes.includes(0))
}

/**
 * What `pkg` must refuse inside runtime `id` with UnsupportedRuntimeError (`ERR_AUTHLAB_UNSUPPORTED_RUNTIME`),
 * a typed error saying why, rather than fail any other way: everything, for a package that does not
 * claim `id` (its default factory's product is used once), or a hash package's algorithms outside the
 * ones it claims there. Undefined when there is nothing to refuse.
 * @param {import('@authlab/workspace').LoadedPackage} pkg
 * @param {string} id
 * @returns {import('./conformance.mjs').RefusalPlan | undefined}
 */
export function refusalPlanFor(pkg, id) {
  const claimed = pkg.runtimes.includes(/** @type {any} */ (id))
  if (pkg.kind !== 'hash')
    return claimed
      ? undefined
      : { kind: 'refused', package: pkg.name, of: pkg.kind, calls: [{ id: pkg.kind }] }
  const inRuntime = hashAlgorithmsIn(pkg, id)
  const refused = hashAlgorithms(pkg).filter((algorithm) => !inRuntime.includes(algorithm))
  if (refused.length === 0) return undefined
  return {
    kind: 'refused',
    package: pkg.name,
    of: 'hash',
    calls: refused.map((algorithm) => ({
      id: algorithm,
      options: hashOptions(pkg, algorithm, getAlgorithm(algorithm).testParams.cheap),
    })),
  }
}

/**
 * The problems in what a runtime brought back for a refusal plan: every call must have failed with
 * UnsupportedRuntimeError and a message.
 * @param {import('./conformance.mjs').RefusalPlan} plan
 * @param {{ id: string, code?: string, message?: string }[]} seen
 * @returns {string[]}
 */
export function judgeRefusals(plan, seen) {
  return plan.calls.flatMap((call, i) => {
    const got = seen[i]
    if (got?.code === 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME' && (got.message ?? '').length > 0) return []
    return [`${call.id}: expected UnsupportedRuntimeError, got ${JSON.stringify(got)}`]
  })
}

/**
 * What `pkg` is asked to do inside another runtime, or `{ skip }` with the reason when its checks need
 * something outside the runtime. `loaded` are every strategy package loaded on Node: the peers that
 * cross-verify a hasher's output. `id`, the runtime, narrows a hash package to the algorithms it claims
 * there (hashAlgorithmsIn).
 * @param {import('@authlab/workspace').LoadedPackage} pkg
 * @param {readonly import('@authlab/workspace').LoadedPackage[]} loaded
 * @param {string} [id]
 * @returns {Promise<{ plan: import('./conformance.mjs').Plan } | { skip: string }>}
 */
export async function planFor(pkg, loaded, id) {
  if (pkg.kind === 'id') return { plan: { kind: 'id', ids: IDS } }
  if (pkg.kind === 'stretch') {
    // A stretch checked here is a self-contained chain with published vectors (onepw); one that
    // calls a helper service is checked by its own suite, with the helper running.
    if (typeof pkg.exports.createStretcher !== 'function') {
      return { skip: `${pkg.name} exports no self-contained createStretcher to run here` }
    }
    const info = /** @type {any} */ (factoryOf(pkg)()).info
    if (info?.algorithm !== 'onepw') return { skip: `${pkg.name} has no known-answer vector to check` }
    const { email, password, mainSalt } = ONEPW_VECTOR
    return { plan: { kind: 'stretch', vector: { email, password, mainSalt } } }
  }
  const plans = []
  for (const algorithm of id === undefined ? hashAlgorithms(pkg) : hashAlgorithmsIn(pkg, id)) {
    const profile = getAlgorithm(algorithm)
    const cheap = profile.testParams.cheap
    const policy = profile.policy ?? DEFAULT_PASSWORD_POLICY
    const encoded = lightVectors(
      profile,
      /** @type {import('@authlab/conformance').EncodedVector[]} */ (
        VECTOR_SETS[profile.vectors.encoded ?? ''] ?? []
      ).filter((v) => accepts(policy, v.password)),
    )
    // A package built on a newer Node's API (authlab.node) cannot be created on this Node: the runtime
    // reports its runsOn, and it is judged off the main thread at the bench setting, as a claim to be.
    const own = nodeEngineProblem(pkg)
      ? { info: { runsOn: 'unknown here' } }
      : /** @type {any} */ (factoryOf(pkg)(hashOptions(pkg, algorithm, cheap)))
    // The raw-KDF vectors no heavier than the cheap test setting in every parameter (RFC 7914's
    // N=16 and c=1 vectors): the heavier ones cost seconds in pure JS in a browser and check nothing
    // more about the implementation (each package's own suite on Node runs them all).
    const kdf = /** @type {import('@authlab/conformance').KdfVector[]} */ (
      typeof own.derive === 'function' ? (VECTOR_SETS[profile.vectors.kdf ?? ''] ?? []) : []
    ).filter((v) => Object.entries(v.params).every(([key, value]) => value <= (cheap[key] ?? value)))
    const fromNode = await Promise.all(peersOf(pkg, algorithm, loaded).map((peer) => peer.hash(PASSWORD)))
    plans.push({
      id: algorithm,
      options: hashOptions(pkg, algorithm, cheap),
      // A claim to run off the main thread is judged at the lightest setting the bench measures
      // (OWASP's minimums, scrypt N=2^15), where hashing is long enough to hold a timer back if it
      // blocks. A main-thread claim is not judged by the timer (see judgeLoop): cheap parameters do.
      blocking: hashOptions(
        pkg,
        algorithm,
        own.info.runsOn === 'main-thread' ? cheap : (profile.bench[0]?.params ?? cheap),
      ),
      vectors: encoded.map((v) => ({
        password: v.password,
        nearMiss: nearMiss(v.password),
        encoded: v.encoded,
      })),
      kdfVectors: kdf.map((v) => ({ ...v, options: hashOptions(pkg, algorithm, v.params) })),
      password: PASSWORD,
      nearMiss: nearMiss(PASSWORD),
      fromNode,
    })
  }
  return { plan: { kind: 'hash', plans } }
}

/**
 * The known-answer vectors no more than twice as costly as the cheapest (bcrypt cost 5, scrypt ln=14,
 * argon2id m=256): the heavier ones (bcrypt cost 12, scrypt ln=16, argon2id m=64 MiB) cost seconds each
 * in pure JS and check nothing more about an implementation in another runtime; each package's own
 * suite on Node verifies them all.
 * @param {import('@authlab/core').AlgorithmProfile} profile
 * @param {import('@authlab/conformance').EncodedVector[]} vectors
 */
function lightVectors(profile, vectors) {
  const work = vectors.map(({ encoded }) => storedHashWork(profile, encoded).units)
  const cheapest = Math.min(...work)
  return vectors.filter((_, i) => (work[i] ?? 0) <= 2 * cheapest)
}

/**
 * Other packages implementing `algorithm`, configured cheaply, on this Node: each verifies what the
 * runtime produced and produced what the runtime must verify. Worker-pool hashers are left out: they
 * add threads to start and nothing a main-thread peer does not check.
 * @param {import('@authlab/workspace').LoadedPackage} pkg @param {string} algorithm
 * @param {readonly import('@authlab/workspace').LoadedPackage[]} loaded
 * @returns {import('@authlab/core').PasswordHasher[]}
 */
export function peersOf(pkg, algorithm, loaded) {
  const cheap = getAlgorithm(algorithm).testParams.cheap
  return loaded.flatMap((other) => {
    if (other.kind !== 'hash' || other.name === pkg.name || nodeEngineProblem(other)) return []
    const options = hashOptions(other, algorithm, cheap)
    if (!options) return []
    const peer = /** @type {import('@authlab/core').PasswordHasher} */ (factoryOf(other)(options))
    return peer.info.runsOn === 'worker' ? [] : [peer]
  })
}

/**
 * The problems in what `pkg` brought back from a runtime, one line each (empty when it conforms).
 * @param {import('@authlab/workspace').LoadedPackage} pkg
 * @param {import('./conformance.mjs').Plan} plan
 * @param {any} seen what conformance.mjs `observe` returned
 * @param {readonly import('@authlab/workspace').LoadedPackage[]} loaded
 * @returns {Promise<string[]>}
 */
export async function judge(pkg, plan, seen, loaded) {
  if (plan.kind === 'id') return judgeIds(seen)
  if (plan.kind === 'stretch') return [...judgeStretch(seen), ...judgeLoop('stretch', seen.lag)]
  if (plan.kind === 'refused') return judgeRefusals(plan, seen)
  /** @type {string[]} */
  const problems = []
  for (const [i, step] of plan.plans.entries()) {
    const got = seen[i]
    const at = (/** @type {string} */ what) => problems.push(`${step.id}: ${what}`)
    for (const [k, v] of got.knownAnswers.entries()) {
      if (v.right.value !== true)
        at(`vector ${step.vectors[k]?.encoded} did not verify (${JSON.stringify(v.right)})`)
      if (v.nearMiss.value !== false) at(`a near miss verified against ${step.vectors[k]?.encoded}`)
    }
    for (const [k, v] of got.kdf.entries()) {
      if (v.value !== step.kdfVectors[k]?.hex) at(`derive() gave ${JSON.stringify(v)} for a published vector`)
    }
    const [first, second] = got.hashes
    if (typeof first !== 'string' || !first.startsWith('$'))
      at(`hash ${JSON.stringify(first)} is not an encoded hash`)
    if (first === second) at('two hashes of one password are equal: no salt')
    if (got.roundTrip.right !== true || got.roundTrip.nearMiss !== false)
      at('hash → verify round trip failed')
    if (got.verifiesNode.some((/** @type {boolean} */ ok) => ok !== true)) at('rejects a hash made on Node')
    for (const peer of peersOf(pkg, step.id, loaded)) {
      if (!(await peer.verify(first, step.password))) at(`${peer.info.name} on Node rejects ${first}`)
    }
    problems.push(...judgeLoop(step.id, got.lag))
  }
  return problems
}

/** @param {any} seen */
function judgeIds(seen) {
  const { length, alphabet } = seen.info
  /** @type {string[]} */
  const problems = []
  const allowed = new Set(alphabet)
  const bad = seen.ids.find(
    (/** @type {string} */ id) =>
      id.length !== length || !SAFE_ID_CHARACTERS.test(id) || [...id].some((c) => !allowed.has(c)),
  )
  if (bad !== undefined)
    problems.push(`ID ${JSON.stringify(bad)} is not ${length} characters of its alphabet`)
  if (new Set(seen.ids).size !== seen.ids.length) problems.push('duplicate IDs')
  return [...problems, ...judgeLoop('ids', { ...seen.lag, runsOn: 'main-thread' })]
}

/** @param {any} seen */
function judgeStretch(seen) {
  const { k1, k2, stretchedPW, mainKDF } = ONEPW_VECTOR
  const keys = seen.keys
  const wrong = Object.entries({ k1, k2, stretchedPW })
    .filter(([name, hex]) => keys[name] !== hex)
    .map(([name]) => name)
  if (`${keys.srpPW}${keys.unwrapBKey}` !== mainKDF) wrong.push('mainKDF')
  return wrong.map((name) => `${name} differs from the published vector`)
}

/**
 * The declared runsOn against the loop probe. A claim to run off the main thread (threadpool, worker,
 * remote) must leave the loop free: the 1 ms timer never held back longer than 50 ms or three quarters
 * of the call, whichever is more (a loaded box deschedules the whole process now and then), and the
 * median gap between its runs under 3× the idle one. A main-thread call is judged only when it says
 * nothing else: it may block in one piece or yield in small chunks (scrypt-js does, and a timer then
 * sees a free loop), so the probe's reading is reported, and Node's own suite, which has event-loop
 * utilization, judges that claim.
 * @param {string} what
 * @param {{ maxLagMs: number, gapMs: number, idleGapMs: number, ms: number, runsOn: string }} lag
 */
export function judgeLoop(what, { maxLagMs, gapMs, idleGapMs, ms, runsOn }) {
  const seen = `${what}: took ${ms.toFixed(0)} ms, timer held back up to ${maxLagMs.toFixed(1)} ms, median gap ${gapMs.toFixed(1)} ms (idle ${idleGapMs.toFixed(1)} ms)`
  if (ms < MIN_JUDGED_MS) return [`${seen}: too fast to judge runsOn "${runsOn}"`]
  if (runsOn === 'main-thread') return []
  const free = maxLagMs <= Math.max(50, ms * 0.75) && gapMs < 3 * idleGapMs
  return free ? [] : [`${seen}, yet declares ${runsOn}`]
}
