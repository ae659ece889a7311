import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'

/**
 * `publint --strict` on a packed tarball: every message as one line (strict turns warnings into
 * errors), empty when the package is clean.
 * @param {string} tarball path of the .tgz @param {import('@authlab/workspace').Manifest} manifest
 * @returns {Promise<string[]>}
 */
export async function publintProblems(tarball, manifest) {
  const bytes = readFileSync(tarball)
  const { messages } = await publint({
    strict: true,
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
  })
  return messages.map((message) => formatMessage(message, manifest, { color: false }) ?? message.code)
}

/**
 * are-the-types-wrong with its CLI's default (strict) profile: node10, node16 from CJS and from ESM,
 * and bundler resolution of every entry point; no DefinitelyTyped lookup (our packages ship their own
 * types, and the check stays offline). Returns one line per problem, [] when there is none.
 * In this process, through the @arethetypeswrong/core that the pinned CLI itself uses (resolved from the
 * CLI's own folder), instead of one `attw` process per package, each loading TypeScript again. The
 * verdict is the CLI's: `attw` exits 1 when analysis.problems is not empty under the strict profile,
 * which ignores no rule and no resolution kind (@arethetypeswrong/cli dist/getExitCode.js, profiles.js).
 * @param {string} tarball
 * @returns {Promise<string[]>}
 */
export async function attwProblems(tarball) {
  const core = await attwCore()
  const pkg = core.createPackageFromTarballData(new Uint8Array(readFileSync(tarball)))
  const analysis = await core.checkPackage(pkg)
  if (!analysis.types) return [`attw: ${tarball} has no types`]
  return analysis.problems.map(
    (/** @type {{ kind: string }} */ { kind, ...where }) => `attw: ${kind} ${JSON.stringify(where)}`,
  )
}

/** @type {Promise<any> | undefined} */
let loadedCore
function attwCore() {
  const cli = createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json')
  loadedCore ??= import(pathToFileURL(createRequire(cli).resolve('@arethetypeswrong/core')).href)
  return loadedCore
}
