/**
 * Entry point of one server process for the http suite: the server runs in its own process so it can
 * be pinned to one core while autocannon runs on another, so neither steals the other's CPU time. The candidates are
 * discovered here exactly as in the bench process, so a candidate is named by its id, never rebuilt.
 *
 * `server-process.js <spec>`: prints one JSON line `{ "url": … }` when listening; exits when its stdin
 * closes (the bench is gone). `server-process.js <spec> --time-verify <MeasureOptions>`: prints
 * `{ "singleMs": … }`, the mean time of one verify in a process like the server's, and exits.
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PasswordHasher } from '@authlab/core'
import { createUserDirectory, FRAMEWORKS } from '@authlab/servers'
import { loadCandidates } from '../../discover/candidates.js'
import { BENCH_PASSWORD, costSettings, instantiate } from '../../discover/settings.js'
import { type MeasureOptions, measureAsync } from '../../measure/measure.js'
import type { IdCandidate } from '../../types.js'
import { BENCH_USER, type ServerSpec } from './servers.js'

async function resolveSpec(spec: ServerSpec): Promise<{ generator: IdCandidate; hasher: PasswordHasher }> {
  // The repository root: this file is benchmarks/{src,dist}/suites/http/server-process.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..')
  // Only the two packages this server runs: importing every strategy made each start cost seconds of CPU.
  const { candidates } = await loadCandidates(root, { only: new Set([spec.generator, spec.hasher]) })
  const generator = candidates.ids.find((candidate) => candidate.id === spec.generator)
  const hashCandidate = candidates.hashers.find((candidate) => candidate.id === spec.hasher)
  if (!generator || !hashCandidate) throw new Error(`unknown candidate in ${JSON.stringify(spec)}`)
  const setting = costSettings().find((s) => s.label === spec.setting)
  const hasher = setting ? instantiate(hashCandidate, setting) : hashCandidate.create()
  if (!hasher) throw new Error(`${spec.hasher} does not run ${spec.setting}`)
  return { generator, hasher }
}

async function serve(spec: ServerSpec): Promise<void> {
  const { generator, hasher } = await resolveSpec(spec)
  const users = await createUserDirectory(hasher, { [BENCH_USER]: BENCH_PASSWORD })
  const server = await FRAMEWORKS[spec.framework]({
    generateId: generator.create(),
    users,
    secret: 'authlab-bench-http-suite-secret-32+chars',
  })
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
  process.stdin.resume()
  process.stdin.on('end', () => void server.close().then(() => process.exit(0)))
}

async function timeVerify(spec: ServerSpec, options: MeasureOptions): Promise<void> {
  const { hasher } = await resolveSpec(spec)
  const encoded = await hasher.hash(BENCH_PASSWORD)
  const single = await measureAsync(() => hasher.verify(encoded, BENCH_PASSWORD), options)
  process.stdout.write(`${JSON.stringify({ singleMs: single.mean })}\n`)
  process.exit(0)
}

const [specArg = '{}', mode, optionsArg = '{}'] = process.argv.slice(2)
const spec = JSON.parse(specArg) as ServerSpec
const work =
  mode === '--time-verify' ? timeVerify(spec, JSON.parse(optionsArg) as MeasureOptions) : serve(spec)
work.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
