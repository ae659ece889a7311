/**
 * Entry point of one server process for the http suite, pinned to one core while the load runs on
 * another. The candidates are discovered here as in the bench process, so a candidate is named by its id.
 *
 * `server-process.js <spec>`: prints one JSON line `{ "url": … }` when listening; exits when its stdin
 * closes (the bench is gone). `server-process.js <spec> --time-verify <MeasureOptions>`: prints
 * `{ "singleMs": … }`, the mean time of one verify in a process like the server's, and exits.
 */
import { timingSafeEqual } from 'node:crypto'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  BENCH_PASSWORD,
  costSettings,
  type IdCandidate,
  instantiate,
  loadCandidates,
  type MeanCallPlan,
  meanCallMs,
} from '@authlab/benchmarks/harness'
import { checkIdGenerator, type PasswordHasher } from '@authlab/core'
import { createUserDirectory, FRAMEWORKS } from '@authlab/servers'
import { BENCH_USER, GENERATOR_HEADER, NO_HASH, type ServerSpec } from './servers.js'

async function resolveSpec(spec: ServerSpec): Promise<{ generators: IdCandidate[]; hasher: PasswordHasher }> {
  // The repository root: this file is apps/bench-servers/{src,dist}/http/server-process.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')
  const ids = spec.generators ?? [spec.generator]
  // Only the packages this server runs: importing every strategy costs seconds of CPU per start.
  const { candidates } = await loadCandidates(root, { only: new Set([...ids, spec.hasher]) })
  const generators = ids.map((id) => candidates.ids.find((candidate) => candidate.id === id))
  if (generators.some((g) => g === undefined)) throw new Error(`unknown candidate in ${JSON.stringify(spec)}`)
  if (spec.hasher === NO_HASH) return { generators: generators as IdCandidate[], hasher: noHash }
  const hashCandidate = candidates.hashers.find((candidate) => candidate.id === spec.hasher)
  if (!hashCandidate) throw new Error(`unknown candidate in ${JSON.stringify(spec)}`)
  const setting = costSettings().find((s) => s.label === spec.setting)
  const hasher = setting ? instantiate(hashCandidate, setting) : hashCandidate.create()
  if (!hasher) throw new Error(`${spec.hasher} does not run ${spec.setting}`)
  return { generators: generators as IdCandidate[], hasher }
}

/**
 * NO_HASH: the password itself as the stored form, compared in constant time. INSECURE and bench-only:
 * it exists to measure what a login costs a server besides the hash.
 */
const noHash: PasswordHasher = {
  info: {
    name: NO_HASH,
    displayName: 'no hash (INSECURE, bench-only)',
    wraps: 'nothing',
    algorithm: 'none',
    runsOn: 'main-thread',
    params: {},
  },
  hash: async (password) => `plain:${Buffer.from(password).toString('base64')}`,
  verify: async (stored, password) => {
    const expected = Buffer.from(`plain:${Buffer.from(password).toString('base64')}`)
    const given = Buffer.from(stored)
    return given.length === expected.length && timingSafeEqual(given, expected)
  },
  needsRehash: () => false,
}

/**
 * One generator, or several chosen per request by GENERATOR_HEADER (each its own instance, also when
 * two entries name the same candidate: an A/A control). Both frameworks hand their ID generator the
 * request, so the choice costs a header read per new session, the same for every generator.
 */
function generatorOf(candidates: readonly IdCandidate[]): (request?: unknown) => string {
  // Each one passes the servers' own check (length, alphabet, no repeats) before it is served.
  const instances = candidates.map((candidate) => checkIdGenerator(candidate.create()))
  if (instances.length === 1) return instances[0] as () => string
  return (request) => {
    // Without a request (the servers' option check calls it bare) the first one answers.
    if (request === undefined) return (instances[0] as () => string)()
    const header = (request as { headers?: Record<string, unknown> }).headers?.[GENERATOR_HEADER]
    const generate = instances[Number(header)]
    if (!generate) throw new Error(`${GENERATOR_HEADER} must be 0–${instances.length - 1}`)
    return generate()
  }
}

async function serve(spec: ServerSpec): Promise<void> {
  const { generators, hasher } = await resolveSpec(spec)
  const users = await createUserDirectory(hasher, { [BENCH_USER]: BENCH_PASSWORD })
  const server = await FRAMEWORKS[spec.framework]({
    generateId: generatorOf(generators),
    users,
    secret: 'authlab-bench-http-suite-secret-32+chars',
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  process.stdin.resume()
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)))
}

async function timeVerify(spec: ServerSpec, plan: MeanCallPlan): Promise<void> {
  const { hasher } = await resolveSpec(spec)
  const encoded = await hasher.hash(BENCH_PASSWORD)
  const singleMs = await meanCallMs(() => hasher.verify(encoded, BENCH_PASSWORD), plan)
  process.stdout.write(`${JSON.stringify({ singleMs })}\n`)
  process.exit(0)
}

const [specArg = '{}', mode, optionsArg = '{}'] = process.argv.slice(2)
const spec = JSON.parse(specArg) as ServerSpec
const work = mode === '--time-verify' ? timeVerify(spec, JSON.parse(optionsArg) as MeanCallPlan) : serve(spec)
work.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
