/**
 * Entry point of one server process for the http suite: the server runs in its own process so it can
 * be pinned to one core while autocannon runs on another (GUIDE.md §3 rule 4). The candidates are
 * discovered here exactly as in the bench process, so a candidate is named by its id, never rebuilt.
 * Prints one JSON line `{ "url": … }` when listening; exits when its stdin closes (the bench is gone).
 */
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PasswordHasher } from '@authlab/core'
import { createUserDirectory, FRAMEWORKS } from '@authlab/servers'
import { assembleCandidates } from '../candidates.js'
import { discoverPackages, loadPackages } from '../discovery.js'
import { BENCH_PASSWORD, COST_SETTINGS, instantiate } from '../settings.js'
import { BENCH_USER, type ServerSpec } from './spec.js'

async function main(spec: ServerSpec): Promise<void> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
  // Only the two packages this server runs: importing every strategy made each start cost seconds of CPU.
  const wanted = new Set([spec.generator, spec.hasher])
  const loaded = await loadPackages(discoverPackages(root).filter((pkg) => wanted.has(pkg.name)))
  const { candidates } = assembleCandidates(loaded.flatMap((outcome) => (outcome.ok ? [outcome.pkg] : [])))
  const generator = candidates.ids.find((candidate) => candidate.id === spec.generator)
  const hashCandidate = candidates.hashers.find((candidate) => candidate.id === spec.hasher)
  if (!generator || !hashCandidate) throw new Error(`unknown candidate in ${JSON.stringify(spec)}`)
  const setting = COST_SETTINGS.find((s) => s.label === spec.setting)
  const hasher: PasswordHasher | undefined = setting
    ? instantiate(hashCandidate, setting)
    : hashCandidate.create()
  if (!hasher) throw new Error(`${spec.hasher} does not run ${spec.setting}`)
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

main(JSON.parse(process.argv[2] ?? '{}') as ServerSpec).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
