// The conformance observations a strategy package can give inside any runtime (Node, Bun, Deno, a
// browser page): no Node built-ins and no assertions here. It returns what it saw; the caller, on
// Node, judges it against the declared metadata, the published vectors and Node's own hashers, so a
// runtime is never trusted to grade itself.
import { loopLagDuring } from './portable.mjs'

/**
 * @typedef {{ id: string, options: Record<string, unknown> | undefined, blocking: Record<string, unknown> | undefined,
 *   vectors: { password: string, nearMiss: string, encoded: string }[], kdfVectors: { password: string, salt: string,
 *   params: Record<string, number>, options: Record<string, unknown> | undefined, length: number, hex: string }[],
 *   password: string, nearMiss: string, fromNode: string[] }} HashPlan
 *   One algorithm of one hash package: `options` (cheap parameters) for the functional checks,
 *   `blocking` (the package's defaults) for the event-loop check, and hashes Node made to cross-verify.
 * @typedef {{ kind: 'refused', package: string, of: 'id' | 'hash' | 'stretch',
 *   calls: { id: string, options?: Record<string, unknown> }[] }} RefusalPlan
 *   Calls that must fail with UnsupportedRuntimeError here: each hash algorithm's cheap setting (a hash
 *   package), one ID (an ID package) or one stretch (a stretch package). `package` names the module,
 *   so a package may have a refusal plan beside its conformance plan.
 * @typedef {{ kind: 'id', ids: number } | { kind: 'hash', plans: HashPlan[] }
 *   | { kind: 'stretch', vector: { email: string, password: string, mainSalt: string } } | RefusalPlan} Plan
 */

/** The shortest stretch of hashing or ID generation the event-loop probe watches. */
const JUDGED_MS = 100

const hex = (/** @type {Uint8Array} */ bytes) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const unhex = (/** @type {string} */ text) =>
  Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16))

/** A thrown value as data: the code our errors carry, or the message. */
async function outcome(/** @type {() => Promise<unknown>} */ action) {
  try {
    return { value: await action() }
  } catch (error) {
    const e = /** @type {{ code?: string, message?: string }} */ (error)
    return { error: e.code ?? e.message ?? String(error) }
  }
}

/**
 * Observes one package (its module namespace `mod`) under `plan`.
 * @param {Record<string, any>} mod
 * @param {Plan} plan
 */
export async function observe(mod, plan) {
  if (plan.kind === 'refused') return observeRefusals(mod, plan)
  if (plan.kind === 'id') return observeIds(mod, plan.ids)
  if (plan.kind === 'hash') {
    const out = []
    for (const step of plan.plans) out.push({ id: step.id, ...(await observeHasher(mod, step)) })
    return out
  }
  return observeStretch(mod, plan.vector)
}

async function observeIds(/** @type {Record<string, any>} */ mod, /** @type {number} */ count) {
  const generate = mod.createIdGenerator()
  const ids = Array.from({ length: count }, () => generate())
  // Generating is synchronous by contract: IDs drawn back to back for JUDGED_MS hold the loop.
  const probe = await loopLagDuring(async () => {
    const until = performance.now() + JUDGED_MS
    do for (let i = 0; i < 1000; i++) generate()
    while (performance.now() < until)
  })
  return { info: plain(generate.info), ids, lag: lagOf(probe, 'main-thread') }
}

async function observeHasher(/** @type {Record<string, any>} */ mod, /** @type {HashPlan} */ step) {
  const hasher = mod.createHasher(step.options)
  const knownAnswers = []
  for (const v of step.vectors) {
    knownAnswers.push({
      right: await outcome(() => hasher.verify(v.encoded, v.password)),
      nearMiss: await outcome(() => hasher.verify(v.encoded, v.nearMiss)),
    })
  }
  const kdf = []
  for (const v of step.kdfVectors) {
    kdf.push(
      await outcome(async () => hex(await mod.createHasher(v.options).derive(v.password, v.salt, v.length))),
    )
  }
  const hashes = [await hasher.hash(step.password), await hasher.hash(step.password)]
  const roundTrip = {
    right: await hasher.verify(hashes[0], step.password),
    nearMiss: await hasher.verify(hashes[0], step.nearMiss),
  }
  const verifiesNode = []
  for (const encoded of step.fromNode) verifiesNode.push(await hasher.verify(encoded, step.password))
  const blocking = mod.createHasher(step.blocking)
  await blocking.hash('warm-up') // JIT, WASM compilation and worker start-up are not the steady state
  // Hashes back to back for at least JUDGED_MS, so a fast setting (argon2 in native code) is still
  // long enough for a 1 ms timer to tell a free loop from a held one.
  const probe = await loopLagDuring(async () => {
    const until = performance.now() + JUDGED_MS
    do await blocking.hash('event loop')
    while (performance.now() < until)
  })
  return {
    info: plain(hasher.info),
    knownAnswers,
    kdf,
    hashes,
    roundTrip,
    verifiesNode,
    lag: lagOf(probe, blocking.info.runsOn),
  }
}

async function observeStretch(
  /** @type {Record<string, any>} */ mod,
  /** @type {{ email: string, password: string, mainSalt: string }} */ vector,
) {
  const stretcher = mod.createStretcher()
  const stretch = () => stretcher.stretch(vector.email, vector.password, unhex(vector.mainSalt))
  const keys = await stretch()
  const probe = await loopLagDuring(stretch)
  return {
    info: plain(stretcher.info),
    keys: Object.fromEntries(Object.entries(keys).map(([name, value]) => [name, hex(value)])),
    lag: lagOf(probe, stretcher.info.runsOn),
  }
}

/** How each call of a refusal plan failed: the error's code and message, or that it did not fail. */
async function observeRefusals(/** @type {Record<string, any>} */ mod, /** @type {RefusalPlan} */ plan) {
  const vector = { email: 'andré@example.org', password: 'pässwörd', salt: new Uint8Array(32) }
  const calls = {
    hash: (/** @type {Record<string, unknown> | undefined} */ options) =>
      mod.createHasher(options).hash('pässwörd'),
    id: () => mod.createIdGenerator()(),
    stretch: () => mod.createStretcher().stretch(vector.email, vector.password, vector.salt),
  }
  const seen = []
  for (const call of plan.calls) {
    try {
      // Created and used inside the try: a strategy may refuse when created or on first use.
      await calls[plan.of](call.options)
      seen.push({ id: call.id, value: 'did not fail' })
    } catch (error) {
      const e = /** @type {{ code?: string, message?: string }} */ (error)
      seen.push({ id: call.id, code: e?.code, message: e?.message ?? String(error) })
    }
  }
  return seen
}

/** The probe's reading with the runsOn it is judged against. */
const lagOf = (
  /** @type {{ maxLagMs: number, gapMs: number, idleGapMs: number, ms: number }} */ probe,
  /** @type {string} */ runsOn,
) => ({ maxLagMs: probe.maxLagMs, gapMs: probe.gapMs, idleGapMs: probe.idleGapMs, ms: probe.ms, runsOn })

/** Metadata as JSON carries it (functions and symbols dropped), the same from every runtime. */
const plain = (/** @type {unknown} */ value) => JSON.parse(JSON.stringify(value))
